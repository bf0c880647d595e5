package tables

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/datg/datg/internal/latextest"
)

// compileBothLayouts compiles the tables of out in paper.tex's one- and
// two-column layouts, and fails on any LaTeX error, overfull line over 1pt
// or float too large (internal/latextest).
func compileBothLayouts(t *testing.T, out string) {
	t.Helper()
	for _, p := range compileLayouts(t, out) {
		t.Errorf("%s, %s", out, p)
	}
}

// compileLayouts compiles the tables of out in paper.tex's one- and
// two-column layouts and returns what pdflatex found, layout by layout.
func compileLayouts(t testing.TB, out string) []string {
	t.Helper()
	var problems []string
	for _, columns := range []int{1, 2} {
		name := "paper-" + string(rune('0'+columns)) + "col.tex"
		if err := os.WriteFile(filepath.Join(out, name), wrapper(columns), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, p := range latextest.Compile(t, out, name) {
			problems = append(problems, fmt.Sprintf("%d column(s): %s", columns, p))
		}
	}
	return problems
}

// compiledPaper is a run's tables, written and compiled in both layouts.
type compiledPaper struct {
	out      string   // the tables' directory, with the .aux and .log files
	problems []string // what pdflatex found
}

var (
	hostilePaperOnce sync.Once
	hostilePaper     *compiledPaper
)

// hostilePaperCompiled is the SQL fixture with hostile model names, its
// tables in the paper's layouts (not --ci) written and compiled in one and
// two columns once for the package: TestPaperTeXCompiles and
// TestPaperTeXKeepsThePapersNumbers each wrote and compiled this same paper
// (a datg tables run and two pdflatex runs, about 5 CPU-seconds). The
// first caller's t makes it; a failure then fails that test, and every
// later caller is told.
func hostilePaperCompiled(t *testing.T) *compiledPaper {
	t.Helper()
	hostilePaperOnce.Do(func() {
		dir := sharedTempDir(t)
		run := filepath.Join(dir, "run")
		if err := os.Mkdir(run, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFixtureRun(t, run, hostileModels)
		out := filepath.Join(dir, "tables")
		if _, err := Run(context.Background(), Config{Data: run, Out: out}); err != nil {
			t.Fatal(err)
		}
		hostilePaper = &compiledPaper{out: out, problems: compileLayouts(t, out)}
	})
	if hostilePaper == nil {
		t.Fatal("the hostile run's paper was not made: see the first test that needed it")
	}
	return hostilePaper
}

// paper.tex compiles in one and two columns, with the paper's layouts and
// with --ci, over the SQL fixture with hostile model names: every table
// fits its column or page, and escaped text only prints.
func TestPaperTeXCompiles(t *testing.T) {
	latextest.Require(t)
	paper := hostilePaperCompiled(t)
	for _, p := range paper.problems {
		t.Errorf("%s, %s", paper.out, p)
	}
	out := filepath.Join(t.TempDir(), "tables")
	if _, err := Run(context.Background(), Config{Data: hostileRun(t), Out: out, CI: true}); err != nil {
		t.Fatal(err)
	}
	compileBothLayouts(t, out)
}

// The tables of the paper keep its numbers in paper.tex: each
// \label{tab:<name>} resolves to the number the paper gives that table
// (the .aux pdflatex writes), whatever parts and continued floats come
// before it, and Table 6's top and bottom share one number.
func TestPaperTeXKeepsThePapersNumbers(t *testing.T) {
	latextest.Require(t)
	paper := hostilePaperCompiled(t)
	for _, p := range paper.problems {
		t.Errorf("%s, %s", paper.out, p)
	}
	out := paper.out
	aux, err := os.ReadFile(filepath.Join(out, "paper-1col.aux"))
	if err != nil {
		t.Fatal(err)
	}
	numbered := 0
	for _, tbl := range registry {
		number, ok := strings.CutPrefix(paperNumber(tbl.Paper), "Table ")
		if !ok {
			continue
		}
		if _, err := os.Stat(filepath.Join(out, tbl.Name+".tex")); err != nil {
			continue // not written for this run
		}
		m := regexp.MustCompile(`\\newlabel\{tab:` + regexp.QuoteMeta(labelSafe(tbl.Name)) + `\}\{\{([0-9]+)\}`).FindSubmatch(aux)
		if m == nil {
			t.Errorf("%s: no label tab:%s in the .aux", tbl.Name, labelSafe(tbl.Name))
			continue
		}
		if string(m[1]) != number {
			t.Errorf("%s is Table %s in paper.tex, the paper's Table %s", tbl.Name, m[1], number)
		}
		numbered++
	}
	if numbered < 8 {
		t.Errorf("only %d of the paper's tables were written and checked", numbered)
	}
}
