package main

import (
	"strings"
	"testing"
)

// tables, explain and score check their Config before any work (Validate),
// and a problem names the flag that sets the field at fault.
func TestTablesExplainScoreValidateTheirConfig(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tables", "--data", ""}, "datg: tables: invalid configuration: --data: no run directory"},
		{[]string{"tables", "--data", t.TempDir(), "--only", "complience"}, `datg: tables: invalid configuration: --only: no such table: "complience" (known: `},
		{[]string{"explain", "--data", ""}, "datg: explain: invalid configuration: --data: no run directory"},
		{[]string{"score", "--data", ""}, "datg: score: invalid configuration: --data: no run directory"},
	}
	for _, c := range cases {
		wantUsageError(t, c.args, c.want)
	}
}

// wantUsageError runs datg with args and checks that it exits 2 with one
// line on stderr that says want.
func wantUsageError(t *testing.T, args []string, want string) {
	t.Helper()
	r := datg(t, nil, args...)
	if r.code != 2 {
		t.Errorf("datg %q: exit %d, want 2", args, r.code)
	}
	if !strings.Contains(r.stderr, want) {
		t.Errorf("datg %q: stderr %q, want it to say %q", args, r.stderr, want)
	}
	if n := strings.Count(strings.TrimSpace(r.stderr), "\n") + 1; n != 1 {
		t.Errorf("datg %q: stderr has %d lines, want 1: %q", args, n, r.stderr)
	}
}
