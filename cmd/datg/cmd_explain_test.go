package main

import (
	"strings"
	"testing"
)

// The contract puts flags before positional arguments; a flag after the
// trace id is a usage error (exit 2) that says so and shows the command
// in the right order.
func TestExplainFlagsAfterTraceID(t *testing.T) {
	data := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"explain", "--data", data, "ID", "--out", "F"}, "datg: explain: flags go before the trace id: datg explain --out F ID"},
		{[]string{"explain", "--data", data, "a b", "--aligner", "llm"}, `flags go before the trace id: datg explain --aligner llm "a b"`},
		{[]string{"explain", "--data", data, "a\nb", "-out=F"}, `flags go before the trace id: datg explain -out=F "a\nb"`},
		{[]string{"explain", "--data", data, "t1", "t2"}, "datg: explain: at most one trace id"},
	}
	for _, c := range cases {
		r := datg(t, nil, c.args...)
		if r.code != 2 {
			t.Errorf("datg %q: exit %d, want 2", c.args, r.code)
		}
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("datg %q: stderr %q, want it to say %q", c.args, r.stderr, c.want)
		}
		if n := strings.Count(strings.TrimSpace(r.stderr), "\n") + 1; n != 1 {
			t.Errorf("datg %q: stderr has %d lines, want 1: %q", c.args, n, r.stderr)
		}

	}
}
