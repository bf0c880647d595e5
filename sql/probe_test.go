package sql_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/duck"
	datgsql "github.com/datg/datg/sql"
)

// paperProbeSeed is the seed of the paper's direction probe (study.json's
// seeds, [42]): every probe table reads the base traces of this seed.
const paperProbeSeed = 42

// probe says whether a fixture trace is one of the direction probe's.
func (tr fixtureTrace) probe() bool { return tr.Method == "base" && tr.Seed == paperProbeSeed }

// beyondTheProbe is what a run may hold besides the direction probe: for
// every probe trace of the fixture, base traces of the same cell at seeds
// 215 and 316 (datg generate --seeds 42,215,316 on the control's scope, as
// the README once had it) and at seed 7 (datg import traces), each with the
// opposite verdict, compliance and detector decisions and other scores; a
// base trace of a problem the probe lacks; and Table 3's Base
// (control-base) on the fixture's controlled cells, with its trials. Were
// any of it read by a probe table, that table's numbers would move.
func beyondTheProbe(t *testing.T) map[string][]string {
	t.Helper()
	rows := map[string][]map[string]any{}
	for _, table := range []string{"traces", "answers", "verdicts", "compliance", "detections", "scores"} {
		rows[table] = fixtureJSON(t, table)
	}
	probe := map[string]bool{}
	taken := map[string]bool{} // identities (cell, seed, method) the fixture holds
	identity := func(tr fixtureTrace, seed int64) string {
		return fmt.Sprint(tr.Model, "|", tr.InputLang, "|", tr.ReasoningLang, "|", tr.Level, "|", tr.ProblemID, "|", seed, "|", tr.Method)
	}
	traces := map[string]fixtureTrace{}
	for _, tr := range fixtureRows[fixtureTrace](t, "traces") {
		probe[tr.TraceID] = tr.probe()
		taken[identity(tr, tr.Seed)] = true
		traces[tr.TraceID] = tr
	}
	extra := map[string][]string{}
	add := func(table string, row map[string]any) {
		b, err := json.Marshal(row)
		if err != nil {
			t.Fatal(err)
		}
		extra[table] = append(extra[table], string(b))
	}
	flip := func(row map[string]any, keys ...string) {
		for _, k := range keys {
			if v, ok := row[k].(bool); ok {
				row[k] = !v
			}
		}
	}
	for _, seed := range []int64{215, 316, 7} {
		id := func(trace any) string { return fmt.Sprintf("s%d-%s", seed, trace) }
		// A trace's identity is its cell, seed and method: where the
		// fixture already has the cell at this seed (t041), it stays.
		copied := func(trace any) bool {
			return probe[trace.(string)] && !taken[identity(traces[trace.(string)], seed)]
		}
		for _, r := range rows["traces"] {
			if copied(r["trace_id"]) {
				c := clone(r)
				c["trace_id"], c["seed"] = id(r["trace_id"]), seed
				if seed == 7 {
					c["source"] = "import:other-seeds.jsonl"
				}
				add("traces", c)
			}
		}
		for _, table := range []string{"answers", "verdicts", "compliance", "detections"} {
			for _, r := range rows[table] {
				if copied(r["trace_id"]) {
					c := clone(r)
					c["trace_id"] = id(r["trace_id"])
					flip(c, "correct", "compliant")
					if table == "answers" || table == "verdicts" {
						c["reason"] = "gold-unparsed"
					}
					add(table, c)
				}
			}
		}
		for _, r := range rows["scores"] {
			if copied(r["trace_id"]) {
				c := clone(r)
				c["trace_id"] = id(r["trace_id"])
				c["car"], c["har"] = 1-r["car"].(float64), 1-r["har"].(float64)
				flip(c, "best")
				add("scores", c)
			}
		}
	}
	// A base trace of a problem outside the probe, at another seed: no cell
	// of the probe has it, so it would add one.
	add("traces", map[string]any{"trace_id": "s9-high-3", "model": "Qwen/Qwen3-4B", "input_lang": "en", "reasoning_lang": "sw",
		"direction": "en-x", "level": "high", "problem_id": "high-3", "seed": 9, "method": "base",
		"text": "<think>\nbeyond\n</think> \\boxed{2}", "completion_tokens": 7, "finish_reason": "stop", "truncated": false})
	add("answers", map[string]any{"trace_id": "s9-high-3", "extracted": "2", "has_answer": true, "correct": true, "gold": "2", "reason": "match", "grader": "fixture"})
	// Table 3's Base on a controlled cell of the fixture, seed 215.
	add("traces", map[string]any{"trace_id": "cb215", "model": "Qwen/Qwen3-4B", "input_lang": "en", "reasoning_lang": "sw",
		"direction": "en-x", "level": "low", "problem_id": "low-0", "seed": 215, "method": "control-base",
		"text": "<think>\nbase\n</think> \\boxed{1}", "completion_tokens": 950, "finish_reason": "stop", "truncated": false})
	add("answers", map[string]any{"trace_id": "cb215", "extracted": "1", "has_answer": true, "correct": false, "gold": "1", "reason": "mismatch", "grader": "fixture"})
	add("trials", map[string]any{"trace_id": "cb215", "method": "control-base", "model": "Qwen/Qwen3-4B", "reasoning_lang": "sw", "level": "low",
		"problem_id": "low-0", "seed": 215, "phase": "reasoning", "trial": 1, "sample_seed": 215, "temperature": 0.6, "repetition_penalty": 1.08,
		"completion_tokens": 950, "accepted": true, "finish_reason": "stop", "text": "base \\boxed{1}", "removed": []string{}})
	return extra
}

// TestProbeTablesReadOnlyTheProbe checks that every table but Table 3
// (control) gives the same bytes whatever else the run holds besides the
// direction probe: other seeds' base traces (generated or imported), a
// problem the probe lacks, and the controls' traces.
func TestProbeTablesReadOnlyTheProbe(t *testing.T) {
	probeOnly := tableOutputs(t, fixtureRun(t))
	withMore := tableOutputs(t, fixtureRunWith(t, beyondTheProbe(t)))
	for _, f := range datgsql.Tables() {
		if f.Name == "control" {
			if bytes.Equal(probeOnly[f.Name], withMore[f.Name]) {
				t.Errorf("control did not count Table 3's Base at seed 215")
			}
			continue
		}
		if !bytes.Equal(probeOnly[f.Name], withMore[f.Name]) {
			t.Errorf("%s reads traces beyond the probe:\n--- probe only\n%s--- with more\n%s", f.Name, probeOnly[f.Name], withMore[f.Name])
		}
	}
}

// TestProbeSeedIsTheRunsSetting checks that the probe tables read the
// seed datg_probe holds: moved to 215, the fixture's probe (seed 42) is
// outside it and the one seed-215 trace (t041) is all its en-x sw low cell
// of Qwen3-4B has.
func TestProbeSeedIsTheRunsSetting(t *testing.T) {
	db, err := duck.Open(context.Background(), fixtureRun(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var seed int64
	if err := db.QueryRow("SELECT seed FROM datg_probe").Scan(&seed); err != nil || seed != paperProbeSeed {
		t.Fatalf("datg_probe holds %d (%v), want the paper's %d", seed, err, paperProbeSeed)
	}
	if err := db.SetProbeSeed(context.Background(), 215); err != nil {
		t.Fatal(err)
	}
	f, _ := datgsql.Table("direction_accuracy")
	var got bytes.Buffer
	if err := duck.WriteQuery(context.Background(), db, f.Text, duck.FormatCSV, &got); err != nil {
		t.Fatal(err)
	}
	want := "model,model_label,level,direction,lang,n,correct,accuracy,wilson_low,wilson_high,paired_n,mcnemar_b,mcnemar_c,mcnemar_p,gold_unparsed\n" +
		"Qwen/Qwen3-4B,4B,low,en-x,sw,1,1,100,20.65,100,,,,,0\n"
	if got.String() != want {
		t.Fatalf("direction_accuracy at probe seed 215:\n%s\nwant\n%s", got.String(), want)
	}
}

// tableOutputs runs every table query over a run, as CSV by name.
func tableOutputs(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	db, err := duck.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string][]byte{}
	for _, f := range datgsql.Tables() {
		var b bytes.Buffer
		if err := duck.WriteQuery(context.Background(), db, f.Text, duck.FormatCSV, &b); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		out[f.Name] = b.Bytes()
	}
	return out
}

// fixtureJSON reads a fixture table's rows as JSON objects.
func fixtureJSON(t *testing.T, table string) []map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "fixture", table+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func clone(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// A base trace at the probe's seed is the probe's wherever it came from: an
// imported one (datg import traces, method base, seed 42) of a cell the
// probe lacks adds that cell.
func TestImportedBaseTracesAtTheProbeSeedAreTheProbes(t *testing.T) {
	extra := map[string][]string{
		"traces":  {`{"trace_id": "imp1", "model": "Qwen/Qwen3-4B", "input_lang": "en", "reasoning_lang": "sw", "direction": "en-x", "level": "high", "problem_id": "high-3", "seed": 42, "method": "base", "source": "import:probe.jsonl", "text": "<think>\nimported\n</think> \\boxed{2}", "completion_tokens": 7, "finish_reason": "stop", "truncated": false}`},
		"answers": {`{"trace_id": "imp1", "extracted": "2", "has_answer": true, "correct": true, "gold": "2", "reason": "match", "grader": "fixture"}`},
	}
	got := string(tableOutputs(t, fixtureRunWith(t, extra))["direction_accuracy"])
	if want := "\nQwen/Qwen3-4B,4B,high,en-x,sw,1,1,100,20.65,100,,,,,0\n"; !strings.Contains(got, want) {
		t.Fatalf("direction_accuracy lacks the imported probe trace's cell %q:\n%s", want, got)
	}
}
