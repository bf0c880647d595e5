// Package latextest compiles LaTeX in tests with pdflatex and reads its log
// for what a paper cannot have: an error, a line wider than the text block
// (Overfull \hbox over 1pt) or a float taller than the page ("Float too
// large"). Tests that need pdflatex skip without it, unless
// DATG_REQUIRE_PDFLATEX is set (as CI sets it when it installed TeX Live),
// which makes its absence a failure.
package latextest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/datg/datg/internal/testenv"
)

// Require returns pdflatex's path, or skips the test without it (fails
// under DATG_REQUIRE_PDFLATEX).
func Require(t testing.TB) string {
	t.Helper()
	return testenv.Tool(t, []string{"pdflatex"}, "Debian: texlive-latex-base, texlive-latex-recommended", "DATG_REQUIRE_PDFLATEX")
}

// maxOverfull is the widest overfull line accepted, in points: TeX reports
// any, and a fraction of a point does not show.
const maxOverfull = 1.0

// Compile runs pdflatex on dir/file (a .tex) in dir, without stopping for
// errors, and returns the log's problems (Problems); a run that writes no
// PDF is one too.
func Compile(t testing.TB, dir, file string) []string {
	t.Helper()
	pdflatex := Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pdflatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", file)
	cmd.Dir = dir
	// Log lines unwrapped, so every message is one line.
	cmd.Env = append(os.Environ(), "max_print_line=100000")
	out, runErr := cmd.CombinedOutput()
	base := strings.TrimSuffix(file, filepath.Ext(file))
	log, err := os.ReadFile(filepath.Join(dir, base+".log"))
	if err != nil {
		t.Fatalf("pdflatex %s: no log (%v):\n%s", file, err, out)
	}
	problems := Problems(string(log))
	if runErr != nil && len(problems) == 0 {
		problems = append(problems, fmt.Sprintf("pdflatex: %v", runErr))
	}
	if _, err := os.Stat(filepath.Join(dir, base+".pdf")); err != nil {
		problems = append(problems, "no PDF written")
	}
	return problems
}

var overfull = regexp.MustCompile(`^Overfull \\hbox \(([0-9.]+)pt too wide\)`)

// Problems lists, from a pdflatex log, every error (a line starting with
// "!", with the next lines that say where), every Overfull \hbox wider
// than maxOverfull, and every "Float too large".
func Problems(log string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(nil, 1<<20)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "! "):
			context := lines[i:min(i+3, len(lines))]
			out = append(out, strings.Join(context, " | "))
		case strings.Contains(line, "Float too large"):
			out = append(out, line)
		default:
			if m := overfull.FindStringSubmatch(line); m != nil {
				if w, err := strconv.ParseFloat(m[1], 64); err != nil || w > maxOverfull {
					out = append(out, line)
				}
			}
		}
	}
	return out
}
