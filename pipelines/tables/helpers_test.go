package tables

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
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

// rewrite replaces the rows of a run's table with what change makes of them.
func rewrite[T any](t testing.TB, dir string, def schema.Def[T], change func([]T) []T) {
	t.Helper()
	rows, err := store.ReadAll(dir, def)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.WriteAll(dir, def, store.Meta{}, change(rows)); err != nil {
		t.Fatal(err)
	}
}

// report runs datg tables over dir and returns what it told its Stdout.
func report(t *testing.T, dir string) string {
	t.Helper()
	var out strings.Builder
	if _, err := Run(context.Background(), Config{Data: dir, Stdout: &out}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
