// Package testenv locates what tests share: the repository root, the
// PolyMath reference copy beside it, and the demo problem set.
package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// Root is the repository root (the directory holding go.mod).
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("testenv: no go.mod above the test's directory")
		}
		dir = parent
	}
}

// PolyMath is the PolyMath copy tests read: $DATG_POLYMATH, else
// ../shared/polymath beside the repository. When it is absent the test is
// skipped, unless DATG_REQUIRE_POLYMATH is set (as CI sets it), which makes
// the absence a failure.
func PolyMath(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("DATG_POLYMATH")
	if dir == "" {
		dir = filepath.Join(Root(t), "..", "shared", "polymath")
	}
	if _, err := os.Stat(filepath.Join(dir, "en", "low.jsonl")); err != nil {
		if os.Getenv("DATG_REQUIRE_POLYMATH") != "" {
			t.Fatalf("PolyMath copy not found at %s (set DATG_POLYMATH)", dir)
		}
		t.Skipf("PolyMath copy not found at %s; set DATG_POLYMATH to run this test", dir)
	}
	return dir
}

// Demo is the demo problem set shipped in data/demo.
func Demo(t testing.TB) string {
	t.Helper()
	return filepath.Join(Root(t), "data", "demo")
}
