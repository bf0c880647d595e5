package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/schema"
)

// TestDATGEndToEnd runs the diagnosis as a user does, each stage a datg
// process talking to simulated endpoints over HTTP: references, grading,
// DAGs, two aligners, scores, the paper's DATG tables and SQL over them.
func TestDATGEndToEnd(t *testing.T) {
	data := t.TempDir()
	mustDatg(t, "ingest", "polymath", "--src", testenv.Demo(t), "--per-level", "5", "--data", data)
	sim := pipelinetest.SimConfig(t)
	sim.Content = simulate.ContentFaults{Fenced: 0.1, Malformed: 0.05, Cycle: 0.2, UnknownNode: 0.05, AbsentSpan: 0.05}
	eps, urls := simulators(t, data, sim, sim)
	llm := []string{"--endpoints", urls, "--backoff", "1ms"}

	mustDatg(t, "generate", "--data", data, "--models", "Qwen/Qwen3-8B", "--langs", "en,fr,sw", "--limit", "2", "--endpoints", urls)
	r := mustDatg(t, append([]string{"references", "--data", data, "--model", "sim-reference", "--limit", "2"}, llm...)...)
	if !strings.Contains(r.stdout, "6 problems, 6 with 5 references, 30 accepted") {
		t.Fatalf("references said %q", r.stdout)
	}
	mustDatg(t, "verify", "--data", data)
	mustDatg(t, "langcheck", "--data", data)
	r = mustDatg(t, append([]string{"dags", "--data", data, "--model", "sim-dag-builder"}, llm...)...)
	if !strings.Contains(r.stdout, "30 DAGs") {
		t.Fatalf("dags said %q", r.stdout)
	}
	// en-en and en-fr, en-sw traces: 3 per problem, 6 problems, 5 DAGs each.
	r = mustDatg(t, append([]string{"align", "--data", data, "--model", "sim-aligner"}, llm...)...)
	if !strings.Contains(r.stdout, "align: 90 alignments") {
		t.Fatalf("align said %q", r.stdout)
	}
	mustDatg(t, "align", "--data", data, "--aligner", "symbolic")

	// Tables skip the DATG tables until there are scores.
	if r := mustDatg(t, "tables", "--data", data); !strings.Contains(r.stdout, "datg_main: skipped, no scores yet (run datg align and datg score)\n") {
		t.Fatalf("tables before score said %q", r.stdout)
	}
	mustDatg(t, "score", "--data", data)
	mustDatg(t, "tables", "--data", data)
	for _, name := range []string{"datg_main", "datg_full", "datg_correctness", "datg_correctness_main", "aligner_agreement"} {
		for _, ext := range []string{".csv", ".md", ".tex"} {
			if _, err := os.Stat(filepath.Join(data, "tables", name+ext)); err != nil {
				t.Errorf("tables did not write %s%s", name, ext)
			}
		}
	}

	// Every usable alignment has a score; every (trace, aligner) one best DAG.
	r = mustDatg(t, "sql", "--data", data, "--format", "csv", `
		select
		  (select count(*) from alignments a join dags d using (dag_id) where a.status = 'ok' and d.valid)
		    - (select count(*) from scores) as unscored,
		  (select count(*) from (select trace_id, aligner from scores group by all having count(*) filter (where best) <> 1)) as bad_best,
		  (select count(distinct aligner) from scores) as aligners`)
	if got := strings.TrimSpace(r.stdout); got != "unscored,bad_best,aligners\n0,0,2" {
		t.Fatalf("scores check:\n%s", got)
	}
	agreement, _ := os.ReadFile(filepath.Join(data, "tables", "aligner_agreement.csv"))
	if lines := strings.Split(strings.TrimSpace(string(agreement)), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "sim-aligner,symbolic,") {
		t.Fatalf("aligner_agreement.csv:\n%s", agreement)
	}

	// A rerun of every LLM stage is answered from the journal: no request.
	served := func() int64 { n, _ := pipelinetest.Served(servers(eps)...); return n }
	before := served()
	mustDatg(t, append([]string{"references", "--data", data, "--model", "sim-reference", "--limit", "2"}, llm...)...)
	mustDatg(t, append([]string{"dags", "--data", data, "--model", "sim-dag-builder"}, llm...)...)
	mustDatg(t, append([]string{"align", "--data", data, "--model", "sim-aligner"}, llm...)...)
	if n := served() - before; n != 0 {
		t.Fatalf("rerunning the DATG stages sent %d requests", n)
	}
}

// TestAlignKillAndResume kills `datg align` with SIGKILL midway and reruns
// it: every (trace, DAG) pair ends aligned exactly once and only requests
// that were in flight at the kill are sent again.
func TestAlignKillAndResume(t *testing.T) {
	data := t.TempDir()
	mustDatg(t, "ingest", "polymath", "--src", testenv.Demo(t), "--per-level", "5", "--data", data)
	fast := pipelinetest.SimConfig(t)
	_, fastURL := simulators(t, data, fast)
	mustDatg(t, "generate", "--data", data, "--models", "Qwen/Qwen3-8B", "--langs", "en,fr,sw,te", "--endpoints", fastURL)
	mustDatg(t, "references", "--data", data, "--model", "sim-reference", "--endpoints", fastURL)
	mustDatg(t, "dags", "--data", data, "--builder", "symbolic")

	slow := fast
	slow.Latency = 30 * time.Millisecond
	slow.Content = simulate.ContentFaults{Malformed: 0.05}
	eps, slowURL := simulators(t, data, slow)
	args := []string{"align", "--data", data, "--model", "sim-aligner", "--endpoints", slowURL, "--slots", "8"}
	served := func() int64 { return eps[0].Server.Stats().Served }
	atKill := killMidway(t, args, served, 100, time.Millisecond, "align")
	// What the killed run had been answered: a rerun pays again only for
	// those it had not journaled, at most one per slot (a retry within one
	// run, after a reply that stalled on a loaded machine, is not counted).
	answeredBeforeKill := eps[0].Server.Served()
	if store.Exists(data, schema.Alignments.Table) {
		t.Fatal("a killed run left an alignments table")
	}

	r := mustDatg(t, args...)
	// 15 problems x (en-en + 3 en-x) traces x 5 DAGs.
	if !strings.Contains(r.stdout, "align: 300 alignments") {
		t.Fatalf("rerun said %q", r.stdout)
	}
	rows, err := store.ReadAll(data, schema.Alignments)
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[string]int{}
	for _, a := range rows {
		pairs[a.TraceID+" "+a.DagID+" "+a.Aligner]++
	}
	for k, n := range pairs {
		if n != 1 {
			t.Fatalf("%s aligned %d times", k, n)
		}
	}
	resent := 0
	for body, n := range eps[0].Server.Served() {
		if before := answeredBeforeKill[body]; before > 0 && n > before {
			resent++
		}
	}
	if len(pairs) != 300 || atKill >= served() || resent > 8 {
		t.Fatalf("%d pairs; %d served at the kill, %d in all; %d sent twice (at most 8 were in flight)", len(pairs), atKill, served(), resent)
	}
	t.Logf("killed after %d responses of %d; the rerun re-sent %d", atKill, served(), resent)
}
