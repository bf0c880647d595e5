package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Tool finds the first of names on the PATH: a Debian tool a test runs
// (chromium, pdflatex, pdffonts). Without it the test skips, unless one of
// requiredBy is set in the environment, as CI sets it where it installed
// the tool: then its absence is a failure. install says where it comes
// from ("apt-get install chromium").
func Tool(t testing.TB, names []string, install string, requiredBy ...string) string {
	t.Helper()
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	for _, env := range requiredBy {
		if os.Getenv(env) != "" {
			t.Fatalf("%s is set but no %s is installed (%s)", env, strings.Join(names, " or "), install)
		}
	}
	t.Skipf("no %s installed (%s)", strings.Join(names, " or "), install)
	return ""
}

// Chromium is Debian's headless browser, required under
// DATG_REQUIRE_CHROMIUM.
func Chromium(t testing.TB) string {
	t.Helper()
	return Tool(t, []string{"chromium", "chromium-browser"}, "apt-get install chromium", "DATG_REQUIRE_CHROMIUM")
}
