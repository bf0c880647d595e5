package view

import (
	"os"
	"testing"
)

// TestMain runs the package's tests with a generation's paper tables
// computed on the first /tables, not when a viewer opens it (see
// computeTablesAtOpen): the tests that check the computation at open turn
// it on (tablesAtOpen).
func TestMain(m *testing.M) {
	computeTablesAtOpen = false
	os.Exit(m.Run())
}

// tablesAtOpen makes the viewers the test opens compute their tables at
// once, as datg view's do, until the test ends (its viewers are closed
// first: call it before opening them).
func tablesAtOpen(t *testing.T) {
	computeTablesAtOpen = true
	t.Cleanup(func() { computeTablesAtOpen = false })
}
