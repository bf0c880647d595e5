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
		r := datg(t, nil, c.args...)
		if r.code != 2 {
			t.Errorf("datg %q: exit %d, want 2", c.args, r.code)
		}
		if !strings.HasPrefix(r.stderr, c.want) {
			t.Errorf("datg %q: stderr %q, want it to start %q", c.args, r.stderr, c.want)
		}
	}
}
