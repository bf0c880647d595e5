package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/pipelines/view"
)

// datg view-tables, the viewer's own command, is not listed in datg help
// nor in the reference of commands; run (as the viewer runs it) over a
// generation it says each table done, then writes the tables where it
// says; without its flags it is a usage error naming them.
func TestViewTablesIsHiddenAndRuns(t *testing.T) {
	if r := mustDatg(t, "help"); strings.Contains(r.stdout, view.TablesChildCommand) {
		t.Errorf("datg help lists %s:\n%s", view.TablesChildCommand, r.stdout)
	}
	if md := commandsMarkdown(); strings.Contains(md, view.TablesChildCommand) {
		t.Errorf("the commands' reference lists %s", view.TablesChildCommand)
	}
	if r := datg(t, nil, view.TablesChildCommand); r.code != 2 || !strings.Contains(r.stderr, "generation") || !strings.Contains(r.stderr, "out") {
		t.Errorf("datg %s without flags: exit %d, %q", view.TablesChildCommand, r.code, r.stderr)
	}
	data := writeSeedTraces(t)
	gens, _ := filepath.Glob(filepath.Join(data, "gen", "*"))
	if len(gens) != 1 {
		t.Fatalf("generations: %v", gens)
	}
	out := filepath.Join(t.TempDir(), "tables")
	r := mustDatg(t, view.TablesChildCommand, "--generation", gens[0], "--probe-seed", "1", "--out", out, "--key", "k1")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) < 2 || lines[0] != fmt.Sprintf("1 of %d tables done", len(lines)-1) || lines[len(lines)-1] != "tables written to "+out {
		t.Errorf("datg %s said:\n%s", view.TablesChildCommand, r.stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(b), "datg view tables ") || !strings.Contains(strings.SplitN(string(b), "\n", 2)[0], " k1 ") {
		t.Errorf("the tables written: %v, %.60q", err, b)
	}
}
