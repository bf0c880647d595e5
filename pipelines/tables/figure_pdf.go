package tables

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgpdf"
)

// pdfEpoch is the creation and modification date every figure PDF records,
// so the same numbers write the same bytes (a date of now would make each
// run's PDF new). The Unix epoch, as reproducible builds date what has no
// date of its own.
var pdfEpoch = time.Unix(0, 0).UTC()

// reproduciblePDF sets fpdf's defaults, which vgpdf's documents take when
// created: the fixed dates and resources in a sorted order (fpdf writes
// its fonts from a map otherwise). datg is fpdf's only user in the binary.
var reproduciblePDF = sync.OnceFunc(func() {
	fpdf.SetDefaultCreationDate(pdfEpoch)
	fpdf.SetDefaultModificationDate(pdfEpoch)
	fpdf.SetDefaultCatalogSort(true)
})

// renderPDF draws a figure of w by h as a PDF whose fonts are embedded
// (vgpdf's default: TrueType, with the code page pdfCanvas encodes for).
// vgpdf panics where it cannot read a font; the figure's fonts are compiled
// in, so a panic here is a bug, reported as an error all the same.
func renderPDF(w, h vg.Length, drawOn func(draw.Canvas)) (out []byte, err error) {
	reproduciblePDF()
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("vgpdf: %v", r)
		}
	}()
	c := vgpdf.New(w, h)
	c.EmbedFonts(true)
	drawOn(draw.New(pdfCanvas{c}))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// pdfCanvas is gonum's PDF canvas with its texts encoded as its fonts are:
// vgpdf embeds each font with the Windows-1252 code page and passes a
// string's bytes through, so UTF-8 text (a model's name, "·") would print
// as mojibake. A character beyond the code page prints as "?"; Liberation
// Serif, which the figure is set in, has few glyphs beyond it anyway.
type pdfCanvas struct{ *vgpdf.Canvas }

func (c pdfCanvas) FillString(f font.Face, pt vg.Point, str string) {
	c.Canvas.FillString(f, pt, toWindows1252(str))
}

func toWindows1252(s string) string {
	var b strings.Builder
	for _, r := range s {
		if e, ok := charmap.Windows1252.EncodeRune(r); ok {
			b.WriteByte(e)
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}
