package main

import "testing"

// The contract puts flags before positional arguments; a flag after the
// trace id is a usage error (exit 2) that says so and shows the command
// in the right order.
func TestExplainFlagsAfterTraceID(t *testing.T) {
	data := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"explain", "--data", data, "ID", "--out", "F"}, "datg: explain: --out comes after the trace id; flags go before it: datg explain --out F ID"},
		{[]string{"explain", "--data", data, "a b", "--aligner", "llm"}, `--aligner comes after the trace id; flags go before it: datg explain --aligner llm "a b"`},
		{[]string{"explain", "--data", data, "a\nb", "-out=F"}, `-out comes after the trace id; flags go before it: datg explain -out=F "a\nb"`},
	}
	for _, c := range cases {
		wantUsageError(t, c.args, c.want)
	}
}
