package tables

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/datg/datg/internal/latextest"
)

// compileBothLayouts compiles the tables of out in paper.tex's one- and
// two-column layouts, and fails on any LaTeX error, overfull line over 1pt
// or float too large (internal/latextest).
func compileBothLayouts(t *testing.T, out string) {
	t.Helper()
	for _, columns := range []int{1, 2} {
		name := "paper-" + string(rune('0'+columns)) + "col.tex"
		if err := os.WriteFile(filepath.Join(out, name), wrapper(columns), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, p := range latextest.Compile(t, out, name) {
			t.Errorf("%s, %d column(s): %s", out, columns, p)
		}
	}
}

// paper.tex compiles in one and two columns, with the paper's layouts and
// with --ci, over the SQL fixture with hostile model names: every table
// fits its column or page, and escaped text only prints.
func TestPaperTeXCompiles(t *testing.T) {
	latextest.Require(t)
	dir := hostileRun(t)
	for _, ci := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "tables")
		if _, err := Run(context.Background(), Config{Data: dir, Out: out, CI: ci}); err != nil {
			t.Fatal(err)
		}
		compileBothLayouts(t, out)
	}
}

// The tables of the paper keep its numbers in paper.tex: each
// \label{tab:<name>} resolves to the number the paper gives that table
// (the .aux pdflatex writes), whatever parts and continued floats come
// before it, and Table 6's top and bottom share one number.
func TestPaperTeXKeepsThePapersNumbers(t *testing.T) {
	latextest.Require(t)
	dir := hostileRun(t)
	out := filepath.Join(t.TempDir(), "tables")
	if _, err := Run(context.Background(), Config{Data: dir, Out: out}); err != nil {
		t.Fatal(err)
	}
	compileBothLayouts(t, out)
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
