package main

import (
	"os"
	"os/exec"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// TestBuildsWithoutTags: `go build ./...` and `go install
// github.com/datg/datg/cmd/datg@latest`, as Go users install tools, pass
// no build tags; the module must build and vet so (issue 23). GOFLAGS is
// cleared so that tags from the environment (make's) do not hide a file
// that needs one.
func TestBuildsWithoutTags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module")
	}
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./internal/duck", "./cmd/datg"}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = testenv.Root(t)
		cmd.Env = append(os.Environ(), "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %v with no build tags: %v\n%s", args, err, out)
		}
	}
}
