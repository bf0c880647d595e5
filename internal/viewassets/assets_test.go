package viewassets

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every link of Head is served by Handler with its type and a year's
// cache, and the files are the vendored ones.
func TestHeadLinksAreServed(t *testing.T) {
	srv := httptest.NewServer(Handler("/assets/"))
	defer srv.Close()
	links := regexp.MustCompile(`(?:href|src)="([^"]+)"`).FindAllStringSubmatch(string(Head("/assets/")), -1)
	if len(links) != 4 {
		t.Fatalf("Head has %d links, want 4:\n%s", len(links), Head("/assets/"))
	}
	wantType := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
	for _, l := range links {
		res, err := http.Get(srv.URL + strings.ReplaceAll(l[1], "&amp;", "&"))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || len(body) == 0 {
			t.Errorf("%s: %s, %d bytes", l[1], res.Status, len(body))
			continue
		}
		name := strings.TrimPrefix(strings.SplitN(l[1], "?", 2)[0], "/assets/")
		want, _ := fs.ReadFile(FS(), name)
		if string(body) != string(want) {
			t.Errorf("%s: served bytes differ from the embedded file", l[1])
		}
		if got := res.Header.Get("Content-Type"); got != wantType[filepath.Ext(name)] {
			t.Errorf("%s: Content-Type %q", l[1], got)
		}
		if got := res.Header.Get("Cache-Control"); got != CacheControl {
			t.Errorf("%s: Cache-Control %q, want %q", l[1], got, CacheControl)
		}
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", l[1], got)
		}
	}
}

// The KaTeX of Debian's package is what is served, with its licence, and
// every woff2 font its CSS names is there (as fonts/... relative to it).
func TestKaTeXVendoredWithLicence(t *testing.T) {
	srv := httptest.NewServer(Handler("/assets/"))
	defer srv.Close()
	get := func(p string) (int, string, string) {
		res, err := http.Get(srv.URL + "/assets/" + p)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header.Get("Content-Type"), string(b)
	}
	code, _, lic := get(License)
	if code != 200 || !strings.Contains(lic, "The MIT License") || !strings.Contains(lic, "Khan Academy") {
		t.Errorf("licence: %d %q", code, lic)
	}
	if code, _, readme := get("katex/README.md"); code != 200 || !strings.Contains(readme, "libjs-katex") || !strings.Contains(readme, "0.16.4") {
		t.Errorf("README: %d, does not say where KaTeX came from", code)
	}
	if _, _, js := get(KaTeXJS); !strings.Contains(js, `version:"0.16.4"`) {
		t.Error("katex.min.js is not KaTeX 0.16.4")
	}
	_, _, css := get(KaTeXCSS)
	fonts := regexp.MustCompile(`url\((fonts/[^)]+\.woff2)\)`).FindAllStringSubmatch(css, -1)
	if len(fonts) < 19 {
		t.Fatalf("%d woff2 fonts in katex.min.css", len(fonts))
	}
	for _, f := range fonts {
		code, typ, body := get("katex/" + f[1])
		if code != 200 || typ != "font/woff2" || !strings.HasPrefix(body, "wOF2") {
			t.Errorf("%s: %d %s", f[1], code, typ)
		}
	}
}

// The handler serves files only: no listing, no way out of the tree, no
// writes; an unversioned request is not cached for long.
func TestHandlerRefuses(t *testing.T) {
	h := Handler("/assets/")
	for _, c := range []struct {
		method, target string
		code           int
	}{
		{"GET", "/assets/", 404},
		{"GET", "/assets/katex/", 404},
		{"GET", "/assets/katex/fonts", 404},
		{"GET", "/assets/../assets.go", 404},
		{"GET", "/assets/%2e%2e/assets.go", 404},
		{"GET", "/assets/nosuch.js", 404},
		{"GET", "/other/datg.css", 404},
		{"POST", "/assets/datg.css", 405},
		{"HEAD", "/assets/datg.css", 200},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.target, nil))
		if rec.Code != c.code {
			t.Errorf("%s %s: %d, want %d", c.method, c.target, rec.Code, c.code)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/assets/datg.css?v=old", nil))
	if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
		t.Errorf("an old version's Cache-Control %q", got)
	}
}

// WriteDir writes the tree a static page loads with Head, and leaves
// files alone that are already current.
func TestWriteDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "assets")
	if err := WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{KaTeXJS, KaTeXCSS, MathJS, CSS, License, "katex/fonts/KaTeX_Main-Regular.woff2"} {
		want, _ := fs.ReadFile(FS(), p)
		got, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: %v", p, err)
		}
	}
	info, _ := os.Stat(filepath.Join(dir, CSS))
	if err := WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	again, _ := os.Stat(filepath.Join(dir, CSS))
	if !again.ModTime().Equal(info.ModTime()) {
		t.Error("WriteDir rewrote a current file")
	}
}
