package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every datg process starts by running every package's init, whatever the
// command: an init builds nothing that only some commands use. The
// runtime reports each init's allocations (GODEBUG=inittrace=1); the
// bounds leave room for a few small tables, not for the graders' compiled
// patterns (transforms/mathverify: 2.9 MB, 10,000 allocations when built
// at init; transforms/answer's regular expressions: 270 KB, 2,000) nor the
// viewer's asset digest (internal/viewassets: 590 KB, the assets read and
// hashed) nor the simulator's builtin prompts (prompts: 105 KB, the set's
// files read, decoded and hashed).
func TestStartupBuildsNoCommandsTables(t *testing.T) {
	r := datg(t, []string{"GODEBUG=inittrace=1"}, "--version")
	if r.code != 0 {
		t.Fatalf("datg --version: exit %d\n%s", r.code, r.stderr)
	}
	inits := initAllocs(t, r.stderr)
	if _, ok := inits["runtime"]; !ok {
		t.Fatalf("no init of the runtime reported (GODEBUG=inittrace=1 ignored?):\n%s", r.stderr)
	}
	for pkg, bound := range map[string]int{
		"github.com/datg/datg/transforms/mathverify": 32 << 10,
		"github.com/datg/datg/transforms/answer":     32 << 10,
		"github.com/datg/datg/internal/viewassets":   16 << 10,
		"github.com/datg/datg/prompts":               16 << 10,
	} {
		// A package absent from the trace has no init work at all.
		if got := inits[pkg]; got > bound {
			t.Errorf("%s: its init allocates %d bytes, more than %d: it builds what only some commands use", pkg, got, bound)
		}
	}
}

var initLine = regexp.MustCompile(`(?m)^init (\S+) @[0-9.]+ ms, [0-9.]+ ms clock, (\d+) bytes, \d+ allocs$`)

// initAllocs is the bytes each package's init allocated, by import path,
// from the runtime's inittrace lines.
func initAllocs(t *testing.T, stderr string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, m := range initLine.FindAllStringSubmatch(strings.ReplaceAll(stderr, "\r", ""), -1) {
		n, err := strconv.Atoi(m[2])
		if err != nil {
			t.Fatalf("%q: %v", m[0], err)
		}
		out[m[1]] += n
	}
	return out
}
