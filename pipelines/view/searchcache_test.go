package view

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestViewerKeepsASearchIndexInTheCache: the viewer (its public API, the
// cache directory from $DATG_CACHE_DIR) builds the generation's search
// index in the cache, in the background, and adds nothing to the run.
func TestViewerKeepsASearchIndexInTheCache(t *testing.T) {
	dir := writeRun(t, 5)
	before := filesUnder(t, dir)
	cache := t.TempDir()
	t.Setenv("DATG_CACHE_DIR", cache)
	s, err := NewServer(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	deadline := time.Now().Add(time.Minute)
	for {
		metas, _ := filepath.Glob(filepath.Join(cache, "view", "*", "meta"))
		if len(metas) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no search index in %s after a minute: %v", cache, filesUnder(t, cache))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if after := filesUnder(t, dir); !slices.Equal(before, after) {
		t.Errorf("the run's files changed: %v -> %v", before, after)
	}
	if _, err := os.Stat(filepath.Join(dir, "view")); err == nil {
		t.Errorf("the run holds a view directory")
	}
}
