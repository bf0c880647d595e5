package tables

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/datg/datg/study"
)

// figureGroups are the bar groups of figure 2 in order: resource groups of
// the target language, as the paper groups them.
var figureGroups = study.Strings(study.Resources...)

// figureDirections are the foreground bars of each group, with their colors.
var figureDirections = []struct {
	name  study.Direction
	color color.RGBA
}{
	{study.EnX, color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}},
	{study.XEn, color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}},
	{study.XX, color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}},
}

// paleBar is the color of the en-en reference bar behind each group.
var paleBar = color.RGBA{R: 0xdd, G: 0xdd, B: 0xdd, A: 0xff}

// accuracyFigure draws figure 2 from the accuracy_groups result: a panel per
// model (rows) and level (columns); in each, for HRL, MRL and LRL, bars of
// the mean accuracy of en-x, x-en and x-x with their 95% Wilson intervals,
// in front of a pale bar at the en-en accuracy, which no group mean includes.
// It returns the figure as SVG and PNG.
func accuracyFigure(r *result) (svg, png []byte, err error) {
	iModel, iLevel, iDir, iGroup := r.col("model"), r.col("level"), r.col("direction"), r.col("resource_group")
	iAcc, iLo, iHi := r.col("accuracy"), r.col("wilson_low"), r.col("wilson_high")
	models, labels := modelsOf(r), modelLabels(r)
	levels := easiestFirst(uniqueIn(r.Rows, iLevel))
	if len(models) == 0 || len(levels) == 0 {
		return nil, nil, fmt.Errorf("accuracy figure: no rows")
	}
	type cell struct{ acc, lo, hi float64 }
	type key struct{ model, level, dir, group string }
	cells := map[key]cell{}
	for _, row := range r.Rows {
		acc, ok1 := row[iAcc].(float64)
		lo, ok2 := row[iLo].(float64)
		hi, ok3 := row[iHi].(float64)
		if ok1 && ok2 && ok3 {
			cells[key{plain(row[iModel]), plain(row[iLevel]), plain(row[iDir]), plain(row[iGroup])}] = cell{acc, lo, hi}
		}
	}
	plots := make([][]*plot.Plot, len(models))
	for i, model := range models {
		plots[i] = make([]*plot.Plot, len(levels))
		for j, level := range levels {
			p := plot.New()
			p.Title.Text = oneLine(labels[model] + " · " + levelLabel(level))
			p.Y.Min, p.Y.Max = 0, 100
			p.Y.Label.Text = "accuracy (%)"
			p.X.Min, p.X.Max = -0.5, float64(len(figureGroups))-0.5
			p.NominalX(figureGroups...)
			var bars []bar
			for g, group := range figureGroups {
				if en, ok := cells[key{model, level, string(study.EnEn), study.English}]; ok {
					bars = append(bars, bar{x: float64(g), width: 0.9, value: en.acc, color: paleBar})
				}
				for d, dir := range figureDirections {
					if c, ok := cells[key{model, level, string(dir.name), group}]; ok {
						x := float64(g) + (float64(d)-1)*0.27
						bars = append(bars, bar{x: x, width: 0.24, value: c.acc, lo: c.lo, hi: c.hi, color: dir.color, whisker: true})
					}
				}
			}
			p.Add(barPlotter(bars))
			plots[i][j] = p
		}
	}
	width, height := vg.Length(len(levels))*3*vg.Inch, vg.Length(len(models))*2.4*vg.Inch
	tiles := draw.Tiles{Rows: len(models), Cols: len(levels), PadX: vg.Points(6), PadY: vg.Points(6),
		PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
	legendHeight := vg.Points(20)
	height += legendHeight
	render := func(c vg.CanvasSizer) {
		dc := draw.New(c)
		canvases := plot.Align(plots, tiles, draw.Crop(dc, 0, 0, 0, -legendHeight))
		for i := range plots {
			for j := range plots[i] {
				plots[i][j].Draw(canvases[i][j])
			}
		}
		drawLegend(draw.Crop(dc, 0, 0, height-legendHeight, 0))
	}
	sc := vgsvg.New(width, height)
	render(sc)
	var sb bytes.Buffer
	if _, err := sc.WriteTo(&sb); err != nil {
		return nil, nil, err
	}
	ic := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(150))
	render(ic)
	var pb bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: ic}).WriteTo(&pb); err != nil {
		return nil, nil, err
	}
	return sb.Bytes(), pb.Bytes(), nil
}

// bar is one bar in data coordinates, with an optional interval.
type bar struct {
	x, width, value float64
	lo, hi          float64
	color           color.Color
	whisker         bool
}

// barPlotter draws bars whose positions and widths are in data units, so
// that grouped bars and their error bars line up at any size.
type barPlotter []bar

func (bs barPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	line := draw.LineStyle{Color: color.Black, Width: vg.Points(0.6)}
	for _, b := range bs {
		x0, x1 := trX(b.x-b.width/2), trX(b.x+b.width/2)
		y0, y1 := trY(0), trY(b.value)
		c.FillPolygon(b.color, c.ClipPolygonY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
		if !b.whisker {
			continue
		}
		xm, cap := trX(b.x), (x1-x0)/4
		lo, hi := trY(b.lo), trY(b.hi)
		c.StrokeLines(line, []vg.Point{{X: xm, Y: lo}, {X: xm, Y: hi}},
			[]vg.Point{{X: xm - cap, Y: lo}, {X: xm + cap, Y: lo}}, []vg.Point{{X: xm - cap, Y: hi}, {X: xm + cap, Y: hi}})
	}
}

func (bs barPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), 0, 100
	for _, b := range bs {
		xmin, xmax = math.Min(xmin, b.x-b.width/2), math.Max(xmax, b.x+b.width/2)
	}
	return xmin, xmax, ymin, ymax
}

// drawLegend writes the bars' legend in one row across the top strip c.
func drawLegend(c draw.Canvas) {
	style := plot.New().Legend.TextStyle
	style.Font.Size = vg.Points(9)
	style.YAlign = -0.5 // centered on the row
	type entry struct {
		label string
		color color.Color
	}
	entries := []entry{{"en-en (reference, in no group mean)", paleBar}}
	for _, d := range figureDirections {
		entries = append(entries, entry{string(d.name) + " (95% Wilson interval)", d.color})
	}
	box := vg.Points(9)
	y := (c.Min.Y + c.Max.Y) / 2
	x := c.Min.X + vg.Points(40)
	for _, e := range entries {
		c.FillPolygon(e.color, []vg.Point{{X: x, Y: y - box/2}, {X: x + box, Y: y - box/2}, {X: x + box, Y: y + box/2}, {X: x, Y: y + box/2}})
		c.FillText(style, vg.Point{X: x + box + vg.Points(4), Y: y}, e.label)
		x += box + vg.Points(12) + style.Width(e.label)
	}
}
