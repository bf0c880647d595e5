package tables

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/datg/datg/study"
)

// figureFormats are the files a figure is written as, by extension: SVG
// for the web, PNG at figureDPI, PDF with its fonts embedded for pdflatex.
var figureFormats = []string{"pdf", "svg", "png"}

// figureGroups are the bar groups of figure 2 in order: resource groups of
// the target language, as the paper groups them.
var figureGroups = study.Strings(study.Resources...)

// figureDirections are the foreground bars of each group, with their colors
// and what they mean.
var figureDirections = []struct {
	name    study.Direction
	color   color.RGBA
	meaning string
}{
	{study.EnX, color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, "English input, reasoning in x"},
	{study.XEn, color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}, "input in x, reasoning in English"},
	{study.XX, color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, "input and reasoning in x"},
}

// paleBar is the color of the en-en reference bar behind each group, and
// paleEdge the outline of that bar at 0%.
var (
	paleBar  = color.RGBA{R: 0xdd, G: 0xdd, B: 0xdd, A: 0xff}
	paleEdge = color.RGBA{R: 0x88, G: 0x88, B: 0x88, A: 0xff}
)

// The figure's geometry: a panel per model and level; the key above the
// panels, the x title and the notes below them. Three panels across are
// 6.9 in, about the text width the paper's figure* spans, so its type
// prints near these sizes.
var (
	panelWidth  = 2.3 * vg.Inch
	panelHeight = 1.85 * vg.Inch
	titleFont   = vg.Points(10)
	axisFont    = vg.Points(10)
	tickFont    = vg.Points(9)
	keyFont     = vg.Points(9)
	noteFont    = vg.Points(8)
	figureInset = vg.Points(6)
)

// figureTitle is the figure's accessible name (the SVG's <title>); its
// caption is the paper's.
const figureTitle = "Final-answer accuracy by resource group of the target language, per model and level"

// yTitle and xTitle are the axes' titles: the y title once per row, on
// its first panel; the x title once, under the bottom row.
const (
	yTitle = "accuracy (%)"
	xTitle = "resource group of the target language x"
)

// figureText sets every text of the figure: gonum's plain handler, in
// plot.DefaultFont (Liberation Serif, compiled in) in every format.
var figureText = text.Plain{Fonts: font.DefaultCache}

// accuracyFigure draws figure 2 from the accuracy_groups result: a panel per
// model (rows) and level (columns); in each, for HRL, MRL and LRL, bars of
// the mean accuracy of en-x, x-en and x-x with their 95% Wilson intervals,
// in front of a pale bar at the en-en accuracy, which no group mean includes.
// A bar at 0% is an outlined stub on the axis, and a panel with no rows
// says "no data". The key above the panels names the bars; the notes below
// define the directions and the resource groups. It returns the figure in
// every one of figureFormats.
func accuracyFigure(r *result) (map[string][]byte, error) {
	iModel, iLevel, iDir, iGroup := r.col("model"), r.col("level"), r.col("direction"), r.col("resource_group")
	iAcc, iLo, iHi := r.col("accuracy"), r.col("wilson_low"), r.col("wilson_high")
	models, labels := modelsOf(r), modelLabels(r)
	levels := easiestFirst(uniqueIn(r.Rows, iLevel))
	if len(models) == 0 || len(levels) == 0 {
		return nil, fmt.Errorf("accuracy figure: no rows")
	}
	type cell struct{ acc, lo, hi float64 }
	type key struct{ model, level, dir, group string }
	cells := map[key]cell{}
	for _, row := range r.Rows {
		acc, ok1 := number(row[iAcc])
		lo, ok2 := number(row[iLo])
		hi, ok3 := number(row[iHi])
		if ok1 && ok2 && ok3 {
			cells[key{plain(row[iModel]), plain(row[iLevel]), plain(row[iDir]), plain(row[iGroup])}] = cell{acc, lo, hi}
		}
	}
	plots := make([][]*plot.Plot, len(models))
	for i, model := range models {
		plots[i] = make([]*plot.Plot, len(levels))
		for j, level := range levels {
			var bars []bar
			for g, group := range figureGroups {
				if en, ok := cells[key{model, level, string(study.EnEn), study.English}]; ok {
					bars = append(bars, bar{x: float64(g), width: 0.9, value: en.acc, color: paleBar, edge: paleEdge})
				}
				for d, dir := range figureDirections {
					if c, ok := cells[key{model, level, string(dir.name), group}]; ok {
						x := float64(g) + (float64(d)-1)*0.27
						bars = append(bars, bar{x: x, width: 0.24, value: c.acc, lo: c.lo, hi: c.hi, color: dir.color, edge: dir.color, whisker: true})
					}
				}
			}
			plots[i][j] = panel(oneLine(labels[model]+" · "+levelLabel(level)), bars, j == 0)
		}
	}
	f := figureLayout{plots: plots}
	f.width = vg.Length(len(levels)) * panelWidth
	f.key = keyRows(figureKey(), f.width-2*figureInset)
	f.notes = noteLines(figureNotes(), f.width-2*figureInset)
	f.height = f.keyHeight() + vg.Length(len(models))*panelHeight + f.xTitleHeight() + f.notesHeight()
	return f.render()
}

// number is a numeric cell as a float64.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case int:
		return float64(n), true
	}
	return 0, false
}

// panel is one model and level: its bars, or "no data"; the y title on
// the first panel of a row only.
func panel(title string, bars []bar, firstColumn bool) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = titleFont
	p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = tickFont, tickFont
	p.Y.Min, p.Y.Max = 0, 100
	if firstColumn {
		p.Y.Label.Text = yTitle
		p.Y.Label.TextStyle.Font.Size = axisFont
	}
	p.X.Min, p.X.Max = -0.5, float64(len(figureGroups))-0.5
	p.NominalX(figureGroups...)
	if len(bars) == 0 {
		p.Add(noData{})
	} else {
		p.Add(barPlotter(bars))
	}
	return p
}

// figureLayout is the laid-out figure: from the top, the key, the panels,
// the x title and the notes.
type figureLayout struct {
	plots         [][]*plot.Plot
	key           [][]keyEntry
	notes         []string
	width, height vg.Length
}

func (f figureLayout) keyHeight() vg.Length {
	return vg.Length(len(f.key))*keyFont*1.7 + figureInset
}

func (f figureLayout) xTitleHeight() vg.Length {
	return axisFont * 1.6
}

func (f figureLayout) notesHeight() vg.Length {
	return vg.Length(len(f.notes))*noteFont*1.45 + figureInset
}

// draw draws the figure on c.
func (f figureLayout) draw(c draw.Canvas) {
	below := f.xTitleHeight() + f.notesHeight()
	tiles := draw.Tiles{Rows: len(f.plots), Cols: len(f.plots[0]), PadX: vg.Points(6), PadY: vg.Points(8),
		PadTop: vg.Points(4), PadLeft: figureInset, PadRight: figureInset}
	panels := plot.Align(f.plots, tiles, draw.Crop(c, 0, 0, below, -f.keyHeight()))
	for i := range f.plots {
		for j := range f.plots[i] {
			f.plots[i][j].Draw(panels[i][j])
		}
	}
	drawKey(draw.Crop(c, figureInset, -figureInset, f.height-f.keyHeight(), 0), f.key)
	// The x title is centered under the panels' data areas, from the first
	// column's y axis to the last column's right edge.
	bottom := panels[len(panels)-1]
	x0 := f.plots[0][0].DataCanvas(bottom[0]).Min.X
	x1 := bottom[len(bottom)-1].Max.X
	sty := text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, axisFont),
		XAlign: draw.XCenter, YAlign: draw.YTop, Handler: figureText}
	c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: c.Min.Y + below - vg.Points(2)}, xTitle)
	drawNotes(draw.Crop(c, figureInset, -figureInset, 0, -(f.height-f.notesHeight())), f.notes)
}

// render draws the figure in each of figureFormats.
func (f figureLayout) render() (map[string][]byte, error) {
	out := map[string][]byte{}
	svg := newSVGCanvas(f.width, f.height, figureTitle)
	f.draw(draw.New(svg))
	var b bytes.Buffer
	if _, err := svg.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("accuracy figure: svg: %w", err)
	}
	out["svg"] = b.Bytes()

	img := vgimg.NewWith(vgimg.UseWH(f.width, f.height), vgimg.UseDPI(figureDPI))
	f.draw(draw.New(img))
	png, err := pngAtDPI(img.Image(), figureDPI)
	if err != nil {
		return nil, fmt.Errorf("accuracy figure: png: %w", err)
	}
	out["png"] = png

	pdf, err := renderPDF(f.width, f.height, f.draw)
	if err != nil {
		return nil, fmt.Errorf("accuracy figure: pdf: %w", err)
	}
	out["pdf"] = pdf
	return out, nil
}

// keyEntry is one item of the key: a sample of what it names, then its
// label.
type keyEntry struct {
	label  string
	sample func(c draw.Canvas, box vg.Rectangle)
}

// figureKey names the bars, the whiskers and the 0% stub.
func figureKey() []keyEntry {
	swatch := func(col color.Color) func(draw.Canvas, vg.Rectangle) {
		return func(c draw.Canvas, box vg.Rectangle) {
			c.FillPolygon(col, []vg.Point{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}})
		}
	}
	entries := []keyEntry{{"en-en (reference)", swatch(paleBar)}}
	for _, d := range figureDirections {
		entries = append(entries, keyEntry{string(d.name), swatch(d.color)})
	}
	return append(entries,
		keyEntry{"95% Wilson interval", func(c draw.Canvas, box vg.Rectangle) {
			whisker(c, (box.Min.X+box.Max.X)/2, box.Size().X/4, box.Min.Y, box.Max.Y)
		}},
		keyEntry{"bar at 0%", func(c draw.Canvas, box vg.Rectangle) {
			zeroStub(c, color.Black, box.Min.X, box.Max.X, (box.Min.Y+box.Max.Y)/2-zeroStubHeight/2)
		}},
	)
}

// figureNotes define what the key and the axes abbreviate: the directions,
// the resource groups with the study's languages in each, as the paper
// defines them (en is high-resource, but en-en is a bar of its own), and
// what a bar is.
func figureNotes() []string {
	dirs := []string{"en-en: English input and reasoning, in no group mean"}
	for _, d := range figureDirections {
		dirs = append(dirs, string(d.name)+": "+d.meaning)
	}
	groups := map[study.Resource][]string{}
	for _, l := range study.Languages() {
		if l.Code != study.English {
			groups[l.Resource] = append(groups[l.Resource], l.Code)
		}
	}
	names := map[study.Resource]string{study.HRL: "high", study.MRL: "medium", study.LRL: "low"}
	var defs []string
	for _, g := range study.Resources {
		defs = append(defs, fmt.Sprintf("%s: %s-resource languages (%s)", g, names[g], strings.Join(groups[g], ", ")))
	}
	return []string{
		"x: the target language. " + strings.Join(dirs, "; ") + ".",
		"Resource groups of x: " + strings.Join(defs, "; ") + ".",
		"A bar is the mean of the accuracies of its group's languages in the run; its whisker the 95% Wilson interval of their pooled counts.",
	}
}

func keyStyle() text.Style {
	return text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, keyFont), YAlign: draw.YCenter, Handler: figureText}
}

func noteStyle() text.Style {
	return text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, noteFont), YAlign: draw.YTop, Handler: figureText}
}

// keySample, keyGap and keySpacing are the sample's size, the space between
// a sample and its label, and the space before the next entry.
var (
	keySample  = vg.Points(9)
	keyGap     = vg.Points(4)
	keySpacing = vg.Points(14)
)

// keyEntryWidth is the room an entry takes, its spacing included. Every
// format draws the label in the font it is measured in (the SVG as
// outlines), so no slack for another font is needed.
func keyEntryWidth(e keyEntry) vg.Length {
	return keySample + keyGap + keyStyle().Width(e.label) + keySpacing
}

// keyRows flows the entries into rows no wider than width.
func keyRows(entries []keyEntry, width vg.Length) [][]keyEntry {
	var rows [][]keyEntry
	var used vg.Length
	for _, e := range entries {
		w := keyEntryWidth(e)
		if len(rows) == 0 || used+w-keySpacing > width && used > 0 {
			rows = append(rows, nil)
			used = 0
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], e)
		used += w
	}
	return rows
}

// drawKey draws the key's rows in c, each centered.
func drawKey(c draw.Canvas, rows [][]keyEntry) {
	sty := keyStyle()
	rowHeight := keyFont * 1.7
	for i, row := range rows {
		var total vg.Length
		for _, e := range row {
			total += keyEntryWidth(e)
		}
		total -= keySpacing
		x := (c.Min.X+c.Max.X)/2 - total/2
		y := c.Max.Y - figureInset/2 - rowHeight*vg.Length(i) - rowHeight/2
		for _, e := range row {
			box := vg.Rectangle{Min: vg.Point{X: x, Y: y - keySample/2}, Max: vg.Point{X: x + keySample, Y: y + keySample/2}}
			e.sample(c, box)
			c.FillText(sty, vg.Point{X: x + keySample + keyGap, Y: y}, e.label)
			x += keyEntryWidth(e)
		}
	}
}

// noteLines breaks the notes at "; " into lines no wider than width.
func noteLines(notes []string, width vg.Length) []string {
	sty := noteStyle()
	fits := func(s string) bool { return sty.Width(s) <= width }
	var lines []string
	for _, note := range notes {
		parts := strings.SplitAfter(note, "; ")
		line := ""
		for _, p := range parts {
			if line != "" && !fits(strings.TrimSpace(line+p)) {
				lines = append(lines, strings.TrimSpace(line))
				line = ""
			}
			line += p
		}
		lines = append(lines, strings.TrimSpace(line))
	}
	return lines
}

// drawNotes draws the notes' lines from the top of c, flush left.
func drawNotes(c draw.Canvas, lines []string) {
	sty := noteStyle()
	for i, line := range lines {
		c.FillText(sty, vg.Point{X: c.Min.X, Y: c.Max.Y - noteFont*1.45*vg.Length(i)}, line)
	}
}
