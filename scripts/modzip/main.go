// Command modzip writes a Go module proxy's files for one commit of the
// repository (list, .info, .mod and .zip under DIR/MODULE/@v/), the zip
// made by golang.org/x/mod/zip as the real proxy makes it, so that
// `make install-check` can `go install MODULE/cmd/datg@latest` from a
// file:// GOPROXY in front of the real one, with a clean module cache.
//
// It is its own module (scripts/modzip/go.mod): x/mod is needed only here,
// not by datg, and a nested module stays out of datg's module zip.
//
//	go run . -repo ../.. -module github.com/datg/datg -rev HEAD -out DIR
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	repo := flag.String("repo", ".", "the repository's root (its git work tree)")
	mod := flag.String("module", "github.com/datg/datg", "the module path")
	rev := flag.String("rev", "HEAD", "the git revision to zip (committed files only)")
	out := flag.String("out", "", "the proxy directory to write into")
	flag.Parse()
	if err := run(*repo, *mod, *rev, *out); err != nil {
		fmt.Fprintln(os.Stderr, "modzip:", err)
		os.Exit(1)
	}
}

func run(repo, mod, rev, out string) error {
	if out == "" {
		return fmt.Errorf("-out DIR is required")
	}
	commit, err := git(repo, "rev-parse", rev)
	if err != nil {
		return err
	}
	unix, err := git(repo, "show", "-s", "--format=%ct", commit)
	if err != nil {
		return err
	}
	var secs int64
	if _, err := fmt.Sscan(unix, &secs); err != nil {
		return fmt.Errorf("commit time %q: %w", unix, err)
	}
	when := time.Unix(secs, 0).UTC()
	// A pseudo-version, as the proxy names an untagged commit.
	version := module.PseudoVersion("v0", "", when, commit[:12])
	mv := module.Version{Path: mod, Version: version}
	escaped, err := module.EscapePath(mod)
	if err != nil {
		return err
	}
	dir := filepath.Join(out, escaped, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	gomod, err := git(repo, "show", commit+":go.mod")
	if err != nil {
		return err
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, when})
	files := map[string]string{
		"list":            version + "\n",
		version + ".info": string(info),
		version + ".mod":  gomod + "\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	f, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		return err
	}
	// The commit's files, as git archive writes them (x/mod/zip's
	// CreateFromVCS does not know a linked worktree's .git file).
	src, err := os.MkdirTemp("", "datg-modzip-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(src)
	archive := exec.Command("sh", "-c", `git -C "$1" archive --format=tar "$2" | tar -x -C "$3"`, "sh", repo, commit, src)
	archive.Stderr = os.Stderr
	if err := archive.Run(); err != nil {
		return fmt.Errorf("git archive %s: %w", commit, err)
	}
	if err := zip.CreateFromDir(f, mv, src); err != nil {
		f.Close()
		return fmt.Errorf("zipping %s: %w", mv, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Println(version)
	return nil
}

func git(dir string, args ...string) (string, error) {
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
