package viewassets

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
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

// StaticFiles are the tree flattened for pages beside them: the names
// StaticHead links, KaTeX's CSS pointing at fonts that are there, the
// licence kept.
func TestStaticFiles(t *testing.T) {
	files := StaticFiles()
	for _, l := range regexp.MustCompile(`(?:href|src)="([^"?]+)\?v=`).FindAllStringSubmatch(string(StaticHead()), -1) {
		if len(files[l[1]]) == 0 {
			t.Errorf("StaticHead links %s, which StaticFiles lacks", l[1])
		}
	}
	if !strings.Contains(string(files["katex-LICENSE.txt"]), "The MIT License") || len(files["katex-README.md"]) == 0 {
		t.Error("KaTeX's licence or README is missing")
	}
	fonts := regexp.MustCompile(`url\(([^)]+\.woff2)\)`).FindAllStringSubmatch(string(files["katex.min.css"]), -1)
	if len(fonts) < 19 {
		t.Fatalf("%d woff2 fonts in the static katex.min.css", len(fonts))
	}
	for _, f := range fonts {
		if !strings.HasPrefix(string(files[f[1]]), "wOF2") {
			t.Errorf("the CSS names %s, which is not among the files", f[1])
		}
	}
	for name := range files {
		if strings.Contains(name, "/") {
			t.Errorf("%s is not a plain name", name)
		}
	}
}

// InlineHead holds the assets themselves: no link to a file, every woff2
// font as a data: URL, and no "</script" inside a script.
func TestInlineHead(t *testing.T) {
	h := string(InlineHead())
	if strings.Contains(h, "<link") || strings.Contains(h, "<script defer") || strings.Contains(h, "<script src") || strings.Contains(h, "url(fonts/KaTeX_Main-Regular.woff2)") {
		t.Error("InlineHead links a file")
	}
	if n := strings.Count(h, "url(data:font/woff2;base64,"); n < 19 {
		t.Errorf("%d fonts inline", n)
	}
	if n := strings.Count(h, "</script"); n != 2 {
		t.Errorf("%d </script in InlineHead, want the 2 closing its scripts", n)
	}
}
