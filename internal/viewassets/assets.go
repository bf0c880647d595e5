package viewassets

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/datg/datg/internal/atomicfile"
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
// upgrade of datg.
var Version = func() string {
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
}()

// FS is the asset tree (katex/..., datg-math.js, datg.css).
func FS() fs.FS { return files }

// FileSystem is the asset tree as an http.FileSystem.
func FileSystem() http.FileSystem { return http.FS(files) }

// Head is the <head> markup that loads the assets served under prefix (a
// URL path ending in "/", absolute for a server, relative for static
// pages): KaTeX's and datg's styles, then KaTeX and datg-math.js, deferred
// so they run in order once the page is parsed.
func Head(prefix string) template.HTML {
	u := func(p string) string {
		return template.HTMLEscapeString(prefix + p + "?v=" + Version)
	}
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
		if r.URL.Query().Get("v") == Version {
			h.Set("Cache-Control", CacheControl)
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		h.Set("ETag", `"`+Version+`"`)
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

// WriteDir writes the asset tree into dir (created if missing), each file
// atomically and only when it differs, so pages written beside it by a
// static export load them with Head of dir's relative path.
func WriteDir(dir string) error {
	return fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, b) {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("writing the page assets: %w", err)
		}
		if err := atomicfile.WriteFile(dst, b); err != nil {
			return fmt.Errorf("writing the page assets: %w", err)
		}
		return nil
	})
}
