package viewassets

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/texmath"
)

// chromium finds Debian's headless browser: required when
// DATG_REQUIRE_CHROMIUM is set (CI installs it), else the test skips.
func chromium(t *testing.T) string { return testenv.Chromium(t) }

// RenderInChromium loads an HTML page from a file in headless Chromium and
// returns its DOM after the deferred scripts ran, and the console's
// messages.
func renderInChromium(t *testing.T, page string) (dom, console string) {
	t.Helper()
	browser := chromium(t)
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
	var msgs []string
	for _, line := range strings.Split(errs.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") {
			msgs = append(msgs, line)
		}
	}
	return out.String(), strings.Join(msgs, "\n")
}

// A static page that loads the assets with Head renders every math span
// texmath marks: \boxed{18} and \frac become KaTeX output (with MathML),
// display math is display, bad TeX shows as text (KaTeX's error span, not
// a thrown error), and the console stays empty under a CSP that allows
// only the page's own files.
func TestMathRendersOffline(t *testing.T) {
	trace := `So $ a + 2b = \sqrt{2} + 2 \times \frac{\sqrt{2}}{2} $ and the answer is \boxed{18}.
$$\sum_{k=1}^{n} k = \frac{n(n+1)}{2}$$
Bad: $\frac{1}{$ and \(\badcommand{x}\) and বাংলা $x = ২$ <script>alert(1)</script> \(\rule{500em}{500em}\)`
	body := `</head><body><p id="t">` + string(texmath.HTML(trace)) + `</p></body></html>`
	// Beside its files, under a CSP that allows only them; or as one file.
	dir := t.TempDir()
	for name, b := range StaticFiles() {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	beside := filepath.Join(dir, "page.html")
	csp := `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; img-src 'self' data:">`
	alone := filepath.Join(t.TempDir(), "alone.html")
	for path, head := range map[string]string{beside: csp + string(StaticHead()), alone: string(InlineHead())} {
		page := `<!DOCTYPE html><html><head><meta charset="utf-8">` + head + body
		if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(path), func(t *testing.T) { checkMath(t, path) })
	}
}

func checkMath(t *testing.T, path string) {
	dom, console := renderInChromium(t, path)
	if console != "" {
		t.Errorf("console:\n%s", console)
	}
	if strings.Contains(dom, "<script>alert") {
		t.Error("model text became markup")
	}
	rendered := regexp.MustCompile(`<span class="math math-(inline|display)" data-tex="([^"]*)"><span class="(katex-display|katex)"`).FindAllStringSubmatch(dom, -1)
	if len(rendered) != 5 {
		t.Errorf("%d math spans rendered, want 5", len(rendered))
	}
	var boxed, display bool
	for _, r := range rendered {
		boxed = boxed || r[2] == `\boxed{18}`
		display = display || r[1] == "display" && r[3] == "katex-display"
	}
	if !boxed || !display {
		t.Errorf(`\boxed{18} rendered %v, display math in display mode %v`, boxed, display)
	}
	if !strings.Contains(dom, `<menclose notation="box">`) {
		t.Error(`\boxed{18} has no boxed MathML`)
	}
	// A model's giant \rule is capped at maxSize (20em).
	if strings.Contains(dom, "width: 500em") || !strings.Contains(dom, "border-top-width: 20em") {
		t.Error(`\rule{500em}{500em} was not capped at 20em`)
	}
	if !strings.Contains(dom, "<mfrac>") {
		t.Error(`\frac rendered no fraction`)
	}
	bad := regexp.MustCompile(`<span class="math math-inline math-error" data-tex="([^"]*)" title="KaTeX parse error[^"]*">([^<]*)</span>`).FindAllStringSubmatch(dom, -1)
	if len(bad) != 2 || bad[0][1] != bad[0][2] || bad[0][2] != `\frac{1}{` || bad[1][2] != `\badcommand{x}` {
		t.Errorf("bad TeX: %q, want the two spans' TeX as text", bad)
	}
}
