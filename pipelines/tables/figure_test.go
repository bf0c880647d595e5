package tables

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// figureRow is one row of accuracy_groups: a bar of the figure, its Wilson
// interval half its accuracy either side.
type figureRow struct {
	model, level, dir, group string
	acc                      float64
}

// figureRows is accuracy_groups with rows; a model is "Qwen/Qwen3-<model>".
func figureRows(rows ...figureRow) *result {
	r := &result{Columns: []string{"model", "model_label", "level", "direction", "resource_group", "languages", "n", "correct", "accuracy", "wilson_low", "wilson_high"}}
	for _, f := range rows {
		r.Rows = append(r.Rows, []any{"Qwen/Qwen3-" + f.model, f.model, f.level, f.dir, f.group, int64(1), int64(10), int64(f.acc / 10), f.acc, f.acc / 2, (f.acc + 100) / 2})
	}
	return r
}

// figureResult is accuracy_groups for two models and two levels; 8B has no
// x-x bars at medium and no LRL bars at all.
func figureResult() *result {
	var rows []figureRow
	for _, model := range []string{"4B", "8B"} {
		for _, level := range []string{"medium", "low"} {
			rows = append(rows, figureRow{model, level, "en-en", "en", 90})
			for _, dir := range []string{"en-x", "x-en", "x-x"} {
				for _, g := range []string{"HRL", "MRL", "LRL"} {
					if model == "8B" && (g == "LRL" || dir == "x-x" && level == "medium") {
						continue
					}
					rows = append(rows, figureRow{model, level, dir, g, 50})
				}
			}
		}
	}
	return figureRows(rows...)
}

// drawFigure draws r in every format.
func drawFigure(t *testing.T, r *result) map[string][]byte {
	t.Helper()
	out, err := accuracyFigure(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range figureFormats {
		if len(out[ext]) == 0 {
			t.Fatalf("no %s", ext)
		}
	}
	return out
}

// svgNode is an element of an SVG: its attributes, its <title> child's
// text, its own text (of a <text>), and whether a rotation applies to it;
// for a text drawn as glyph outlines, the <use> of each glyph and the box
// of their outlines.
type svgNode struct {
	name    string
	attr    map[string]string
	title   string
	content string
	rotated bool
	uses    []*svgNode
	box     *vg.Rectangle
}

// label is what a text of the SVG says: a group's accessible name, or a
// <text>'s content.
func (n *svgNode) label() string {
	if n.name == "text" {
		return strings.TrimSpace(n.content)
	}
	return n.attr["aria-label"]
}

// parseSVG checks that svg is well-formed XML and returns its elements in
// document order.
func parseSVG(t *testing.T, svg []byte) []*svgNode {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var nodes, stack []*svgNode
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			glyphBoxes(t, nodes)
			return nodes
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &svgNode{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			n.rotated = strings.Contains(n.attr["transform"], "rotate")
			if len(stack) > 0 && stack[len(stack)-1].rotated {
				n.rotated = true
			}
			if n.name == "use" && len(stack) > 0 {
				stack[len(stack)-1].uses = append(stack[len(stack)-1].uses, n)
			}
			nodes, stack = append(nodes, n), append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			switch {
			case len(stack) > 1 && stack[len(stack)-1].name == "title":
				stack[len(stack)-2].title += string(tok)
			case len(stack) > 0 && stack[len(stack)-1].name == "text":
				stack[len(stack)-1].content += string(tok)
			}
		}
	}
}

// glyphBoxes sets the box of each text drawn as glyph outlines: the
// outlines defined in the SVG's <defs>, at each <use>'s x and y.
func glyphBoxes(t *testing.T, nodes []*svgNode) {
	t.Helper()
	defs := map[string]vg.Rectangle{}
	for _, n := range nodes {
		if id := n.attr["id"]; id != "" && n.name == "path" {
			defs["#"+id] = pathBox(t, n.attr["d"])
		}
	}
	for _, n := range nodes {
		for _, u := range n.uses {
			g, ok := defs[u.attr["href"]]
			if !ok {
				t.Fatalf("a <use> of %q, which the SVG does not define", u.attr["href"])
			}
			x, err1 := strconv.ParseFloat(u.attr["x"], 64)
			y, err2 := strconv.ParseFloat(u.attr["y"], 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("a <use> at %q, %q", u.attr["x"], u.attr["y"])
			}
			at := vg.Point{X: vg.Length(x), Y: vg.Length(y)}
			g = vg.Rectangle{Min: g.Min.Add(at), Max: g.Max.Add(at)}
			if n.box == nil {
				n.box = &g
				continue
			}
			n.box.Min.X, n.box.Min.Y = min(n.box.Min.X, g.Min.X), min(n.box.Min.Y, g.Min.Y)
			n.box.Max.X, n.box.Max.Y = max(n.box.Max.X, g.Max.X), max(n.box.Max.Y, g.Max.Y)
		}
	}
}

// textBox is the box of a text's glyph outlines.
func textBox(t *testing.T, n *svgNode) vg.Rectangle {
	t.Helper()
	if n.box == nil {
		t.Fatalf("text %q is no glyph outlines", n.label())
	}
	return *n.box
}

// svgTexts checks that an SVG is well-formed XML and returns its texts.
func svgTexts(t *testing.T, svg []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var texts []string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return texts
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok && strings.TrimSpace(string(cd)) != "" {
			texts = append(texts, strings.TrimSpace(string(cd)))
		}
	}
}

// svgTextNodes are the SVG's texts: groups named by an aria-label, and
// any <text>.
func svgTextNodes(nodes []*svgNode) []*svgNode {
	var texts []*svgNode
	for _, n := range nodes {
		if _, ok := n.attr["aria-label"]; ok && n.name == "g" || n.name == "text" {
			texts = append(texts, n)
		}
	}
	return texts
}

// countLabel is how many texts of the SVG are label.
func countLabel(nodes []*svgNode, label string) int {
	n := 0
	for _, t := range svgTextNodes(nodes) {
		if t.label() == label {
			n++
		}
	}
	return n
}

var coordPair = regexp.MustCompile(`(-?[0-9.]+),(-?[0-9.]+)`)

// pathBox is the bounding box of a path's points, control points included.
func pathBox(t *testing.T, d string) vg.Rectangle {
	t.Helper()
	box := vg.Rectangle{Min: vg.Point{X: vg.Length(math.Inf(1)), Y: vg.Length(math.Inf(1))}, Max: vg.Point{X: vg.Length(math.Inf(-1)), Y: vg.Length(math.Inf(-1))}}
	pairs := coordPair.FindAllStringSubmatch(d, -1)
	if len(pairs) == 0 {
		t.Fatalf("a path with no points: %q", d)
	}
	for _, m := range pairs {
		x, err1 := strconv.ParseFloat(m[1], 64)
		y, err2 := strconv.ParseFloat(m[2], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("path point %q", m[0])
		}
		box.Min.X, box.Max.X = min(box.Min.X, vg.Length(x)), max(box.Max.X, vg.Length(x))
		box.Min.Y, box.Max.Y = min(box.Min.Y, vg.Length(y)), max(box.Max.Y, vg.Length(y))
	}
	return box
}

// The figure is the paper's grid, models in rows and levels in columns,
// easiest first; each bar is drawn once, each foreground bar with its
// Wilson whisker.
func TestAccuracyFigure(t *testing.T) {
	r := figureResult()
	svg := drawFigure(t, r)["svg"]
	nodes := parseSVG(t, svg)
	titles := []string{"4B · " + levelLabel("low"), "4B · " + levelLabel("medium"), "8B · " + levelLabel("low"), "8B · " + levelLabel("medium")}
	centers := map[string]vg.Point{}
	for _, n := range svgTextNodes(nodes) {
		if slices.Contains(titles, n.attr["aria-label"]) {
			b := textBox(t, n)
			centers[n.attr["aria-label"]] = vg.Point{X: (b.Min.X + b.Max.X) / 2, Y: (b.Min.Y + b.Max.Y) / 2}
		}
	}
	if len(centers) != len(titles) {
		t.Fatalf("panel titles %v, want %q", centers, titles)
	}
	// y grows upwards in the SVG's flipped group.
	if a, b := centers[titles[0]], centers[titles[1]]; a.X >= b.X || math.Abs(float64(a.Y-b.Y)) > 3 {
		t.Errorf("levels out of order: %v left of %v", b, a)
	}
	if a, b := centers[titles[0]], centers[titles[2]]; a.Y <= b.Y || math.Abs(float64(a.X-b.X)) > 1 {
		t.Errorf("models out of order: %v above %v", b, a)
	}
	// One filled bar per row (en-en once per group of its panel), plus the
	// key's swatch.
	fills := map[string]int{}
	whiskerLines := 0
	for _, n := range nodes {
		if n.name == "path" && n.attr["aria-label"] == "" {
			fills[n.attr["fill"]]++
			if n.attr["stroke"] == "#000000" && n.attr["stroke-width"] == "0.6" {
				whiskerLines++ // the interval, then its caps
			}
		}
	}
	byDir := map[string]int{}
	for _, row := range r.Rows {
		byDir[row[3].(string)]++
	}
	if got := fills["#1F77B4"]; got != byDir["en-x"]+1 {
		t.Errorf("%d en-x bars, want %d and the key's", got-1, byDir["en-x"])
	}
	if got := fills["#DDDDDD"]; got != 3*byDir["en-en"]+1 {
		t.Errorf("%d pale bars, want %d and the key's", got-1, 3*byDir["en-en"])
	}
	if want := len(r.Rows) - byDir["en-en"] + 1; whiskerLines != 3*want {
		t.Errorf("%d whisker lines, want 3 for each foreground bar and the key's: %d", whiskerLines, 3*want)
	}
}

// The SVG's texts are the outlines of their glyphs, so a viewer sets none
// of them in a font of its own (issue 21: in a serif other than Liberation
// the key's labels ran into the next swatch): no <text>, no font named.
// Each carries its words as its accessible name, and its outline spans the
// width the layout measured for it in Liberation Serif.
func TestFigureSVGTextsAreOutlines(t *testing.T) {
	svg := drawFigure(t, figureResult())["svg"]
	if bytes.Contains(svg, []byte("<text")) || bytes.Contains(svg, []byte("font-family")) {
		t.Error("the SVG has text for a viewer to set in its own font")
	}
	nodes := parseSVG(t, svg)
	if nodes[0].name != "svg" || nodes[0].attr["role"] != "img" || nodes[1].name != "title" || nodes[0].title != figureTitle {
		t.Errorf("the SVG names itself %q (role %q), want a <title> %q", nodes[0].title, nodes[0].attr["role"], figureTitle)
	}
	texts := svgTextNodes(nodes)
	if len(texts) < 40 {
		t.Fatalf("%d texts", len(texts))
	}
	for _, n := range texts {
		if n.title != n.attr["aria-label"] || n.attr["role"] != "img" {
			t.Errorf("text %q: title %q, role %q", n.attr["aria-label"], n.title, n.attr["role"])
		}
	}
	sty := text.Style{Font: font.From(plot.DefaultFont, axisFont), Handler: figureText}
	want := sty.Width(xTitle)
	for _, n := range texts {
		if n.attr["aria-label"] != xTitle {
			continue
		}
		b := textBox(t, n)
		// The ink spans the advances less the side bearings at either end.
		if w := b.Max.X - b.Min.X; w < 0.95*want || w > want {
			t.Errorf("the x title's outline is %.2f pt wide, its text %.2f pt", w, want)
		}
		if h := b.Max.Y - b.Min.Y; h < 0.6*axisFont || h > 1.2*axisFont {
			t.Errorf("the x title's outline is %.2f pt high at %v", h, axisFont)
		}
	}
}

// No two texts of the figure overlap (the rotated y titles aside): the
// key, the titles, the tick labels, the axis titles and the notes.
func TestFigureTextsDoNotCollide(t *testing.T) {
	for name, r := range map[string]*result{"2x2": figureResult(), "3x3": paperGridResult(nil)} {
		nodes := parseSVG(t, drawFigure(t, r)["svg"])
		var boxes []vg.Rectangle
		var labels []string
		for _, n := range svgTextNodes(nodes) {
			if !n.rotated {
				boxes, labels = append(boxes, textBox(t, n)), append(labels, n.attr["aria-label"])
			}
		}
		for i := range boxes {
			for j := i + 1; j < len(boxes); j++ {
				a, b := boxes[i], boxes[j]
				if a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y {
					t.Errorf("%s: %q %v overlaps %q %v", name, labels[i], a, labels[j], b)
				}
			}
		}
	}
}

// paperGridResult is the paper's design: three models by three levels,
// every direction and group, at acc(model, level, dir, group) or 40.
func paperGridResult(acc func(model, level, dir, group string) (float64, bool)) *result {
	var rows []figureRow
	for _, model := range []string{"1.7B", "4B", "8B"} {
		for _, level := range []string{"low", "medium", "high"} {
			for _, dg := range [][2]string{{"en-en", "en"}, {"en-x", "HRL"}, {"en-x", "MRL"}, {"en-x", "LRL"}, {"x-en", "HRL"}, {"x-en", "MRL"}, {"x-en", "LRL"}, {"x-x", "HRL"}, {"x-x", "MRL"}, {"x-x", "LRL"}} {
				a, ok := 40.0, true
				if acc != nil {
					a, ok = acc(model, level, dg[0], dg[1])
				}
				if ok {
					rows = append(rows, figureRow{model, level, dg[0], dg[1], a})
				}
			}
		}
	}
	return figureRows(rows...)
}

// The y title once per row of panels, not on every panel; the x title once,
// under the panels.
func TestFigureAxisTitles(t *testing.T) {
	nodes := parseSVG(t, drawFigure(t, paperGridResult(nil))["svg"])
	if n := countLabel(nodes, yTitle); n != 3 {
		t.Errorf("%d y titles %q in a grid of 3 rows", n, yTitle)
	}
	if n := countLabel(nodes, xTitle); n != 1 {
		t.Errorf("%d x titles %q", n, xTitle)
	}
}

// The key names every bar, the whisker and the 0% stub, and the notes
// define the resource groups as the paper does (its section 3.1: HRL en,
// fr, zh, ja, ru, ko; MRL id, ms, th, bn; LRL sw, te; en-en is a bar of
// its own) and the directions.
func TestFigureDefinesItsKeyAndGroups(t *testing.T) {
	texts := svgTexts(t, drawFigure(t, figureResult())["svg"])
	for _, label := range []string{"en-en (reference)", "en-x", "x-en", "x-x", "95% Wilson interval", "bar at 0%"} {
		if !slices.Contains(texts, label) {
			t.Errorf("no key entry %q in %q", label, texts)
		}
	}
	notes := strings.Join(texts, " ")
	paper := map[string][]string{"high": {"fr", "zh", "ja", "ru", "ko"}, "medium": {"id", "ms", "th", "bn"}, "low": {"sw", "te"}}
	groups := regexp.MustCompile(`([HML]RL): (high|medium|low)-resource languages \(([^)]*)\)`).FindAllStringSubmatch(notes, -1)
	if len(groups) != 3 {
		t.Fatalf("resource groups defined %q in %q", groups, notes)
	}
	for _, g := range groups {
		if g[1][:1] != strings.ToUpper(g[2][:1]) {
			t.Errorf("%s defined as %s-resource", g[1], g[2])
		}
		langs := strings.Split(g[3], ", ")
		if !sameElements(langs, paper[g[2]]) {
			t.Errorf("%s: %q, the paper's %q", g[1], langs, paper[g[2]])
		}
	}
	for _, def := range []string{"en-x: English input, reasoning in x", "x-en: input in x, reasoning in English", "x-x: input and reasoning in x", "x: the target language"} {
		if !strings.Contains(notes, def) {
			t.Errorf("the notes do not say %q: %s", def, notes)
		}
	}
}

// A bar at 0% shows: an outlined stub in its color on the axis, where a
// bar of no height would draw nothing.
func TestFigureZeroBarIsVisible(t *testing.T) {
	rows := []figureRow{{"8B", "low", "en-en", "en", 90}, {"8B", "low", "x-en", "HRL", 60}}
	without := drawFigure(t, figureRows(rows...))["png"]
	with := drawFigure(t, figureRows(append(rows, figureRow{"8B", "low", "en-x", "LRL", 0})...))["png"]
	blue := [3]uint8{0x1f, 0x77, 0xb4}
	a, b := pixelsOf(t, without, blue), pixelsOf(t, with, blue)
	// A stub 0.15 in wide and 2.5 pt high outlined 0.9 pt wide: its
	// outline alone is some 200 pixels of the color at 300 dpi.
	if b-a < 100 {
		t.Errorf("a 0%% bar adds %d pixels of its color (%d with, %d without)", b-a, b, a)
	}
}

// pixelsOf is how many pixels of the PNG have color rgb.
func pixelsOf(t *testing.T, data []byte, rgb [3]uint8) int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == rgb[0] && uint8(g>>8) == rgb[1] && uint8(bl>>8) == rgb[2] {
				n++
			}
		}
	}
	return n
}

// A panel with no rows says "no data" (a model of the run at a level it
// has no traces of), inside that panel; panels with data do not.
func TestFigureEmptyPanelSaysNoData(t *testing.T) {
	full := parseSVG(t, drawFigure(t, paperGridResult(nil))["svg"])
	if n := countLabel(full, noDataText); n != 0 {
		t.Errorf("%d panels say %q in a full grid", n, noDataText)
	}
	r := paperGridResult(func(model, level, _, _ string) (float64, bool) { return 40, model != "8B" || level != "high" })
	nodes := parseSVG(t, drawFigure(t, r)["svg"])
	if n := countLabel(nodes, noDataText); n != 1 {
		t.Fatalf("%d panels say %q, want the one of 8B at high", n, noDataText)
	}
	var title, empty vg.Rectangle
	for _, n := range svgTextNodes(nodes) {
		switch n.attr["aria-label"] {
		case "8B · " + levelLabel("high"):
			title = textBox(t, n)
		case noDataText:
			empty = textBox(t, n)
		}
	}
	// Centered under the panel's title, below it.
	if mid := (empty.Min.X + empty.Max.X) / 2; mid < title.Min.X || mid > title.Max.X || empty.Max.Y >= title.Min.Y {
		t.Errorf("%q at %v, not under the empty panel's title at %v", noDataText, empty, title)
	}
}

// The PNG is at 300 dpi: the figure's size in inches times 300 in pixels,
// and a pHYs chunk that says so (11811 pixels per metre), so that LaTeX
// and viewers size it as the PDF.
func TestFigurePNGAt300DPI(t *testing.T) {
	out := drawFigure(t, figureResult())
	w, h := svgSizePt(t, out["svg"])
	img, err := png.DecodeConfig(bytes.NewReader(out["png"]))
	if err != nil {
		t.Fatal(err)
	}
	if wantW, wantH := int(math.Round(w/72*300)), int(math.Round(h/72*300)); abs(img.Width-wantW) > 1 || abs(img.Height-wantH) > 1 {
		t.Errorf("PNG of %dx%d px for %.1fx%.1f pt, want %dx%d", img.Width, img.Height, w, h, wantW, wantH)
	}
	phys, ok := pngChunk(t, out["png"], "pHYs")
	if !ok || len(phys) != 9 {
		t.Fatalf("no pHYs chunk: %q", phys)
	}
	x, y, unit := beUint32(phys[0:4]), beUint32(phys[4:8]), phys[8]
	if x != 11811 || y != 11811 || unit != 1 {
		t.Errorf("pHYs %d x %d per unit %d, want 11811 per metre (300 dpi)", x, y, unit)
	}
}

func abs(n int) int { return max(n, -n) }

func beUint32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

// pngChunk is the data of the first chunk of kind in a PNG.
func pngChunk(t *testing.T, data []byte, kind string) ([]byte, bool) {
	t.Helper()
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatal("not a PNG")
	}
	for at := 8; at+12 <= len(data); {
		n := int(beUint32(data[at:]))
		if at+12+n > len(data) {
			t.Fatalf("a chunk of %d bytes past the end", n)
		}
		if string(data[at+4:at+8]) == kind {
			return data[at+8 : at+8+n], true
		}
		at += 12 + n
	}
	return nil, false
}

// svgSizePt is the SVG's width and height in points.
func svgSizePt(t *testing.T, svg []byte) (w, h float64) {
	t.Helper()
	root := parseSVG(t, svg)[0]
	w, err1 := strconv.ParseFloat(strings.TrimSuffix(root.attr["width"], "pt"), 64)
	h, err2 := strconv.ParseFloat(strings.TrimSuffix(root.attr["height"], "pt"), 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("SVG size %q x %q", root.attr["width"], root.attr["height"])
	}
	return w, h
}

// The PDF is the figure at the SVG's size, and every font it uses is
// embedded: each font dictionary has a descriptor with a font file. Where
// poppler's pdffonts is installed (CI: DATG_REQUIRE_PDFFONTS or
// DATG_REQUIRE_PDFLATEX), every font it lists says "emb yes".
func TestFigurePDFEmbedsItsFonts(t *testing.T) {
	out := drawFigure(t, figureResult())
	pdf := out["pdf"]
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", pdf[:min(len(pdf), 16)])
	}
	w, h := svgSizePt(t, out["svg"])
	box := regexp.MustCompile(`/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]`).FindSubmatch(pdf)
	if box == nil {
		t.Fatal("no MediaBox")
	}
	if bw, _ := strconv.ParseFloat(string(box[1]), 64); math.Abs(bw-w) > 0.01 {
		t.Errorf("PDF %s pt wide, SVG %.2f", box[1], w)
	}
	if bh, _ := strconv.ParseFloat(string(box[2]), 64); math.Abs(bh-h) > 0.01 {
		t.Errorf("PDF %s pt high, SVG %.2f", box[2], h)
	}
	fonts := len(regexp.MustCompile(`/Type\s*/Font\b[^D]`).FindAll(pdf, -1))
	files := len(regexp.MustCompile(`/FontFile[23]?\s+\d+ 0 R`).FindAll(pdf, -1))
	if fonts == 0 || files != fonts {
		t.Errorf("%d fonts, %d font files embedded", fonts, files)
	}

	pdffonts := requiredTool(t, "pdffonts", "DATG_REQUIRE_PDFFONTS", "DATG_REQUIRE_PDFLATEX")
	path := filepath.Join(t.TempDir(), "figure.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	listed, err := runTool(t, pdffonts, path)
	if err != nil {
		t.Fatalf("pdffonts: %v\n%s", err, listed)
	}
	rows := pdffontsRows(t, listed)
	if len(rows) == 0 {
		t.Fatalf("pdffonts lists no font:\n%s", listed)
	}
	for _, row := range rows {
		if row["emb"] != "yes" {
			t.Errorf("font %q not embedded:\n%s", row["name"], listed)
		}
	}
}

// pdffontsRows parses pdffonts' table: columns as wide as the dashes under
// the header.
func pdffontsRows(t *testing.T, out string) []map[string]string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[1], "---") {
		t.Fatalf("pdffonts printed no table:\n%s", out)
	}
	type span struct{ from, to int }
	var cols []span
	for _, m := range regexp.MustCompile(`-+`).FindAllStringIndex(lines[1], -1) {
		cols = append(cols, span{m[0], m[1]})
	}
	field := func(line string, c span) string {
		if c.from >= len(line) {
			return ""
		}
		return strings.TrimSpace(line[c.from:min(c.to, len(line))])
	}
	var names []string
	for _, c := range cols {
		names = append(names, field(lines[0], c))
	}
	var rows []map[string]string
	for _, line := range lines[2:] {
		row := map[string]string{}
		for i, c := range cols {
			row[names[i]] = field(line, c)
		}
		rows = append(rows, row)
	}
	return rows
}

// datg tables writes the figure beside accuracy_groups' tables, in every
// format; a model name is data, escaped in the SVG ("org/my_model&v2").
func TestTablesWriteTheFigure(t *testing.T) {
	dir := writeRun(t, true)
	if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".pdf", ".svg", ".png"} {
		if st, err := os.Stat(filepath.Join(dir, "tables", "accuracy_groups"+ext)); err != nil || st.Size() == 0 {
			t.Fatalf("accuracy_groups%s: %v", ext, err)
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "tables", "accuracy_groups.svg"))
	if texts := strings.Join(svgTexts(t, svg), "|"); !strings.Contains(texts, "org/my_model&v2") {
		t.Fatalf("the model's name is not in the figure: %s", texts)
	}
}

// The same numbers draw the same bytes in every format, so a rerun leaves
// the paper's figure unchanged (the PDF records no date of its own).
func TestFigureIsReproducible(t *testing.T) {
	a, b := drawFigure(t, figureResult()), drawFigure(t, figureResult())
	for _, ext := range figureFormats {
		if !bytes.Equal(a[ext], b[ext]) {
			t.Errorf("%s differs between two draws", ext)
		}
	}
}

// BenchmarkAccuracyFigure draws the paper's 3x3 grid in every format.
func BenchmarkAccuracyFigure(b *testing.B) {
	r := paperGridResult(nil)
	for b.Loop() {
		if _, err := accuracyFigure(r); err != nil {
			b.Fatal(err)
		}
	}
}
