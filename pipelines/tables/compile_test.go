package tables

import (
	"context"
	"os"
	"path/filepath"
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
