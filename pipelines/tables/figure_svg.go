package tables

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strings"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// svgCanvas is a vg.Canvas writing SVG, in the place of gonum's vgsvg,
// whose texts name Liberation Serif and are placed by its glyph widths: in
// a viewer without that font they are set in another one, wider or
// narrower, and run into what follows them. Here a text is the outline of
// its glyphs (glyphOutline, placed by glyphRun), so the SVG looks the same
// with any fonts or none, and carries the text as its accessible name
// (aria-label and a <title>), for screen readers and search. Coordinates
// are points, y up inside a flipped group, as vgsvg writes them.
type svgCanvas struct {
	w, h  vg.Length
	title string // the document's accessible name
	buf   bytes.Buffer
	stack []svgState
	err   error // the first text that could not be drawn
	// glyphs are the ids of the glyph outlines defined in defs.
	glyphs map[glyphKey]string
	defs   bytes.Buffer
}

// svgState is the graphics state between Push and Pop.
type svgState struct {
	color      color.Color
	lineWidth  vg.Length
	dashes     []vg.Length
	dashOffset vg.Length
	groups     int // <g> elements opened since the Push
}

func newSVGCanvas(w, h vg.Length, title string) *svgCanvas {
	c := &svgCanvas{w: w, h: h, title: title, stack: []svgState{{color: color.Black, lineWidth: 1}}}
	fmt.Fprintf(&c.buf, "<g transform=\"scale(1,-1) translate(0,%s)\">\n", num(-h.Points()))
	vg.Initialize(c)
	return c
}

func (c *svgCanvas) top() *svgState { return &c.stack[len(c.stack)-1] }

func (c *svgCanvas) Size() (vg.Length, vg.Length) { return c.w, c.h }

func (c *svgCanvas) SetLineWidth(w vg.Length) { c.top().lineWidth = w }

func (c *svgCanvas) SetLineDash(dashes []vg.Length, offset vg.Length) {
	c.top().dashes, c.top().dashOffset = dashes, offset
}

func (c *svgCanvas) SetColor(col color.Color) {
	if col == nil {
		col = color.Black
	}
	c.top().color = col
}

func (c *svgCanvas) openGroup(transform string) {
	fmt.Fprintf(&c.buf, "<g transform=\"%s\">\n", transform)
	c.top().groups++
}

func (c *svgCanvas) Rotate(rad float64) { c.openGroup("rotate(" + num(rad*180/math.Pi) + ")") }

func (c *svgCanvas) Translate(pt vg.Point) {
	c.openGroup("translate(" + num(pt.X.Points()) + "," + num(pt.Y.Points()) + ")")
}

func (c *svgCanvas) Scale(x, y float64) { c.openGroup("scale(" + num(x) + "," + num(y) + ")") }

func (c *svgCanvas) Push() {
	s := *c.top()
	s.groups = 0
	c.stack = append(c.stack, s)
}

func (c *svgCanvas) Pop() {
	if len(c.stack) == 1 {
		return // an unmatched Pop: nothing of the document's own to close
	}
	c.buf.WriteString(strings.Repeat("</g>\n", c.top().groups))
	c.stack = c.stack[:len(c.stack)-1]
}

func (c *svgCanvas) Stroke(p vg.Path) {
	s := c.top()
	if s.lineWidth <= 0 {
		return
	}
	dash := ""
	if len(s.dashes) > 0 {
		parts := make([]string, len(s.dashes))
		for i, d := range s.dashes {
			parts[i] = num(d.Points())
		}
		dash = fmt.Sprintf(" stroke-dasharray=\"%s\" stroke-dashoffset=\"%s\"", strings.Join(parts, ","), num(s.dashOffset.Points()))
	}
	fmt.Fprintf(&c.buf, "<path d=\"%s\" fill=\"none\" stroke=\"%s\"%s stroke-width=\"%s\"%s/>\n",
		pathData(p), hexColor(s.color), opacity("stroke-opacity", s.color), num(s.lineWidth.Points()), dash)
}

func (c *svgCanvas) Fill(p vg.Path) {
	s := c.top()
	fmt.Fprintf(&c.buf, "<path d=\"%s\" fill=\"%s\"%s/>\n", pathData(p), hexColor(s.color), opacity("fill-opacity", s.color))
}

// FillString draws str with its baseline starting at pt, as gonum's text
// handler asks: a group named by str, of a <use> of each glyph's outline,
// which the document defines once per font, size and glyph.
func (c *svgCanvas) FillString(f font.Face, pt vg.Point, str string) {
	if f.Font.Size == 0 || str == "" {
		return
	}
	run, err := glyphRun(f, str)
	if err != nil {
		c.fail(fmt.Errorf("text %q: %w", str, err))
		return
	}
	name := xmlText(str)
	fmt.Fprintf(&c.buf, "<g role=\"img\" aria-label=\"%s\" fill=\"%s\"%s><title>%s</title>",
		name, hexColor(c.top().color), opacity("fill-opacity", c.top().color), name)
	for _, g := range run {
		id, err := c.glyph(f, g.index)
		if err != nil {
			c.fail(fmt.Errorf("text %q: %w", str, err))
			return
		}
		if id != "" {
			fmt.Fprintf(&c.buf, "<use xlink:href=\"#%s\" x=\"%s\" y=\"%s\"/>", id, num((pt.X + g.x).Points()), num(pt.Y.Points()))
		}
	}
	c.buf.WriteString("</g>\n")
}

// glyphKey is a glyph of a font at a size.
type glyphKey struct {
	font  string
	size  vg.Length
	index sfnt.GlyphIndex
}

// glyph is the id of the glyph's outline in the document's <defs>, defined
// on first use; "" for a glyph with no outline (a space).
func (c *svgCanvas) glyph(f font.Face, idx sfnt.GlyphIndex) (string, error) {
	key := glyphKey{f.Name(), f.Font.Size, idx}
	if id, ok := c.glyphs[key]; ok {
		return id, nil
	}
	outline, err := glyphOutline(f, idx)
	if err != nil {
		return "", err
	}
	id := ""
	if len(outline) > 0 {
		id = fmt.Sprintf("g%d", len(c.glyphs))
		fmt.Fprintf(&c.defs, "<path id=\"%s\" d=\"%s\"/>\n", id, pathData(outline))
	}
	if c.glyphs == nil {
		c.glyphs = map[glyphKey]string{}
	}
	c.glyphs[key] = id
	return id, nil
}

// fail keeps the first text that could not be drawn, for WriteTo.
func (c *svgCanvas) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

func (c *svgCanvas) DrawImage(rect vg.Rectangle, img image.Image) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return // an image png cannot encode is left out; the figure draws none
	}
	size := rect.Size()
	fmt.Fprintf(&c.buf, "<image x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" transform=\"scale(1,-1)\" href=\"data:image/png;base64,%s\"/>\n",
		num(rect.Min.X.Points()), num(-rect.Min.Y.Points()-size.Y.Points()), num(size.X.Points()), num(size.Y.Points()),
		base64.StdEncoding.EncodeToString(b.Bytes()))
}

// WriteTo writes the document: the open groups are closed in the output
// only, so the canvas can still be drawn on.
func (c *svgCanvas) WriteTo(w io.Writer) (int64, error) {
	if c.err != nil {
		return 0, c.err
	}
	open := 1 // the flip
	for _, s := range c.stack {
		open += s.groups
	}
	var doc bytes.Buffer
	fmt.Fprintf(&doc, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"%spt\" height=\"%spt\" viewBox=\"0 0 %s %s\" role=\"img\" aria-labelledby=\"figure-title\">\n",
		num(c.w.Points()), num(c.h.Points()), num(c.w.Points()), num(c.h.Points()))
	fmt.Fprintf(&doc, "<title id=\"figure-title\">%s</title>\n", xmlText(c.title))
	if c.defs.Len() > 0 {
		doc.WriteString("<defs>\n")
		doc.Write(c.defs.Bytes())
		doc.WriteString("</defs>\n")
	}
	doc.Write(c.buf.Bytes())
	doc.WriteString(strings.Repeat("</g>\n", open))
	doc.WriteString("</svg>\n")
	return doc.WriteTo(w)
}

// pathData is a path as SVG path data. Arcs become line segments of at
// most 5 degrees: the figure draws none, and a flattened arc is exact
// enough for any glyph gonum might add.
func pathData(p vg.Path) string {
	var b strings.Builder
	pt := func(cmd string, x, y vg.Length) {
		b.WriteString(cmd + num(x.Points()) + "," + num(y.Points()))
	}
	for _, comp := range p {
		switch comp.Type {
		case vg.MoveComp:
			pt("M", comp.Pos.X, comp.Pos.Y)
		case vg.LineComp:
			pt("L", comp.Pos.X, comp.Pos.Y)
		case vg.ArcComp:
			steps := max(1, int(math.Ceil(math.Abs(comp.Angle)/(5*math.Pi/180))))
			for i := 0; i <= steps; i++ {
				a := comp.Start + comp.Angle*float64(i)/float64(steps)
				sin, cos := math.Sincos(a)
				pt("L", comp.Pos.X+comp.Radius*vg.Length(cos), comp.Pos.Y+comp.Radius*vg.Length(sin))
			}
		case vg.CurveComp:
			switch len(comp.Control) {
			case 1:
				pt("Q", comp.Control[0].X, comp.Control[0].Y)
				pt(" ", comp.Pos.X, comp.Pos.Y)
			case 2:
				pt("C", comp.Control[0].X, comp.Control[0].Y)
				pt(" ", comp.Control[1].X, comp.Control[1].Y)
				pt(" ", comp.Pos.X, comp.Pos.Y)
			default:
				pt("L", comp.Pos.X, comp.Pos.Y)
			}
		case vg.CloseComp:
			b.WriteString("Z")
		}
	}
	return b.String()
}

// xmlText is s as XML character data or an attribute value: escaped, and
// each character XML 1.0 does not allow (C0 controls but TAB, CR and LF;
// U+FFFE, U+FFFF; invalid UTF-8) replaced by U+FFFD, so no text of a run
// makes the SVG ill-formed.
func xmlText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return html.EscapeString(strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20, r == 0xFFFE, r == 0xFFFF:
			return '\uFFFD'
		}
		return r
	}, s))
}

// num writes a coordinate to 1/1000 pt, with no trailing zeros.
func num(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

func hexColor(c color.Color) string {
	r, g, b, a := c.RGBA()
	if a == 0 {
		return "#000000"
	}
	// RGBA is alpha-premultiplied; SVG's colors are not.
	un := func(v uint32) uint32 { return v * 0xffff / a >> 8 }
	return fmt.Sprintf("#%02X%02X%02X", un(r), un(g), un(b))
}

// opacity is the attribute for a translucent color, empty for an opaque
// one.
func opacity(attr string, c color.Color) string {
	_, _, _, a := c.RGBA()
	if a == 0xffff {
		return ""
	}
	return fmt.Sprintf(" %s=\"%s\"", attr, num(float64(a)/0xffff))
}
