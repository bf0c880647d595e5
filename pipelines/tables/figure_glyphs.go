package tables

import (
	"errors"
	"fmt"

	"golang.org/x/image/font/sfnt"
	fx "golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// glyphOutlines is str set in face with its baseline starting at pt, as
// one path of the glyphs' outlines: the figure's SVG draws its texts so,
// and a viewer then needs no font and cannot set them in another one. The
// advances and kerning are gonum's (font.Face.Width), so a text spans
// exactly the width the layout measured for it, as in the PNG and PDF.
func glyphOutlines(face font.Face, pt vg.Point, str string) (vg.Path, error) {
	f := face.Face
	// One em is upem 26.6 units, so the outlines come in 1/64 font units,
	// then scaled to the face's size in points. sfnt's y grows downwards.
	ppem := fx.Int26_6(f.UnitsPerEm()) << 6
	scale := face.Font.Size / vg.Length(ppem)
	var (
		buf     sfnt.Buffer
		path    vg.Path
		x       fx.Int26_6
		prev    sfnt.GlyphIndex
		hasPrev bool
	)
	at := func(p fx.Point26_6) vg.Point {
		return vg.Point{X: pt.X + vg.Length(x+p.X)*scale, Y: pt.Y - vg.Length(p.Y)*scale}
	}
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
		segs, err := f.LoadGlyph(&buf, idx, ppem, nil)
		if err != nil {
			return nil, fmt.Errorf("outline of %q: %w", r, err)
		}
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
		adv, err := f.GlyphAdvance(&buf, idx, ppem, 0)
		if err != nil {
			return nil, fmt.Errorf("advance of %q: %w", r, err)
		}
		x += adv
		prev, hasPrev = idx, true
	}
	return path, nil
}
