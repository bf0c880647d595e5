package tables

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the layouts' golden files (testdata/golden)")

// The layouts of every table over the SQL fixture, as the paper's (plain)
// and with --ci: each .md and .tex, paper.tex and index.md against
// testdata/golden/<variant>/. After a change of layout, go test
// ./pipelines/tables -run TestLayoutsGolden -update rewrites them; read the
// diff before committing it.
func TestLayoutsGolden(t *testing.T) {
	dir := fixtureRun(t, nil)
	for variant, ci := range map[string]bool{"plain": false, "ci": true} {
		out := filepath.Join(t.TempDir(), "tables")
		sum, err := Run(context.Background(), Config{Data: dir, Out: out, CI: ci})
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "golden", variant)
		seen := map[string]bool{}
		for _, path := range sum.Written {
			name := filepath.Base(path)
			if ext := filepath.Ext(name); ext != ".md" && ext != ".tex" {
				continue
			}
			seen[name] = true
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := filepath.Join(golden, name)
			if *update {
				if err := os.MkdirAll(golden, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(want, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			w, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (go test ./pipelines/tables -run TestLayoutsGolden -update writes it)", err)
			}
			if string(w) != string(got) {
				t.Errorf("%s/%s differs from its golden file:\n--- got\n%s\n--- want\n%s", variant, name, got, w)
			}
		}
		// A golden file of a table no longer written is stale.
		files, _ := filepath.Glob(filepath.Join(golden, "*"))
		for _, f := range files {
			if name := filepath.Base(f); !seen[name] {
				if *update {
					os.Remove(f)
				} else {
					t.Errorf("%s: no table writes %s any more (-update removes it)", variant, strings.TrimPrefix(f, golden+"/"))
				}
			}
		}
	}
}
