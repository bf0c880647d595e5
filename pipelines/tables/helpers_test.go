package tables

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readOutput is a file datg tables wrote into DIR/tables.
func readOutput(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "tables", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantContains reports each of wants that text (the output called name)
// lacks, then text once.
func wantContains(t *testing.T, name, text string, wants ...string) {
	t.Helper()
	var lacks []string
	for _, w := range wants {
		if !strings.Contains(text, w) {
			lacks = append(lacks, w)
		}
	}
	if len(lacks) > 0 {
		t.Errorf("%s lacks %q:\n%s", name, lacks, text)
	}
}

// wantRefusal checks that err is the sentinel's and says msg.
func wantRefusal(t *testing.T, err, sentinel error, msg string) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Fatalf("got %v, want %v", err, sentinel)
	}
	if !strings.Contains(err.Error(), msg) {
		t.Fatalf("the refusal %q does not say %q", err, msg)
	}
}
