package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/datg/datg/internal/latextest"
	"github.com/datg/datg/internal/testenv"
)

// runDemo runs scripts/demo.sh as make demo does, this test binary being
// datg, over src (LIMIT as given), into a temporary run directory, and
// returns it.
func runDemo(t *testing.T, src, limit string) string {
	t.Helper()
	root := testenv.Root(t)
	bin := filepath.Join(t.TempDir(), "datg")
	script := "#!/bin/sh\nDATG_TEST_MAIN=1 exec '" + os.Args[0] + "' \"$@\"\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	cmd := exec.Command(filepath.Join(root, "scripts", "demo.sh"))
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "DATG="+bin, "SRC="+src, "LIMIT="+limit, "DEMO_DATA="+data)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/demo.sh: %v\n%s", err, out)
	}
	t.Logf("demo over %s in %s", src, time.Since(start).Round(time.Second))
	return data
}

// compileTables writes the run's tables with args (datg tables --out out
// args...) and compiles their paper.tex, failing on any LaTeX error,
// overfull line over 1pt or float too large.
func compileTables(t *testing.T, data, out string, args ...string) {
	t.Helper()
	mustDatg(t, append([]string{"tables", "--data", data, "--out", out}, args...)...)
	for _, p := range latextest.Compile(t, out, "paper.tex") {
		t.Errorf("datg tables %s: paper.tex: %s", strings.Join(args, " "), p)
	}
}

// The demo's tables (make demo: the whole study at 5 problems per level,
// two aligners, the controls) compile as one paper in one and two
// columns, with the paper's layouts and with --ci.
func TestDemoPaperTeXCompiles(t *testing.T) {
	latextest.Require(t)
	testenv.Demo(t)                     // skips without the demo problems
	data := runDemo(t, "data/demo", "") // demo.sh takes this path for the demo
	for _, args := range [][]string{{"--columns", "1"}, {"--columns", "2"}, {"--columns", "1", "--ci"}, {"--columns", "2", "--ci"}} {
		compileTables(t, data, filepath.Join(t.TempDir(), "tables"), args...)
	}
}

// TestFullDesignPaperTeXCompiles is the same at the paper's full design:
// the simulator over the PolyMath copy (../shared/polymath), all 125
// problems per level, 38,250 probe traces. It takes longer than a test
// should (see docs/paper-tables.md for the time), so it runs only when
// DATG_FULL_DESIGN is set: make paper-full.
func TestFullDesignPaperTeXCompiles(t *testing.T) {
	if os.Getenv("DATG_FULL_DESIGN") == "" {
		t.Skip("the paper's full design takes minutes: make paper-full (DATG_FULL_DESIGN=1) runs it")
	}
	latextest.Require(t)
	data := runDemo(t, testenv.PolyMath(t), "0")
	r := mustDatg(t, "sql", "--data", data, "--format", "csv", "select count(*) as n from traces where method = 'base' and seed = 42")
	if got := strings.TrimSpace(r.stdout); got != "n\n38250" {
		t.Fatalf("probe traces: %s, want 38250", got)
	}
	for _, args := range [][]string{{"--columns", "1"}, {"--columns", "2"}, {"--columns", "1", "--ci"}, {"--columns", "2", "--ci"}} {
		compileTables(t, data, filepath.Join(t.TempDir(), "tables"), args...)
	}
}
