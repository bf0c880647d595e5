package explain

import (
	"context"
	"github.com/datg/datg/pipelines/view"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileIDs are trace ids an import may give: any Unicode, path
// separators and dot-dot, control characters, markup, thousands of bytes,
// and ids that differ only in characters a file name cannot hold.
var hostileIDs = []struct{ name, id string }{
	{"plain", "t1"},
	{"300 characters", strings.Repeat("x", 300)},
	{"1000 two-byte runes", strings.Repeat("é", 1000)},
	{"long, differing at the end", strings.Repeat("x", 299) + "y"},
	{"slash", "a/b"},
	{"underscore", "a_b"},
	{"dot", "a.b"},
	{"space", "a b"},
	{"escaped slash", "a%2Fb"},
	{"dot-dot", ".."},
	{"dot", "."},
	{"parent path", "../../etc/passwd"},
	{"absolute path", "/tmp/x"},
	{"backslash", `..\..\x`},
	{"NUL", "a\x00b"},
	{"newline", "a\nb"},
	{"CR and tab", "a\rb\tc"},
	{"script", "<script>alert(1)</script>"},
	{"attribute break", `"><img src=x onerror=alert(1)>`},
	{"scheme", "javascript:alert(1)"},
	{"query and fragment", "a?b=c#d"},
	{"Japanese", "日本語の推論"},
	{"emoji", "😀"},
	{"upper case", "A"},
	{"lower case", "a"},
	{"like a flag", "-rf"},
	{"the index's name", "index"},
	{"a page name", "t1-628b49d96dcde97a430dd4f597705899"},
}

var anchorRE = regexp.MustCompile(`<a href="([^"]*)" class="trace-link">([^<]*)</a>`)
var h1RE = regexp.MustCompile(`<h1 class="trace-id">([^<]*)</h1>`)

// asRendered is an id as html/template renders it in text: NUL becomes
// U+FFFD.
func asRendered(id string) string { return strings.ReplaceAll(id, "\x00", "\uFFFD") }

// Every trace gets its own page inside the out directory, whatever its id;
// the index links every page, and a one-trace run writes the page the index
// links to.
func TestHostileTraceIDs(t *testing.T) {
	ids := make([]string, len(hostileIDs))
	for i, h := range hostileIDs {
		ids[i] = h.id
	}
	data := writeRun(t, ids...)
	out := filepath.Join(t.TempDir(), "explain")
	sum, err := Run(context.Background(), Config{Data: data, Out: out})
	if err != nil {
		t.Fatalf("index over hostile ids: %v", err)
	}
	if len(sum.Written) != len(ids)+1 {
		t.Fatalf("wrote %d files for %d traces and an index", len(sum.Written), len(ids))
	}
	if want := filepath.Join(out, "index.html"); sum.Index != want {
		t.Errorf("index is %q, want %q", sum.Index, want)
	}
	for _, p := range sum.Written {
		if filepath.Dir(p) != out {
			t.Errorf("%q is not directly inside %s", p, out)
		}
		if base := filepath.Base(p); len(base) > 100 || !regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*\.html$`).MatchString(base) {
			t.Errorf("page name %q is long or not filesystem-safe", base)
		}
	}
	// No page replaced another, also on a case-insensitive file system,
	// and nothing was written outside out.
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	// .datg is datg's record of the pages it wrote (internal/outdir); the
	// assets are the pages' scripts, styles and fonts.
	assets := view.StaticFiles()
	entries = slices.DeleteFunc(entries, func(e os.DirEntry) bool { return e.Name() == ".datg" || assets[e.Name()] != nil })
	folded := map[string]bool{}
	for _, e := range entries {
		folded[strings.ToLower(e.Name())] = true
	}
	if len(entries) != len(ids)+1 || len(folded) != len(ids)+1 {
		t.Fatalf("%s holds %d files (%d ignoring case), want %d", out, len(entries), len(folded), len(ids)+1)
	}

	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{"<script>", "<img", `"><img`} {
		if strings.Contains(string(index), raw) {
			t.Errorf("a trace id reached the index as markup: %q", raw)
		}
	}
	// Each link opens a page of that trace; each id has one link.
	linkOf := map[string]string{} // id as rendered -> page file
	for _, m := range anchorRE.FindAllStringSubmatch(string(index), -1) {
		href, text := html.UnescapeString(m[1]), html.UnescapeString(m[2])
		file, err := url.PathUnescape(strings.TrimPrefix(href, "./"))
		if err != nil || strings.ContainsAny(file, `/\`) {
			t.Errorf("link %q of %q does not name a file beside the index", href, text)
			continue
		}
		if _, dup := linkOf[text]; dup {
			t.Errorf("%q is linked twice", text)
		}
		linkOf[text] = file
		page, err := os.ReadFile(filepath.Join(out, file))
		if err != nil {
			t.Errorf("link of %q: %v", text, err)
			continue
		}
		if h := h1RE.FindStringSubmatch(string(page)); h == nil || html.UnescapeString(h[1]) != text {
			t.Errorf("link of %q opens the page of %q", text, h)
		}
	}
	if len(linkOf) != len(ids) {
		t.Errorf("the index links %d traces, want %d", len(linkOf), len(ids))
	}
	for _, h := range hostileIDs {
		file, ok := linkOf[asRendered(h.id)]
		if !ok {
			t.Errorf("%s: %q has no index entry", h.name, h.id)
			continue
		}
		// One trace's page goes where the index links it.
		one, err := Run(context.Background(), Config{Data: data, TraceID: h.id})
		if err != nil {
			t.Errorf("%s: the page of %q alone: %v", h.name, h.id, err)
			continue
		}
		if want := filepath.Join(data, "explain", file); !slices.Equal(one.Written, []string{want}) || one.Index != "" {
			t.Errorf("%s: the page of %q alone is %+v, the index links %s", h.name, h.id, one, want)
		}
	}
}

// A page name is short, safe and readable for any id, and the same in every
// run.
func TestPageName(t *testing.T) {
	// The hashes are the first 32 hex digits of `printf %s ID | sha256sum`.
	cases := []struct{ id, want string }{
		{"t1", "t1-628b49d96dcde97a430dd4f597705899.html"},
		{"a/b", "a_b-c14cddc033f64b9dea80ea675cf280a0.html"},
		{"a_b", "a_b-648fa9b31bc7ff7eb914e7a7180f07e0.html"},
		{"../../etc/passwd", "etc_passwd-3754d6cb3a38e1185e5b382d5f3ef3f1.html"},
		{"日本語", "trace-77710aedc74ecfa33685e33a6c7df5cc.html"},
		{"-rf", "rf-686c39acd6327bbd2c7c3aeea382e60f.html"},
	}
	for _, c := range cases {
		if got := pageName(c.id); got != c.want {
			t.Errorf("pageName(%q) = %q, want %q", c.id, got, c.want)
		}
	}
	for _, id := range []string{strings.Repeat("x", 5000), strings.Repeat("日", 5000), strings.Repeat("/..", 2000)} {
		if got := pageName(id); len(got) > prefixMax+1+hashHexChars+len(".html") || !utf8.ValidString(got) {
			t.Errorf("pageName of a %d-byte id is %d bytes: %q", len(id), len(got), got)
		}
	}
}
