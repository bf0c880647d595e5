package explain

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/datg/datg/internal/atomicfile"
	"github.com/datg/datg/schema"
)

//go:embed page.html
var pageHTML string

//go:embed index.html
var indexHTML string

var funcs = template.FuncMap{
	"lower": strings.ToLower,
	"add":   func(a, b float64) float64 { return a + b },
	"deref": func(p *float64) float64 { return *p },
	"clip": func(s string, n int) string {
		if utf8.RuneCountInString(s) <= n {
			return s
		}
		return string([]rune(s)[:n-1]) + "…"
	},
}

var (
	pageTmpl  = template.Must(template.New("page").Funcs(funcs).Parse(pageHTML))
	indexTmpl = template.Must(template.New("index").Funcs(funcs).Parse(indexHTML))
)

// Config is one explain run.
type Config struct {
	Data    string
	TraceID string // empty: the index page and a page per aligned trace
	Aligner string // whose best DAG to show (default: the first by name)
	Out     string // a file for one trace, a directory for the index (default DIR/explain)
	Stdout  io.Writer
}

// Run writes the page of one trace, or the index and every aligned trace's
// page, and returns the files written.
func Run(ctx context.Context, cfg Config) ([]string, error) {
	if cfg.TraceID != "" {
		out := cfg.Out
		if out == "" {
			out = filepath.Join(cfg.Data, "explain", fileName(cfg.TraceID))
		}
		return []string{out}, writePage(cfg.Data, cfg.TraceID, cfg.Aligner, out)
	}
	dir := cfg.Out
	if dir == "" {
		dir = filepath.Join(cfg.Data, "explain")
	}
	rows, err := indexRows(cfg.Data, cfg.Aligner)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w in %s (run datg align and datg score)", ErrNoScores, cfg.Data)
	}
	var written []string
	for _, r := range rows {
		if err := ctx.Err(); err != nil {
			return written, err
		}
		out := filepath.Join(dir, r.File)
		if err := writePage(cfg.Data, r.ID, cfg.Aligner, out); err != nil {
			return written, err
		}
		written = append(written, out)
	}
	var b bytes.Buffer
	if err := indexTmpl.Execute(&b, struct{ Rows []indexRow }{rows}); err != nil {
		return written, err
	}
	index := filepath.Join(dir, "index.html")
	if err := atomicfile.WriteFile(index, b.Bytes()); err != nil {
		return written, err
	}
	return append(written, index), nil
}

// fileName is a trace's page file; trace ids are [a-z0-9] but an imported
// one may be anything, so other characters are replaced.
func fileName(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, id) + ".html"
}

func writePage(dir, traceID, aligner, out string) error {
	v, err := load(dir, traceID, aligner)
	if err != nil {
		return err
	}
	nodes := statuses(v.DAG, v.Events)
	edges, width, height := layout(v.DAG, nodes)
	data := struct {
		*view
		Nodes         []nodeView
		Edges         []edgeView
		Width, Height float64
		Segments      []segment
	}{v, nodes, edges, width, height, segments(v.Trace.Text, v.Events, v.Harmful)}
	var b bytes.Buffer
	if err := pageTmpl.Execute(&b, data); err != nil {
		return fmt.Errorf("rendering %s: %w", traceID, err)
	}
	return atomicfile.WriteFile(out, b.Bytes())
}

// indexRow is one trace of the index page.
type indexRow struct {
	ID, File, Model, Direction, Lang, Level, Problem, Method string
	Graded, Correct                                          bool
	CAR, PMF, HAR                                            string
}

// indexRows are the aligned traces (those with a best DAG for the aligner).
func indexRows(dir, aligner string) ([]indexRow, error) {
	best := map[string]schema.Score{}
	_, err := scanWhere(dir, schema.Scores, func(s *schema.Score) bool {
		if s.Best && (aligner == "" || s.Aligner == aligner) {
			if old, ok := best[s.TraceID]; !ok || s.Aligner < old.Aligner {
				best[s.TraceID] = *s
			}
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	correct := map[string]bool{}
	if _, err := scanWhere(dir, schema.Answers, func(a *schema.Answer) bool { correct[a.TraceID] = a.Correct; return false }); err != nil {
		return nil, err
	}
	var rows []indexRow
	_, err = scanWhere(dir, schema.Traces, func(t *schema.Trace) bool {
		s, ok := best[t.TraceID]
		if !ok {
			return false
		}
		lang := t.ReasoningLang
		if t.Direction == "x-en" {
			lang = t.InputLang
		}
		pmf := "—"
		if s.PMF != nil {
			pmf = fmt.Sprintf("%.3f", *s.PMF)
		}
		c, graded := correct[t.TraceID]
		rows = append(rows, indexRow{ID: t.TraceID, File: fileName(t.TraceID), Model: t.Model, Direction: t.Direction, Lang: lang,
			Level: t.Level, Problem: t.ProblemID, Method: t.Method, Graded: graded, Correct: c,
			CAR: fmt.Sprintf("%.3f", s.CAR), PMF: pmf, HAR: fmt.Sprintf("%.3f", s.HAR)})
		return false
	})
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		return a.Model+a.Level+a.Problem+a.Direction+a.Lang < b.Model+b.Level+b.Problem+b.Direction+b.Lang
	})
	return rows, err
}
