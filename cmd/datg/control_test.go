package main

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/schema"
)

// loopDetect runs `datg loop detect` on the given stdin.
func loopDetect(t *testing.T, in string) (lines []map[string]any, stderr string, code int) {
	t.Helper()
	cmd := datgCmd(context.Background(), nil, "loop", "detect")
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(in), &out, &errb
	err := cmd.Run()
	if err != nil {
		code = cmd.ProcessState.ExitCode()
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("output line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	return lines, errb.String(), code
}

// The CONTRACT's loop detector: one verdict per line, in order; a bad line
// is reported in its place and by the exit status.
func TestLoopDetectCommand(t *testing.T) {
	unit := []int{11, 12, 13, 14, 15}
	var looping []int
	for len(looping) < 300 {
		looping = append(looping, unit...)
	}
	varied := make([]int, 300)
	for i := range varied {
		varied[i] = i
	}
	enc := func(tokens []int, text string, budget int) string {
		b, _ := json.Marshal(map[string]any{"tokens": tokens, "text": text, "budget": budget})
		return string(b)
	}
	in := strings.Join([]string{
		enc(looping, "Subiri, hebu nifikirie tena.", 1200), // C = 300: a loop at the checkpoint
		enc(varied, "x = 1", 1200),                         // no loop
		enc(looping[:200], "", 1200),                       // fewer than 0.8C tokens
		enc(looping, `so \boxed{5}`, 1200),                 // already answered
		`{"tokens": [1, 2], "budget": 0}`,                  // bad budget
		`not json`,                                         // not an object
	}, "\n") + "\n\n" // and a blank line, which is no request
	lines, stderr, code := loopDetect(t, in)
	if len(lines) != 6 {
		t.Fatalf("%d output lines for 6 inputs", len(lines))
	}
	want := []struct {
		trigger, surface, short, boxed bool
	}{{true, true, false, false}, {false, false, false, false}, {false, true, true, false}, {false, true, false, true}}
	for i, w := range want {
		l := lines[i]
		if l["trigger"] != w.trigger || l["surface_loop"] != w.surface || l["short"] != w.short || l["boxed"] != w.boxed {
			t.Errorf("line %d: %v", i+1, l)
		}
		for _, k := range []string{"rep16", "rep32", "ttr256", "motif", "math_progress"} {
			if _, ok := l[k]; !ok {
				t.Errorf("line %d lacks %s", i+1, k)
			}
		}
	}
	if lines[0]["motif"] != true || lines[0]["rep16"].(float64) < 0.65 {
		t.Errorf("a 5-token loop: %v", lines[0])
	}
	for i := 4; i < 6; i++ {
		if e, _ := lines[i]["error"].(string); !strings.HasPrefix(e, "line "+string(rune('1'+i))+":") {
			t.Errorf("line %d: %v", i+1, lines[i])
		}
	}
	if code == 0 || !strings.Contains(stderr, "datg: loop: line 5:") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// controlRows are the trials of a run, without what depends on timing.
func controlRows(t *testing.T, data string) []string {
	t.Helper()
	trials, err := store.ReadAll(data, schema.Trials)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range trials {
		a.Endpoint, a.CreatedAt = "", time.Time{}
		b, _ := json.Marshal(a)
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// TestControlKillAndResume kills `datg control` with SIGKILL midway and
// reruns it: the run ends with the same attempts as a run never killed,
// and only requests in flight at the kill are sent again.
func TestControlKillAndResume(t *testing.T) {
	src := testenv.Demo(t)
	fresh := func() string {
		data := t.TempDir()
		mustDatg(t, "ingest", "polymath", "--src", src, "--per-level", "5", "--data", data)
		return data
	}
	cfg := pipelinetest.SimConfig(t)
	cfg.Latency = 10 * time.Millisecond
	cfg.Faults.ErrorRate = 0.05

	whole := fresh()
	_, url := simulators(t, whole, cfg)
	mustDatg(t, "control", "--data", whole, "--method", "formula-retry", "--endpoints", url, "--backoff", "5ms")

	data := fresh()
	eps, url := simulators(t, data, cfg)
	args := []string{"control", "--data", data, "--method", "formula-retry", "--endpoints", url, "--backoff", "5ms", "--slots", "8"}
	served := func() int64 { return eps[0].Server.Stats().Served }
	atKill := killMidway(t, args, served, 80, time.Millisecond, "control")
	if store.Exists(data, schema.Trials.Table) || store.Exists(data, schema.Traces.Table) {
		t.Fatal("a killed run left tables")
	}
	r := mustDatg(t, args...)
	if !strings.Contains(r.stdout, "control formula-retry: 90 examples") {
		t.Fatalf("rerun said %q", r.stdout)
	}
	if got, want := controlRows(t, data), controlRows(t, whole); !slices.Equal(got, want) {
		t.Fatalf("the resumed run has %d attempts, an unbroken one %d, and they differ", len(got), len(want))
	}
	_, resent := pipelinetest.Served(eps[0].Server)
	if resent > 8 || atKill >= served() {
		t.Fatalf("%d served at the kill, %d in all; %d sent twice (at most 8 were in flight)", atKill, served(), resent)
	}
	t.Logf("killed after %d responses of %d; the rerun re-sent %d", atKill, served(), resent)
}
