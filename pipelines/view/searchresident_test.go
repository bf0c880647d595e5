package view

import (
	"os"
	"strings"
	"testing"
)

// TestSearchLeavesNoTextsMapped: no mapping of the search index's texts
// outlives a search (issue 22: memory flat in the number of traces). A
// mapping that does counts every page a search touched in the viewer's
// resident set until it is unmapped: the whole run's texts after a few
// common words (993 MB of VmRSS at 38,250 traces). Read from the
// process's own mappings, so it does not depend on the page cache or
// the machine's load.
func TestSearchLeavesNoTextsMapped(t *testing.T) {
	t.Parallel() // changes no package variable (see TestMain)
	if _, err := os.Stat("/proc/self/maps"); err != nil || !textsMapped {
		t.Skip("no /proc/self/maps or texts not mapped here")
	}
	dir, texts := searchRun(t, sigSegment+300)
	r := openIndexed(t, dir, t.TempDir())
	x := r.textIndex.Load()
	mapped := func() bool {
		maps, err := os.ReadFile("/proc/self/maps")
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(string(maps), x.texts.Name())
	}
	if mapped() {
		t.Errorf("%s is mapped before any search", x.texts.Name())
	}
	for _, q := range append(searchQueries(texts)[:40], "apples", "b", "zzz-nowhere", "STRADDLE") {
		if !indexable(q) {
			continue
		}
		before := x.checked.Load()
		if _, err := x.searchRows(q, r.rows.N); err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if x.checked.Load() > before && mapped() {
			t.Fatalf("%s is still mapped after a search of %q", x.texts.Name(), q)
		}
	}
	if x.checked.Load() == 0 {
		t.Fatal("no search checked a text")
	}
}
