package explain

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/datg/datg/internal/testenv"
)

// chromium finds Debian's headless browser: required when
// DATG_REQUIRE_CHROMIUM is set (CI installs it), else the test skips.
func chromium(t *testing.T) string { return testenv.Chromium(t) }

// count is how many pixels of img have color c.
func count(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B {
				n++
			}
		}
	}
	return n
}

// The page renders in headless Chromium: the screenshot shows the DAG's
// committed nodes and the highlighted evidence in the COMMIT color and the
// ordered edge in its green, and nothing of the page's size is blank.
func TestPageInChromium(t *testing.T) {
	browser := chromium(t)
	dir := writeRun(t)
	tmp := t.TempDir()
	page := filepath.Join(tmp, "t1.html")
	if _, err := Run(context.Background(), Config{Data: dir, TraceID: "t1", Out: page}); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(tmp, "t1.png")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(tmp, "profile"), "--window-size=900,900", "--screenshot="+shot, "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 900 || b.Dy() != 900 {
		t.Fatalf("screenshot of %v", b)
	}
	commitFill := color.RGBA{R: 0xc6, G: 0xef, B: 0xce}
	orderedEdge := color.RGBA{R: 0x1a, G: 0x7f, B: 0x37}
	// Two node boxes of at least 96x44 and the highlight: thousands of
	// pixels.
	if n := count(img, commitFill); n < 2*90*38 {
		t.Errorf("%d pixels in the COMMIT color: the DAG or the highlight did not render", n)
	}
	if n := count(img, orderedEdge); n < 20 {
		t.Errorf("%d pixels in the ordered edge's green", n)
	}
	if os.Getenv("DATG_KEEP_SCREENSHOT") != "" {
		b, _ := os.ReadFile(shot)
		os.WriteFile(os.Getenv("DATG_KEEP_SCREENSHOT"), b, 0o644)
	}
}

// The exported pages, in a directory beside their assets or as one file,
// render in headless Chromium with an empty console: the trace's
// \boxed{2} and the DAG's anchors are rendered math, bad TeX (a < b & c:
// an & outside an alignment) is kept as text, every edge has an arrowhead,
// and no label had to shrink to fit its box.
func TestPagesRenderMath(t *testing.T) {
	browser := chromium(t)
	dir := writeRun(t)
	site := filepath.Join(t.TempDir(), "site")
	if _, err := Run(context.Background(), Config{Data: dir, Out: site}); err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(t.TempDir(), "t1.html")
	if _, err := Run(context.Background(), Config{Data: dir, TraceID: "t1", Out: alone}); err != nil {
		t.Fatal(err)
	}
	for _, page := range []string{filepath.Join(site, pageName("t1")), alone} {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu",
			"--user-data-dir="+filepath.Join(t.TempDir(), "profile"), "--enable-logging=stderr", "--v=0",
			"--virtual-time-budget=5000", "--dump-dom", "file://"+page)
		var out, errs strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errs
		err := cmd.Run()
		cancel()
		if err != nil {
			t.Fatalf("chromium: %v\n%s", err, errs.String())
		}
		dom := out.String()
		for _, line := range strings.Split(errs.String(), "\n") {
			if strings.Contains(line, ":CONSOLE") {
				t.Errorf("%s: console: %s", page, line)
			}
		}
		for _, want := range []string{
			`<span class="math math-inline" data-tex="\boxed{2}"><span class="katex">`,
			`<div class="dag-text"><span class="math math-inline" data-tex="b = a + 1"><span class="katex">`,
			`<span class="math math-inline math-error" data-tex="a &lt; b &amp; c"`,
			`-arrow-ordered)"`,
		} {
			if !strings.Contains(dom, want) {
				t.Errorf("%s: the rendered page lacks %s", page, want)
			}
		}
		if strings.Contains(dom, `class="dag-label" style=`) {
			t.Errorf("%s: a DAG label was shrunk to fit its box", page)
		}
	}
}

// An exported set opens from disk (file://) in Chromium: the index (in
// pages: one trace a page) and a page log nothing on the console, and the
// page's math is rendered (TestExportByFilter checks every asset they link
// is beside them, TestIndexIsPagedAtIndexPer the index pages' links).
func TestExportedSetInChromium(t *testing.T) {
	browser := chromium(t)
	dir := writeMixedRun(t)
	site := filepath.Join(t.TempDir(), "site")
	if _, err := Run(context.Background(), Config{Data: dir, Filter: "model=other", Out: site, IndexPer: 1}); err != nil {
		t.Fatal(err)
	}
	for _, page := range []string{filepath.Join(site, "index.html"), filepath.Join(site, "index-2.html"), filepath.Join(site, pageName("t3"))} {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu",
			"--user-data-dir="+filepath.Join(t.TempDir(), "profile"), "--enable-logging=stderr", "--v=0",
			"--virtual-time-budget=5000", "--dump-dom", "file://"+page)
		var out, errs strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errs
		err := cmd.Run()
		cancel()
		if err != nil {
			t.Fatalf("chromium: %v\n%s", err, errs.String())
		}
		for _, line := range strings.Split(errs.String(), "\n") {
			if strings.Contains(line, ":CONSOLE") {
				t.Errorf("%s: %s", filepath.Base(page), line)
			}
		}
		if strings.HasPrefix(filepath.Base(page), "index") && !strings.Contains(out.String(), `rel="prev"`) && !strings.Contains(out.String(), `rel="next"`) {
			t.Errorf("%s: no link to the other index page", filepath.Base(page))
		}
		if !strings.HasPrefix(filepath.Base(page), "index") && !strings.Contains(out.String(), `<span class="katex">`) {
			t.Errorf("%s: no rendered math", filepath.Base(page))
		}
	}
}
