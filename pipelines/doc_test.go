package pipelines

import (
	"os"
	"strings"
	"testing"
)

// TestEveryStageIsListed keeps doc.go's table of stages equal to the
// directories: each stage is listed, and each has a doc.go saying what it
// reads and writes.
func TestEveryStageIsListed(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		// A row starts at the tab; its continuation lines are indented.
		row, ok := strings.CutPrefix(line, "//\t")
		if f := strings.Fields(row); ok && !strings.HasPrefix(row, " ") && len(f) > 1 {
			listed[f[0]] = true
		}
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	stages := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		stages++
		if !listed[e.Name()] {
			t.Errorf("stage %s is not in doc.go's table", e.Name())
		}
		pkgDoc, err := os.ReadFile(e.Name() + "/doc.go")
		if err != nil {
			t.Errorf("stage %s has no doc.go", e.Name())
			continue
		}
		text := strings.ToLower(string(pkgDoc))
		if !strings.Contains(text, "read") || !strings.Contains(text, "write") {
			t.Errorf("%s/doc.go does not say what the stage reads and writes", e.Name())
		}
	}
	delete(listed, "stage")
	for name := range listed {
		if _, err := os.Stat(name); err != nil {
			t.Errorf("doc.go lists %s, which is not a directory here", name)
		}
	}
	if stages == 0 {
		t.Fatal("no stage directories found")
	}
}
