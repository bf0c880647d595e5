package study

import (
	"go/build"
	"strings"
	"testing"
)

// TestLeaf keeps study a leaf: every layer imports it, so it imports
// nothing of datg (an import of a stage here would tie the schema and the
// transforms to the stages).
func TestLeaf(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if strings.HasPrefix(imp, "github.com/datg/datg") {
			t.Errorf("study imports %s", imp)
		}
	}
}
