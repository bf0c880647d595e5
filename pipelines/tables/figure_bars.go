package tables

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// bar is one bar in data coordinates, with an optional interval.
type bar struct {
	x, width, value float64
	lo, hi          float64
	color           color.Color
	edge            color.Color // the outline of the bar's stub at 0%
	whisker         bool
}

// barPlotter draws bars whose positions and widths are in data units, so
// that grouped bars and their error bars line up at any size.
type barPlotter []bar

// zeroStubHeight is the height of the outlined stub that stands for a bar
// at 0%, which would otherwise draw nothing.
var zeroStubHeight = vg.Points(2.5)

func (bs barPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, b := range bs {
		x0, x1 := trX(b.x-b.width/2), trX(b.x+b.width/2)
		y0, y1 := trY(0), trY(b.value)
		if b.value <= 0 {
			zeroStub(c, b.edge, x0, x1, y0)
		} else {
			c.FillPolygon(b.color, c.ClipPolygonY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
		}
		if b.whisker {
			whisker(c, trX(b.x), (x1-x0)/4, trY(b.lo), trY(b.hi))
		}
	}
}

// zeroStub draws a bar at 0% from x0 to x1 on the axis at y: a white box
// of zeroStubHeight outlined in the bar's color.
func zeroStub(c draw.Canvas, edge color.Color, x0, x1, y vg.Length) {
	box := []vg.Point{{X: x0, Y: y}, {X: x1, Y: y}, {X: x1, Y: y + zeroStubHeight}, {X: x0, Y: y + zeroStubHeight}}
	c.FillPolygon(color.White, box)
	c.StrokeLines(draw.LineStyle{Color: edge, Width: vg.Points(0.9)}, append(box, box[0]))
}

// whisker draws an interval from lo to hi at x with caps half-width wide.
func whisker(c draw.Canvas, x, halfCap, lo, hi vg.Length) {
	line := draw.LineStyle{Color: color.Black, Width: vg.Points(0.6)}
	c.StrokeLines(line, []vg.Point{{X: x, Y: lo}, {X: x, Y: hi}},
		[]vg.Point{{X: x - halfCap, Y: lo}, {X: x + halfCap, Y: lo}}, []vg.Point{{X: x - halfCap, Y: hi}, {X: x + halfCap, Y: hi}})
}

func (bs barPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), 0, 100
	for _, b := range bs {
		xmin, xmax = math.Min(xmin, b.x-b.width/2), math.Max(xmax, b.x+b.width/2)
	}
	return xmin, xmax, ymin, ymax
}

// noDataText is what a panel with no rows says, in its middle.
const noDataText = "no data"

// noData is the plotter of a panel with no rows.
type noData struct{}

func (noData) Plot(c draw.Canvas, _ *plot.Plot) {
	sty := text.Style{Color: color.Gray{Y: 0x55}, Font: font.From(plot.DefaultFont, 11),
		XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: figureText}
	c.FillText(sty, c.Center(), noDataText)
}
