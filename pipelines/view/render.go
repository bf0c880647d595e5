package view

import (
	"bytes"
	"database/sql"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"sync"

	"github.com/datg/datg/internal/viewassets"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

var funcs = template.FuncMap{
	"f3": func(x float64) string { return fmt.Sprintf("%.3f", x) },
	"nf3": func(x sql.NullFloat64) string {
		if !x.Valid {
			return "—"
		}
		return fmt.Sprintf("%.3f", x.Float64)
	},
	"pct":   func(x float64) string { return fmt.Sprintf("%.1f", x) },
	"count": count,
	"add":   func(a, b int) int { return a + b },
	"sub":   func(a, b int) int { return a - b },
	"upper": strings.ToUpper,
	// answer is a gold or extracted answer, its math marked for KaTeX.
	"answer": answerHTML,
	// lang is a language code as a lang attribute (lang.go).
	"lang": langTag,
	// assets loads KaTeX, datg-math.js and datg.css (internal/viewassets).
	"assets": func() template.HTML { return viewassets.Head(assetsPrefix) },
}

// assetsPrefix is where the server mounts internal/viewassets.
const assetsPrefix = "/assets/"

// pages are the templates, each with the frame (base.html).
//
// Parsed on first use: every datg command links the viewer, few render.
var pages = sync.OnceValue(func() map[string]*template.Template {
	out := map[string]*template.Template{}
	for _, name := range []string{"index", "trace", "tables", "error", "export"} {
		out[name] = template.Must(template.New("base.html").Funcs(funcs).ParseFS(templateFiles, "templates/base.html", "templates/parts.html", "templates/"+name+".html"))
	}
	return out
})

// render is a page in its frame.
func render(name string, info *pageInfo, data any) (string, error) {
	t, ok := pages()[name]
	if !ok {
		return "", fmt.Errorf("no page template %q", name)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, struct {
		Info *pageInfo
		D    any
	}{info, data}); err != nil {
		return "", fmt.Errorf("rendering %s: %w", name, err)
	}
	return b.String(), nil
}

// staticHandler serves the viewer's stylesheet and script.
func staticHandler() http.Handler {
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err)
	}
	return http.FileServerFS(sub)
}
