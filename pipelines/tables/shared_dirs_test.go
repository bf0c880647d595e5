package tables

import (
	"os"
	"sync"
	"testing"
)

// sharedDirs are the directories of what several tests share (runs and
// tables made once for the package), which outlive the test that made
// them: TestMain removes them after the tests.
var sharedDirs struct {
	sync.Mutex
	paths []string
}

// sharedTempDir is a new directory for something several tests share.
func sharedTempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "datg-tables-test-")
	if err != nil {
		t.Fatal(err)
	}
	sharedDirs.Lock()
	defer sharedDirs.Unlock()
	sharedDirs.paths = append(sharedDirs.paths, dir)
	return dir
}

func removeSharedTempDirs() {
	sharedDirs.Lock()
	defer sharedDirs.Unlock()
	for _, dir := range sharedDirs.paths {
		os.RemoveAll(dir)
	}
	sharedDirs.paths = nil
}
