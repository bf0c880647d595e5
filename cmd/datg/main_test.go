package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/simulate/simulatetest"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/schema"
)

// The test binary doubles as datg: with DATG_TEST_MAIN set it runs main, so
// tests can run, interrupt and kill real datg processes.
func TestMain(m *testing.M) {
	if os.Getenv("DATG_TEST_MAIN") != "" {
		main()
		return
	}
	os.Exit(m.Run())
}

type result struct {
	stdout, stderr string
	code           int
}

func datgCmd(ctx context.Context, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "DATG_TEST_MAIN=1"), env...)
	return cmd
}

func datg(t *testing.T, env []string, args ...string) result {
	t.Helper()
	cmd := datgCmd(context.Background(), env, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

func mustDatg(t *testing.T, args ...string) result {
	t.Helper()
	r := datg(t, nil, args...)
	if r.code != 0 {
		t.Fatalf("datg %s: exit %d\n%s", strings.Join(args, " "), r.code, r.stderr)
	}
	return r
}

func simulators(t *testing.T, data string, cfgs ...simulate.Config) ([]*simulate.Endpoint, string) {
	t.Helper()
	eps, urls := simulatetest.Start(t, data, cfgs...)
	return eps, strings.Join(urls, ",")
}

func TestStudyEndToEnd(t *testing.T) {
	data := t.TempDir()
	r := mustDatg(t, "ingest", "polymath", "--src", testenv.Demo(t), "--per-level", "5", "--data", data)
	if !strings.Contains(r.stdout, "180 problems") {
		t.Fatalf("ingest said %q", r.stdout)
	}
	_, urls := simulators(t, data, simulate.DefaultConfig(), simulate.DefaultConfig())
	r = mustDatg(t, "generate", "--data", data, "--models", "Qwen/Qwen3-4B,Qwen/Qwen3-8B", "--limit", "2", "--endpoints", urls)
	// 2 models x 3 levels x 2 problems x 34 (en-en + 11 x 3)
	if !strings.Contains(r.stdout, "generate: 408 traces") {
		t.Fatalf("generate said %q", r.stdout)
	}
	mustDatg(t, "verify", "--data", data)
	r = mustDatg(t, "tables", "--data", data)
	for _, name := range []string{"direction_accuracy", "accuracy_groups"} {
		for _, ext := range []string{".csv", ".md", ".tex"} {
			if _, err := os.Stat(filepath.Join(data, "tables", name+ext)); err != nil {
				t.Fatalf("tables did not write %s%s: %v", name, ext, err)
			}
		}
	}
	f, _ := os.Open(filepath.Join(data, "tables", "direction_accuracy.csv"))
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	// per model and level: en-en + 11 languages x 3 directions
	if len(recs) != 1+2*3*34 || strings.Join(recs[0], ",") != "model,model_label,level,direction,lang,n,correct,accuracy,wilson_low,wilson_high,paired_n,mcnemar_b,mcnemar_c,mcnemar_p,gold_unparsed" {
		t.Fatalf("direction_accuracy.csv: %d records, header %v", len(recs), recs[0])
	}
	r = mustDatg(t, "sql", "--data", data, "--format", "csv",
		"select count(*) as n, count(distinct trace_id) as ids from traces join answers using (trace_id)")
	if strings.TrimSpace(r.stdout) != "n,ids\n408,408" {
		t.Fatalf("sql said %q", r.stdout)
	}
	q := filepath.Join(t.TempDir(), "q.sql")
	os.WriteFile(q, []byte("select 1; with x as (select 2 as v) select v * 21 as answer from x;"), 0o644)
	if r = mustDatg(t, "sql", "--data", data, "--format", "json", "-f", q); strings.TrimSpace(r.stdout) != `{"answer":42}` {
		t.Fatalf("sql -f said %q", r.stdout)
	}
	// Read-only: anything but a query is refused, in one clear line.
	if r = datg(t, nil, "sql", "--data", data, "create temp table x as select 2 as v; select * from x"); r.code != 1 || !strings.Contains(r.stderr, "datg sql runs queries only") {
		t.Fatalf("create temp table: exit %d, %q", r.code, r.stderr)
	}
}

// TestKillAndResume kills a generation of 2,550 requests with kill -9
// midway, over three endpoints of which one is dead and one answers 5xx and
// 429 and drops connections, and checks that the rerun leaves every trace
// exactly once and re-sends only what was in flight.
func TestKillAndResume(t *testing.T) {
	data := t.TempDir()
	mustDatg(t, "ingest", "polymath", "--src", testenv.PolyMath(t), "--data", data)
	healthy := simulate.DefaultConfig()
	healthy.Latency = 25 * time.Millisecond
	faulty := healthy
	faulty.Faults = simulate.Faults{ErrorRate: 0.15, ErrorCodes: []int{429, 500, 502, 503}, DropRate: 0.05}
	eps, urls := simulators(t, data, healthy, faulty)
	dead, _ := simulate.DeadURL()
	args := []string{"generate", "--data", data, "--models", "Qwen/Qwen3-4B", "--limit", "25",
		"--endpoints", dead + "," + urls, "--backoff", "10ms", "--max-attempts", "20"}

	servedNow := func() int64 { n, _ := pipelinetest.Served(servers(eps)...); return n }
	atKill := killMidway(t, args, servedNow, 1000, 2*time.Millisecond, "generation")
	if atKill >= 2550 {
		t.Fatalf("the run finished (%d served) before it was killed", atKill)
	}
	if store.Exists(data, schema.Traces.Table) {
		t.Fatal("a killed run left a traces table")
	}

	r := datg(t, nil, args...)
	if r.code != 0 {
		t.Fatalf("rerun: exit %d\n%s", r.code, r.stderr)
	}
	rows, err := store.ReadAll(data, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, row := range rows {
		ids[row.TraceID] = true
	}
	if len(rows) != 2550 || len(ids) != 2550 {
		t.Fatalf("%d rows, %d distinct traces; want 2550 each", len(rows), len(ids))
	}
	total, resent := pipelinetest.Served(servers(eps)...)
	inFlight := 2 * 16 // two live endpoints x 16 slots
	if distinct := int(total) - resent; distinct != 2550 || resent > inFlight {
		t.Fatalf("%d distinct requests served, %d served twice; at most %d could be in flight at the kill", distinct, resent, inFlight)
	}
	if st := eps[1].Server.Stats(); st.Errors == 0 || st.Dropped == 0 {
		t.Fatalf("the faulty endpoint injected no faults: %+v", st)
	}
	t.Logf("killed after %d responses; rerun re-sent %d of them; faulty endpoint %+v", atKill, resent, eps[1].Server.Stats())
}

func TestErrorsAreOneLineWithStage(t *testing.T) {
	data := t.TempDir()
	mustDatg(t, "ingest", "polymath", "--src", testenv.Demo(t), "--per-level", "5", "--data", data)
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"model": "m", "input_lang": "en", "reasoning_lang": "sw", "level": "low", "problem_id": "low-1", "seed": 42, "method": "base", "text": "x", "completion_tokens": 3}
{"model": "m", "input_lang": "en", "reasoning_lang": "xx", "level": "low", "problem_id": "low-1", "seed": 42, "method": "base", "text": "x", "completion_tokens": 3}
`), 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"ingest", "polymath", "--src", filepath.Join(data, "nope"), "--data", data}, 1, "datg: ingest: source"},
		{[]string{"generate", "--data", data}, 2, "datg: generate: invalid configuration: --endpoints: none given"},
		// control holds generate's Config as Generation: its fields are
		// shown as the same flags.
		{[]string{"control", "--data", data, "--method", "base"}, 2, "datg: control: invalid configuration: --endpoints: none given"},
		{[]string{"control", "--data", data, "--method", "base", "--endpoints", "http://127.0.0.1:1", "--seeds", "7,7"}, 2, "--seeds: lists 7 twice"},
		{[]string{"langcheck", "--data", data, "--detector", "cld3"}, 2, `datg: langcheck: invalid configuration: --detector: unknown language detector "cld3"`},
		{[]string{"import", "traces", "--in", bad, "--data", data}, 1, "reasoning_lang: invalid record"},
		{[]string{"sql", "--data", data, "select nope"}, 1, "datg: sql: "},
		{[]string{"tables", "--data", data}, 1, "datg: tables: no traces"},
		{[]string{"verify", "--data", data, "extra"}, 2, "datg: verify: unexpected argument"},
		{[]string{"generate", "--data", data, "--nope"}, 2, "datg: generate: flag provided but not defined: -nope (usage: datg generate"},
		{[]string{"ingest", "polymath", "--bogus"}, 2, "datg: ingest: flag provided but not defined: -bogus"},
		// A library error names the Config field (PerLevel); the command line
		// shows the flag that sets it.
		{[]string{"ingest", "polymath", "--src", testenv.Demo(t), "--per-level", "-1", "--data", data}, 2, "datg: ingest: invalid configuration: --per-level: must not be negative"},
		// A nested field (Content.Cycle) shown as its flag, named apart.
		{[]string{"simulate", "--data", data, "--dag-cycle-rate", "-1"}, 2, "datg: simulate: invalid configuration: --dag-cycle-rate: rate -1 is not in [0, 1]"},
		{[]string{"generate", "--data", data, "--seeds", "42,42", "--endpoints", "http://127.0.0.1:1"}, 2, "--seeds: lists 42 twice"},
		{[]string{"generate", "--data", data, "--limit", "-1", "--endpoints", "http://127.0.0.1:1"}, 2, "--limit: must not be negative"},
		{[]string{"generate", "--data", data, "--langs", "en", "--directions", "en-x", "--endpoints", "http://127.0.0.1:1"}, 2, "nothing to generate"},
	}
	for _, c := range cases {
		r := datg(t, nil, c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("datg %v: exit %d, stderr %q; want exit %d and %q", c.args, r.code, r.stderr, c.code, c.want)
		}
		if c.code != 0 && strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("datg %v: error is not one line: %q", c.args, r.stderr)
		}
	}
	r := datg(t, nil, "import", "traces", "--in", bad, "--data", data)
	if !strings.Contains(r.stderr, "bad.jsonl:2") {
		t.Errorf("import error does not name the line: %q", r.stderr)
	}
	// A path (or a model's, a server's text) quoted in an error reaches the
	// terminal escaped: ESC ] 0 ; ... BEL would retitle it, ESC c reset it.
	hostile := filepath.Join(t.TempDir(), "run\x1b]0;owned\x07\x1bc\u202e\x9b")
	r = datg(t, nil, "score", "--data", hostile)
	if r.code == 0 || strings.ContainsAny(r.stderr, "\x1b\x07\u202e\x9b") || !strings.Contains(r.stderr, `run\x1b]0;owned\x07\x1bc\u202e\x9b`) {
		t.Errorf("datg score --data %q: exit %d, stderr %q; want the path escaped", hostile, r.code, r.stderr)
	}
}

func TestAPIKeyNeverWritten(t *testing.T) {
	data := t.TempDir()
	mustDatg(t, "ingest", "polymath", "--src", testenv.Demo(t), "--per-level", "5", "--langs", "en,sw", "--levels", "low", "--data", data)
	const key = "sk-test-0123456789abcdef"
	sim := simulate.DefaultConfig()
	sim.RequireKey = "another-key"
	_, urls := simulators(t, data, sim)
	env := []string{"MY_KEY=" + key}
	r := datg(t, env, "generate", "--data", data, "--langs", "en,sw", "--levels", "low", "--limit", "1", "--endpoints", urls, "--api-key-env", "MY_KEY")
	if r.code == 0 || strings.Contains(r.stderr+r.stdout, key) || !strings.Contains(r.stderr, "REDACTED") {
		t.Fatalf("exit %d, output %q", r.code, r.stderr)
	}
	sim.RequireKey = key
	_, urls = simulators(t, data, sim)
	r = datg(t, env, "generate", "--data", data, "--langs", "en,sw", "--levels", "low", "--limit", "1", "--endpoints", urls, "--api-key-env", "MY_KEY")
	if r.code != 0 {
		t.Fatalf("generate with the right key: %s", r.stderr)
	}
	filepath.Walk(data, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := os.ReadFile(p)
			if bytes.Contains(b, []byte(key)) {
				t.Errorf("the API key was written to %s", p)
			}
		}
		return nil
	})
}

// TestServeScript runs scripts/serve_vllm.sh with a stand-in for the vllm
// command that starts datg's simulator on the port it is given, and checks
// that the script waits for every server and prints their URLs.
func TestServeScript(t *testing.T) {
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	bin := t.TempDir()
	fake := `#!/bin/sh
# stand-in for vllm: "vllm serve MODEL --port N ..." starts the simulator
port=""
while [ $# -gt 0 ]; do [ "$1" = "--port" ] && port=$2; shift; done
DATG_TEST_MAIN=1 exec "` + os.Args[0] + `" simulate --listen 127.0.0.1:$port
`
	if err := os.WriteFile(filepath.Join(bin, "vllm"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	base := consecutiveFreePorts(t, 2)
	logs := t.TempDir()
	cmd := exec.Command("bash", filepath.Join(testenv.Root(t), "scripts", "serve_vllm.sh"), "Qwen/Qwen3-4B")
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "GPUS=2", "BASE_PORT="+strconv.Itoa(base), "LOG_DIR="+logs, "TIMEOUT=30")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	defer func() {
		pids, _ := os.ReadFile(filepath.Join(logs, "pids"))
		for _, p := range strings.Fields(string(pids)) {
			if pid, err := strconv.Atoi(p); err == nil {
				syscall.Kill(pid, syscall.SIGTERM)
			}
		}
	}()
	if err != nil {
		logged, _ := exec.Command("sh", "-c", "tail -n 20 "+filepath.Join(logs, "*.log")).CombinedOutput()
		t.Fatalf("serve_vllm.sh: %v\nstdout: %s\nstderr: %s\nlogs:\n%s", err, out, stderr.String(), logged)
	}
	want := fmt.Sprintf("http://127.0.0.1:%d/v1,http://127.0.0.1:%d/v1", base, base+1)
	if strings.TrimSpace(string(out)) != want {
		t.Fatalf("serve_vllm.sh printed %q, want %q", out, want)
	}
}

// consecutiveFreePorts finds n consecutive loopback ports that are free now,
// as serve_vllm.sh uses BASE_PORT, BASE_PORT+1, ...
func consecutiveFreePorts(t *testing.T, n int) int {
	t.Helper()
	for try := 0; try < 50; try++ {
		first, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		base := first.Addr().(*net.TCPAddr).Port
		held := []net.Listener{first}
		for i := 1; i < n; i++ {
			ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", base+i))
			if err != nil {
				break
			}
			held = append(held, ln)
		}
		for _, ln := range held {
			ln.Close()
		}
		if len(held) == n {
			return base
		}
	}
	t.Fatal("no consecutive free ports")
	return 0
}

// killMidway starts datg with args, kills it with SIGKILL once served()
// reaches after (polling every poll), and returns served() at the kill.
func killMidway(t *testing.T, args []string, served func() int64, after int64, poll time.Duration, what string) int64 {
	t.Helper()
	cmd := datgCmd(context.Background(), nil, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for served() < after {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("%s too slow to kill midway:\n%s", what, errb.String())
		}
		time.Sleep(poll)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	return served()
}

func servers(eps []*simulate.Endpoint) []*simulate.Server {
	out := make([]*simulate.Server, len(eps))
	for i, e := range eps {
		out[i] = e.Server
	}
	return out
}

func TestKebabSpellsFieldsAsFlags(t *testing.T) {
	for field, want := range map[string]string{
		"MaxTokens": "max-tokens", "BaseURL": "base-url", "PerLevel": "per-level",
		"Endpoints": "endpoints", "TopK": "top-k", "URLPath": "url-path", "Src": "src",
	} {
		if got := kebab(field); got != want {
			t.Errorf("kebab(%q) = %q, want %q", field, got, want)
		}
	}
}
