package tables

import (
	"errors"
	"fmt"

	"golang.org/x/image/font/sfnt"
	fx "golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// The figure's SVG draws its texts as the outlines of their glyphs, so a
// viewer needs no font and cannot set them in another one: each glyph's
// outline once (glyphOutline), placed where glyphRun puts it.

// placedGlyph is a glyph of a text and its origin's distance from the
// text's start, along the baseline.
type placedGlyph struct {
	index sfnt.GlyphIndex
	x     vg.Length
}

// glyphUnits is the size sfnt gives outlines and advances in: one em is
// upem 26.6 units, so they come in 1/64 font units, exact for any font.
func glyphUnits(f *sfnt.Font) (ppem fx.Int26_6, perUnit vg.Length) {
	ppem = fx.Int26_6(f.UnitsPerEm()) << 6
	return ppem, 1 / vg.Length(ppem)
}

// glyphRun lays str out in face: each glyph after the advances and kerning
// of those before it, as gonum measures a text (font.Face.Width), so a text
// spans exactly the width the layout measured for it, as in the PNG and
// PDF.
func glyphRun(face font.Face, str string) ([]placedGlyph, error) {
	f := face.Face
	ppem, perUnit := glyphUnits(f)
	scale := face.Font.Size * perUnit
	var (
		buf     sfnt.Buffer
		run     []placedGlyph
		x       fx.Int26_6
		prev    sfnt.GlyphIndex
		hasPrev bool
	)
	for _, r := range str {
		idx, err := f.GlyphIndex(&buf, r)
		if err != nil {
			return nil, fmt.Errorf("glyph of %q: %w", r, err)
		}
		if hasPrev {
			kern, err := f.Kern(&buf, prev, idx, ppem, 0)
			switch {
			case err == nil:
				x += kern
			case !errors.Is(err, sfnt.ErrNotFound):
				return nil, fmt.Errorf("kerning before %q: %w", r, err)
			}
		}
		run = append(run, placedGlyph{index: idx, x: vg.Length(x) * scale})
		adv, err := f.GlyphAdvance(&buf, idx, ppem, 0)
		if err != nil {
			return nil, fmt.Errorf("advance of %q: %w", r, err)
		}
		x += adv
		prev, hasPrev = idx, true
	}
	return run, nil
}

// glyphOutline is the outline of a glyph of face with its origin at (0, 0)
// and y up, as the SVG's flipped group draws; empty for a space.
func glyphOutline(face font.Face, idx sfnt.GlyphIndex) (vg.Path, error) {
	f := face.Face
	ppem, perUnit := glyphUnits(f)
	scale := face.Font.Size * perUnit
	var buf sfnt.Buffer
	segs, err := f.LoadGlyph(&buf, idx, ppem, nil)
	if err != nil {
		return nil, fmt.Errorf("outline of glyph %d: %w", idx, err)
	}
	// sfnt's y grows downwards.
	at := func(p fx.Point26_6) vg.Point {
		return vg.Point{X: vg.Length(p.X) * scale, Y: -vg.Length(p.Y) * scale}
	}
	var path vg.Path
	for i, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			if i > 0 {
				path.Close()
			}
			path.Move(at(s.Args[0]))
		case sfnt.SegmentOpLineTo:
			path.Line(at(s.Args[0]))
		case sfnt.SegmentOpQuadTo:
			path.QuadTo(at(s.Args[0]), at(s.Args[1]))
		case sfnt.SegmentOpCubeTo:
			path.CubeTo(at(s.Args[0]), at(s.Args[1]), at(s.Args[2]))
		}
	}
	if len(segs) > 0 {
		path.Close()
	}
	return path, nil
}
