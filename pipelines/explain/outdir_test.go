package explain

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/outdir"
)

// --out a directory of the user's (their own index.html and NOTES.md in
// it): the user's index.html is refused by name, not replaced, and no page
// is written; moved away, the pages go in beside NOTES.md, and pages datg
// wrote before for traces the index no longer has are removed.
func TestExplainWritesIntoTheUsersDirectory(t *testing.T) {
	dir := writeRun(t)
	out := filepath.Join(t.TempDir(), "site")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := map[string]string{"index.html": "<h1>my site</h1>", "NOTES.md": "draft"}
	for name, data := range mine {
		if err := os.WriteFile(filepath.Join(out, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	page := filepath.Join(out, "t1-628b49d96dcde97a430dd4f597705899.html")
	_, err := Run(context.Background(), Config{Data: dir, Out: out})
	if !errors.Is(err, outdir.ErrNotOurs) || !strings.Contains(err.Error(), filepath.Join(out, "index.html")) {
		t.Fatalf("got %v, want ErrNotOurs naming index.html", err)
	}
	if _, err := os.Lstat(page); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a refused run wrote a page: %v", err)
	}
	for name, data := range mine {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(b) != data {
			t.Fatalf("%s: %q, %v", name, b, err)
		}
	}

	if err := os.Rename(filepath.Join(out, "index.html"), filepath.Join(out, "home.html")); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(out, "gone-00000000000000000000000000000000.html")
	if _, err := outdir.Replace(out, map[string][]byte{filepath.Base(old): []byte("an old page")}, nil); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if _, err := Run(context.Background(), Config{Data: dir, Out: out, Stderr: &stderr}); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{page, filepath.Join(out, "index.html"), filepath.Join(out, "home.html"), filepath.Join(out, "NOTES.md")} {
		if _, err := os.Stat(path); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Lstat(old); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the page of a trace no longer indexed is still there: %v", err)
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
}
