package viewassets

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"
)

//go:embed static
var static embed.FS

// files is the asset tree, rooted at static/.
var files = func() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embed above guarantees static/ exists
	}
	return sub
}()

// The assets' paths, relative to the prefix they are served under.
const (
	KaTeXJS  = "katex/katex.min.js"
	KaTeXCSS = "katex/katex.min.css"
	MathJS   = "datg-math.js"
	CSS      = "datg.css"
	License  = "katex/LICENSE"
)

// Version is a digest of every asset: Head's links carry it (?v=), so a
// browser may cache the files for a year and still load new ones after an
// upgrade of datg. It is computed on first use, not at init: hashing the
// 1.2 MB of assets is 18 million instructions, which every datg process
// paid at start-up though only the viewer needs it.
var Version = sync.OnceValue(func() string {
	h := sha256.New()
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, p)
		fmt.Fprintf(h, "%s\x00%d\x00", p, len(b))
		h.Write(b)
		return err
	})
	if err != nil {
		panic(err)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
})

// FS is the asset tree (katex/..., datg-math.js, datg.css).
func FS() fs.FS { return files }

// FileSystem is the asset tree as an http.FileSystem.
func FileSystem() http.FileSystem { return http.FS(files) }

// Head is the <head> markup that loads the assets served under prefix (a
// URL path ending in "/", e.g. "/assets/"): KaTeX's and datg's styles,
// then KaTeX and datg-math.js, deferred so they run in order once the
// page is parsed.
func Head(prefix string) template.HTML {
	return head(func(p string) string { return prefix + p })
}

// head is the <head> markup loading each asset from url(its path).
func head(url func(string) string) template.HTML {
	u := func(p string) string { return template.HTMLEscapeString(url(p) + "?v=" + Version()) }
	return template.HTML(`<link rel="stylesheet" href="` + u(KaTeXCSS) + `">` + "\n" +
		`<link rel="stylesheet" href="` + u(CSS) + `">` + "\n" +
		`<script defer src="` + u(KaTeXJS) + `"></script>` + "\n" +
		`<script defer src="` + u(MathJS) + `"></script>`)
}

// CacheControl is the header of an asset asked for with the current
// Version: a year, immutable. Without it (or with an old one) the answer
// must be revalidated.
const CacheControl = "public, max-age=31536000, immutable"

// Handler serves the assets under prefix (e.g. "/assets/"). Only files
// are served (no listings); GET and HEAD only.
func Handler(prefix string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name, ok := strings.CutPrefix(r.URL.Path, prefix)
		if !ok || name == "" || !fs.ValidPath(name) {
			http.NotFound(w, r)
			return
		}
		b, err := fs.ReadFile(files, name)
		if err != nil { // missing, or a directory
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", contentType(name))
		h.Set("X-Content-Type-Options", "nosniff")
		if r.URL.Query().Get("v") == Version() {
			h.Set("Cache-Control", CacheControl)
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		h.Set("ETag", `"`+Version()+`"`)
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
	})
}

// contentType is a file's media type by its extension (the system's MIME
// tables may lack woff2).
func contentType(name string) string {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".woff2":
		return "font/woff2"
	default: // LICENSE, README.md, COPYRIGHT.debian
		return "text/plain; charset=utf-8"
	}
}

// StaticFiles are the assets as files of one directory, for a static
// export that writes its pages beside them (and loads them with
// StaticHead): each under its base name, but KaTeX's licence, README and
// copyright as katex-LICENSE.txt, katex-README.md and
// katex-COPYRIGHT.debian.txt, and KaTeX's CSS with its fonts' URLs made
// relative to that directory.
func StaticFiles() map[string][]byte {
	out := map[string][]byte{}
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, p)
		if p == KaTeXCSS {
			b = bytes.ReplaceAll(b, []byte("url(fonts/"), []byte("url("))
		}
		out[staticName(p)] = b
		return err
	})
	if err != nil {
		panic(err) // the embedded tree is readable
	}
	return out
}

// StaticHead is Head for pages in the directory StaticFiles are written to.
func StaticHead() template.HTML { return head(staticName) }

// staticName is an asset's name among StaticFiles.
func staticName(p string) string {
	base := path.Base(p)
	switch {
	case p == KaTeXJS, p == KaTeXCSS, strings.HasPrefix(p, "katex/fonts/"), !strings.Contains(p, "/"):
		return base
	case path.Ext(base) == ".md":
		return "katex-" + base
	default:
		return "katex-" + base + ".txt"
	}
}

// InlineHead is the <head> markup of a page that must work as one file
// (a single trace's page written where the user said): the styles and
// scripts inline, KaTeX's fonts as data: URLs. It is about 700 KB, and
// needs a page without a Content-Security-Policy.
func InlineHead() template.HTML {
	css, _ := fs.ReadFile(files, KaTeXCSS)
	fonts := regexp.MustCompile(`url\(fonts/([^)]+\.woff2)\)`)
	css = fonts.ReplaceAllFunc(css, func(m []byte) []byte {
		name := fonts.FindSubmatch(m)[1]
		b, err := fs.ReadFile(files, "katex/fonts/"+string(name))
		if err != nil {
			return m
		}
		return []byte("url(data:font/woff2;base64," + base64.StdEncoding.EncodeToString(b) + ")")
	})
	own, _ := fs.ReadFile(files, CSS)
	js, _ := fs.ReadFile(files, KaTeXJS)
	math, _ := fs.ReadFile(files, MathJS)
	// Neither script holds "</script" (TestInlineHead): inline, they
	// cannot end their element early.
	return template.HTML("<style>\n" + string(css) + "\n" + string(own) + "</style>\n<script>\n" + string(js) + "\n</script>\n<script>\n" + string(math) + "\n</script>")
}
