package tables

import (
	"bytes"
	"image/color"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Any text of a run (a model's name in a panel's title) draws as glyph
// outlines in a well-formed SVG, a group per line named by that line (with
// what XML cannot hold replaced), and in a PDF, with no error or panic.
func FuzzFigureText(f *testing.F) {
	for _, s := range []string{"Qwen/Qwen3-8B · Low", "org/my_model&v2", `<script>"x"</script>`, "\x00\x01\x7f", "\uFFFE\uFFFF",
		"\xff\xfe", "日本語 · Med.", "a\u202eb", "two\nlines\r\n", "", " ", "\u0301"} {
		f.Add(s)
	}
	sty := text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, titleFont), Handler: figureText}
	f.Fuzz(func(t *testing.T, s string) {
		c := newSVGCanvas(200, 50, s)
		dc := draw.New(c)
		dc.FillText(sty, vg.Point{X: 5, Y: 25}, s)
		var b bytes.Buffer
		if _, err := c.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		nodes := parseSVG(t, b.Bytes())
		xmlNewlines := strings.NewReplacer("\r\n", "\n", "\r", "\n")
		var want []string
		for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			if line != "" {
				want = append(want, xmlNewlines.Replace(strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'").Replace(xmlText(line))))
			}
		}
		texts := svgTextNodes(nodes)
		if len(texts) != len(want) {
			t.Fatalf("%d texts for the lines %q", len(texts), want)
		}
		for i, n := range texts {
			if n.name != "g" || n.title != want[i] {
				t.Errorf("text %d: <%s> titled %q, want %q", i, n.name, n.title, want[i])
			}
		}
		pdf, err := renderPDF(200, 50, func(c draw.Canvas) { c.FillText(sty, vg.Point{X: 5, Y: 25}, s) })
		if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
			t.Fatalf("PDF: %v", err)
		}
	})
}
