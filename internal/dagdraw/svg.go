package dagdraw

import (
	"html/template"
	"strconv"
	"strings"

	"github.com/datg/datg/internal/texmath"
)

// Options are a drawing's attributes on its page.
type Options struct {
	// ID names the drawing on its page, unique there (a page may hold
	// several): its data-dag attribute and the prefix of its arrowheads'
	// ids. Default "dag". Characters other than ASCII letters, digits, -
	// and _ become -.
	ID string
	// Label is the drawing's aria-label. Default "DAG".
	Label string
}

// Draw lays out g and writes it as SVG.
func Draw(g Graph, o Options) (template.HTML, error) {
	l, err := Lay(g)
	if err != nil {
		return "", err
	}
	return l.SVG(o), nil
}

// SVG writes the drawing (see the package doc for its elements). Every
// text is escaped; labels are texmath's HTML, whose math spans
// datg-math.js renders.
func (l *Layout) SVG(o Options) template.HTML {
	id := token(o.ID, "dag")
	label := o.Label
	if label == "" {
		label = "DAG"
	}
	var b strings.Builder
	w, h := num(l.Width), num(l.Height)
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="dag" data-dag="` + id + `" width="` + w + `" height="` + h +
		`" viewBox="0 0 ` + w + " " + h + `" role="group" aria-label="`)
	texmath.Escape(&b, label)
	b.WriteString("\">\n<defs>")
	// An arrowhead per edge class, so CSS can colour each like its edges.
	markers := map[string]string{}
	for _, e := range l.Edges {
		class := classes(e.Class)
		if _, ok := markers[class]; ok {
			continue
		}
		mid := id + "-arrow"
		if class != "" {
			mid += "-" + strings.ReplaceAll(class, " ", "-")
		}
		markers[class] = mid
		b.WriteString(`<marker id="` + mid + `" class="dag-arrow ` + class + `" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,1 L10,5 L0,9 z"></path></marker>`)
	}
	b.WriteString("</defs>\n<g class=\"dag-edges\">\n")
	for _, e := range l.Edges {
		class := classes(e.Class)
		b.WriteString(`<path class="dag-edge ` + class + `" data-from="`)
		texmath.Escape(&b, e.From)
		b.WriteString(`" data-to="`)
		texmath.Escape(&b, e.To)
		b.WriteString(`" d="`)
		pathData(&b, e.Curves)
		b.WriteString(`" marker-end="url(#` + markers[class] + `)"><title>`)
		title := e.Title
		if title == "" {
			title = e.From + " → " + e.To
		}
		texmath.Escape(&b, title)
		b.WriteString("</title></path>\n")
	}
	b.WriteString("</g>\n<g class=\"dag-nodes\">\n")
	for _, n := range l.Nodes {
		class := "dag-node status-" + token(strings.ToLower(n.Status), "none")
		if n.Final {
			class += " final"
		}
		b.WriteString(`<g class="` + class + `" data-node="`)
		texmath.Escape(&b, n.ID)
		b.WriteString(`" tabindex="0">`)
		if n.Title != "" {
			b.WriteString("<title>")
			texmath.Escape(&b, n.Title)
			b.WriteString("</title>")
		}
		x, y, bw, bh := num(n.Box.X), num(n.Box.Y), num(n.Box.W), num(n.Box.H)
		b.WriteString(`<rect x="` + x + `" y="` + y + `" width="` + bw + `" height="` + bh + `" rx="6"></rect>`)
		b.WriteString(`<foreignObject x="` + x + `" y="` + y + `" width="` + bw + `" height="` + bh + `">`)
		b.WriteString(`<div xmlns="http://www.w3.org/1999/xhtml" class="dag-label"><div class="dag-head">`)
		texmath.Escape(&b, n.ID)
		if n.Status != "" {
			b.WriteString(" · ")
			texmath.Escape(&b, n.Status)
		}
		b.WriteString(`</div><div class="dag-text">`)
		texmath.WriteSegments(&b, texmath.SplitAnchor(n.Label))
		b.WriteString("</div></div></foreignObject></g>\n")
	}
	b.WriteString("</g>\n</svg>")
	return template.HTML(b.String())
}

// pathData is the SVG path of joined curves: L for straight pieces.
func pathData(b *strings.Builder, cs []Curve) {
	if len(cs) == 0 {
		return
	}
	b.WriteByte('M')
	pt(b, cs[0].P0)
	for _, c := range cs {
		if c == line(c.P0, c.P3) {
			b.WriteString(" L")
			pt(b, c.P3)
			continue
		}
		b.WriteString(" C")
		pt(b, c.P1)
		b.WriteByte(' ')
		pt(b, c.P2)
		b.WriteByte(' ')
		pt(b, c.P3)
	}
}

func pt(b *strings.Builder, p Point) {
	var buf [32]byte
	b.Write(strconv.AppendFloat(buf[:0], p.X, 'f', 1, 64))
	b.WriteByte(',')
	b.Write(strconv.AppendFloat(buf[:0], p.Y, 'f', 1, 64))
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// token is s with every character but ASCII letters, digits, - and _ as
// -, or def when s is empty.
func token(s, def string) string {
	if s == "" {
		return def
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, s)
}

// classes is a space-separated class list with each class a token.
func classes(s string) string {
	f := strings.Fields(s)
	for i := range f {
		f[i] = token(f[i], "")
	}
	return strings.Join(f, " ")
}
