package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadmeSection keeps the part of README.md between the lines begin and
// end equal to want, a section generated from code (the schema reference,
// the list of prompt files). With update it rewrites the section;
// otherwise a stale section fails the test, telling how to regenerate it
// (regen, the command).
func ReadmeSection(t testing.TB, begin, end, want string, update bool, regen string) {
	t.Helper()
	DocSection(t, "README.md", begin, end, want, update, regen)
}

// DocSection is ReadmeSection for another document of the repository
// (doc: its path from the root, such as docs/tables.md).
func DocSection(t testing.TB, doc, begin, end, want string, update bool, regen string) {
	t.Helper()
	path := filepath.Join(Root(t), filepath.FromSlash(doc))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no generated section between %q and %q", doc, begin, end)
	}
	if readme[i+len(begin):j] == want {
		return
	}
	if update {
		readme = readme[:i+len(begin)] + want + readme[j:]
		if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("%s's section after %q is stale; run %s", doc, strings.TrimSpace(begin), regen)
}
