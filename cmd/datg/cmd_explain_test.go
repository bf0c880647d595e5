package main

import (
	"os"
	"path/filepath"
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
		{[]string{"explain", "--data", data, "ID", "--out", "F"}, "datg: explain: --out comes after the trace id; flags go before it: datg explain --out F ID"},
		{[]string{"explain", "--data", data, "a b", "--aligner", "llm"}, `--aligner comes after the trace id; flags go before it: datg explain --aligner llm "a b"`},
		{[]string{"explain", "--data", data, "a\nb", "-out=F"}, `-out comes after the trace id; flags go before it: datg explain -out=F "a\nb"`},
	}
	for _, c := range cases {
		wantUsageError(t, c.args, c.want)
	}
}

// datg explain --probe-seed N: a filter's scope=probe is the probe's base
// traces at N, as datg view's.
func TestExplainProbeSeed(t *testing.T) {
	data := writeSeedTraces(t)
	for _, c := range []struct {
		args []string
		want string
	}{{[]string{"--probe-seed", "1"}, "at-1"}, {nil, "at-42"}} {
		out := filepath.Join(t.TempDir(), "site")
		r := datg(t, nil, append([]string{"explain", "--data", data, "--filter", "scope=probe", "--out", out}, c.args...)...)
		if r.code != 0 || !strings.Contains(r.stdout, "explain: 1 pages") {
			t.Fatalf("%v: exit %d, %q %q", c.args, r.code, r.stdout, r.stderr)
		}
		index, err := os.ReadFile(filepath.Join(out, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(index), ">"+c.want+"<") {
			t.Errorf("%v: the index does not list %s:\n%s", c.args, c.want, index)
		}
	}
}
