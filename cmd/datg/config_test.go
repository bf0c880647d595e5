package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/testenv"
)

// A --config study file with a value out of range, a repeated key or a
// second object is an invalid configuration: exit 2, one line naming the
// file, line and field, and no request sent.
func TestConfigFileProblemsExitTwoBeforeAnyRequest(t *testing.T) {
	data := t.TempDir()
	mustDatg(t, "ingest", "polymath", "--src", testenv.Demo(t), "--per-level", "5", "--langs", "en,sw", "--levels", "low", "--data", data)
	eps, urls := simulators(t, data, simulate.DefaultConfig())
	cases := []struct{ name, content, want string }{
		{"temperature", "{\n\"api\": \"chat\",\n\"temperature\": 1e300\n}", "temperature: out of range: 1e+300 is not in [0, 2]"},
		{"budget", "{\n\"budgets\": {\n\"low\": 3000000000}}", "budgets.low: out of range"},
		{"repeated key", "{\"temperature\": 0.6,\n\"temperature\": 0.7}", `duplicate key "temperature"`},
		{"second object", "{\"temperature\": 0.6}\n\n{\"temperature\": 1e300}", "data after the JSON value"},
	}
	line := map[string]string{"temperature": ":3", "budget": ":3", "repeated key": ":2", "second object": ":3"}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), "study.json")
		os.WriteFile(path, []byte(c.content), 0o644)
		for _, stage := range [][]string{
			{"generate", "--levels", "low", "--langs", "en,sw"},
			{"control", "--method", "loop-retry", "--levels", "low"},
		} {
			args := append(stage, "--data", data, "--config", path, "--endpoints", urls)
			r := datg(t, nil, args...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, path+line[c.name]) ||
				strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
				t.Errorf("%s %s: exit %d, stderr %q; want exit 2 with %q at %s%s", stage[0], c.name, r.code, r.stderr, c.want, path, line[c.name])
			}
		}
	}
	if n, _ := pipelinetest.Served(eps[0].Server); n != 0 {
		t.Fatalf("%d requests reached the server", n)
	}
}
