package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"unicode"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
)

// No help text holds a control character but newline and tab: a "\b" in
// a Go string is a backspace, which a terminal acts on (help verify printed
// one before "oxed{}").
func TestHelpHasNoControlCharacters(t *testing.T) {
	pages := [][]string{{"help"}}
	for _, c := range commands {
		pages = append(pages, []string{"help", c.Name()}, []string{c.Name(), "--help"})
	}
	for _, args := range pages {
		r := datg(t, nil, args...)
		if r.code != 0 || r.stdout == "" {
			t.Errorf("datg %s: exit %d, %d bytes", strings.Join(args, " "), r.code, len(r.stdout))
		}
		for i, c := range r.stdout + r.stderr {
			if (unicode.IsControl(c) || c == unicode.ReplacementChar) && c != '\n' && c != '\t' {
				out := r.stdout + r.stderr
				t.Errorf("datg %s: %U at byte %d: %q", strings.Join(args, " "), c, i, out[max(0, i-20):min(len(out), i+20)])
				break
			}
		}
	}
}

// Help for a command that does not exist is a usage error (exit 2), in
// one line on stderr, not the command list and exit 0.
func TestHelpUnknownCommand(t *testing.T) {
	r := datg(t, nil, "help", "nosuch")
	if want := "datg: help: unknown command \"nosuch\"; run 'datg help' for the list\n"; r.code != 2 || r.stderr != want || r.stdout != "" {
		t.Errorf("datg help nosuch: exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.stdout, r.stderr, want)
	}
	r = datg(t, nil, "help", "sql")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "usage: datg sql ") {
		t.Errorf("datg help sql: exit %d, %q", r.code, r.stdout)
	}
}

// datg --version and datg version print datg's version, the commit and the
// embedded DuckDB's version (what DuckDB's pragma_version says).
func TestVersion(t *testing.T) {
	engine, err := duck.Version(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// A test binary carries no VCS information (go test does not stamp it).
	want := "datg " + store.Version + "\ncommit unknown (built without version control information)\nduckdb " + engine + "\n"
	for _, args := range [][]string{{"--version"}, {"version"}} {
		if r := mustDatg(t, args...); r.stdout != want {
			t.Errorf("datg %s: %q, want %q", args[0], r.stdout, want)
		}
	}
	wantUsageError(t, []string{"version", "extra"}, `datg: version: unexpected argument "extra"`)
}

// The commit is the one make build passes (-X), else the go command's
// record (the keys go help buildinfo documents), else unknown.
func TestCommitOf(t *testing.T) {
	rev := "0123456789abcdef0123456789abcdef01234567"
	stamped := func(modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}}
	}
	cases := []struct {
		bi                   *debug.BuildInfo
		ldCommit, ldModified string
		want                 string
	}{
		{nil, "", "", "unknown (built without version control information)"},
		{&debug.BuildInfo{}, "", "", "unknown (built without version control information)"},
		{stamped("false"), "", "", rev},
		{stamped("true"), "", "", rev + " (modified)"},
		{nil, "feedface", "false", "feedface"},
		{nil, "feedface", "true", "feedface (modified)"},
		// make's, from git, wins: go build may record an enclosing checkout's.
		{stamped("true"), "feedface", "false", "feedface"},
		// go install from the module proxy: the pseudo-version's commit
		// (the three forms of go help module-get's pseudo-versions).
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261128080231-8653b8b80801"}}, "", "",
			"8653b8b80801 (from the module version v0.0.0-20261128080231-8653b8b80801)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.4-0.20261128080231-8653b8b80801"}}, "", "",
			"8653b8b80801 (from the module version v1.2.4-0.20261128080231-8653b8b80801)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.3.0-pre.0.20261128080231-8653b8b80801"}}, "", "",
			"8653b8b80801 (from the module version v1.3.0-pre.0.20261128080231-8653b8b80801)"},
		// A tagged release names no commit; a devel build names nothing.
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "", "", "unknown (built without version control information)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "", "", "unknown (built without version control information)"},
		// A VCS record wins over the version.
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261128080231-8653b8b80801"}, Settings: stamped("false").Settings}, "", "", rev},
	}
	for _, c := range cases {
		if got := commitOf(c.bi, c.ldCommit, c.ldModified); got != c.want {
			t.Errorf("commitOf(%v, %q, %q) = %q, want %q", c.bi, c.ldCommit, c.ldModified, got, c.want)
		}
	}
}

// make build stamps the commit git reports, in a linked worktree too
// (where go build records none: golang/go#58218). The go build line is
// make's own (make -n), so a renamed variable or a broken Makefile fails.
func TestMakeBuildStampsTheCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("links a datg binary")
	}
	root := testenv.Root(t)
	for _, tool := range []string{"make", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "datg")
	line, err := exec.Command("make", "-s", "-n", "-C", root, "build", "BIN="+bin).Output()
	if err != nil {
		t.Fatalf("make -n build: %v", err)
	}
	build := exec.Command("sh", "-c", string(line))
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", line, err, out)
	}
	// Read after the build: the state make saw is the state now (tests
	// do not change the checkout).
	status, err := exec.Command("git", "-C", root, "status", "--porcelain").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "commit " + strings.TrimSpace(string(head))
	if len(status) > 0 {
		want += " (modified)"
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(string(out), "\n"); len(lines) < 2 || lines[1] != want {
		t.Errorf("%s --version: %q, want the line %q", bin, out, want)
	}
	os.Remove(bin)
}
