package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// TestBinaryLinksNoTesting keeps test helpers out of bin/datg: a package
// that takes a testing.TB belongs in a *test package (simulatetest,
// pipelinetest) that only tests import, as net/http/httptest.
func TestBinaryLinksNoTesting(t *testing.T) {
	cmd := exec.Command("go", "list", "-tags", "duckdb_arrow", "-deps", "./cmd/datg")
	cmd.Dir = testenv.Root(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/datg: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list -deps ./cmd/datg listed nothing")
	}
	for _, p := range deps {
		if p == "testing" || strings.HasPrefix(p, "testing/") {
			t.Errorf("bin/datg links %s; a package that needs it must be imported by tests only", p)
		}
	}
}
