package dagdraw_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/datg/datg/internal/dagdraw"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/viewassets"
)

// chromium finds Debian's headless browser: required when
// DATG_REQUIRE_CHROMIUM is set (CI installs it), else the test skips.
func chromium(t *testing.T) string { return testenv.Chromium(t) }

// The boxes the server estimates hold their labels as the browser renders
// them (KaTeX math, Bengali, Telugu, Japanese, long words): datg-math.js
// finds no label to shrink, and every math span of a label rendered.
func TestLabelsFitInChromium(t *testing.T) {
	browser := chromium(t)
	dir := t.TempDir()
	for name, b := range viewassets.StaticFiles() {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var body strings.Builder
	graphs := []dagdraw.Graph{chainWithSkips(12), wide(6)}
	for seed := range uint64(6) {
		graphs = append(graphs, randomDAG(seed, 12))
	}
	graphs = append(graphs, dagdraw.Graph{Nodes: []dagdraw.Node{
		{ID: "n1", Label: `\frac{\sqrt{2}}{2} + \frac{1}{1 + \frac{1}{x}} = \left\lfloor \frac{99}{5} \right\rfloor`},
		{ID: "n2", Label: "supercalifragilisticexpialidocious-anti-disestablishmentarianism words"},
		{ID: "n3", Label: `x^{2^{n}} + \sum_{k=1}^{n} k = \binom{n}{2}`},
		{ID: "n4", Label: strings.Repeat("ম", 60)},
	}})
	for k, g := range graphs {
		svg, err := dagdraw.Draw(g, dagdraw.Options{ID: fmt.Sprintf("g%d", k)})
		if err != nil {
			t.Fatal(err)
		}
		body.WriteString(string(svg))
	}
	page := filepath.Join(dir, "page.html")
	html := `<!DOCTYPE html><html><head><meta charset="utf-8">` + string(viewassets.StaticHead()) + `</head><body>` + body.String() + `</body></html>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu",
		"--user-data-dir="+filepath.Join(t.TempDir(), "profile"), "--enable-logging=stderr", "--v=0",
		"--virtual-time-budget=5000", "--dump-dom", "file://"+page)
	var out, errs strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errs.String())
	}
	dom := out.String()
	if n := strings.Count(dom, `class="dag-node`); n < 60 {
		t.Fatalf("%d nodes in the rendered page", n)
	}
	for _, m := range regexp.MustCompile(`data-node="([^"]*)"[^>]*>(?:<title>[^<]*</title>)?<rect[^>]*></rect><foreignObject[^>]*><div xmlns="http://www.w3.org/1999/xhtml" class="dag-label" style="([^"]*)"`).FindAllStringSubmatch(dom, -1) {
		t.Errorf("node %s's label was shrunk to fit (%s)", m[1], m[2])
	}
	if n := strings.Count(dom, `class="math math-inline" data-tex=`); n == 0 || strings.Count(dom, `<span class="math math-inline">`) > 0 {
		t.Errorf("%d math spans rendered, and some not", n)
	}
	for _, line := range strings.Split(errs.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") {
			t.Errorf("console: %s", line)
		}
	}
}
