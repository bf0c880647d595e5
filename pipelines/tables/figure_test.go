package tables

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// figureResult is accuracy_groups for two models and two levels; 8B has no
// x-x bars at medium and no LRL bars at all.
func figureResult() *result {
	r := &result{Columns: []string{"model", "model_label", "level", "direction", "resource_group", "languages", "n", "correct", "accuracy", "wilson_low", "wilson_high"}}
	add := func(model, level, dir, group string, acc float64) {
		r.Rows = append(r.Rows, []any{"Qwen/Qwen3-" + model, model, level, dir, group, int64(1), int64(10), int64(acc / 10), acc, acc / 2, (acc + 100) / 2})
	}
	for _, model := range []string{"4B", "8B"} {
		for _, level := range []string{"medium", "low"} {
			add(model, level, "en-en", "en", 90)
			for _, dir := range []string{"en-x", "x-en", "x-x"} {
				for _, g := range []string{"HRL", "MRL", "LRL"} {
					if model == "8B" && (g == "LRL" || dir == "x-x" && level == "medium") {
						continue
					}
					add(model, level, dir, g, 50)
				}
			}
		}
	}
	return r
}

func TestAccuracyFigure(t *testing.T) {
	r := figureResult()
	svg, pngData, err := accuracyFigure(r)
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(svgTexts(t, svg), "|")
	// Panels in rows of models and columns of levels, easiest first.
	for _, title := range []string{"4B · Low", "4B · Med.", "8B · Low", "8B · Med."} {
		if !strings.Contains(joined, title) {
			t.Errorf("no panel %q in %s", title, joined)
		}
	}
	if strings.Index(joined, "4B · Low") > strings.Index(joined, "4B · Med.") {
		t.Error("levels out of order")
	}
	// One filled bar per row (en-en once per group of its panel), plus the
	// legend's box.
	count := func(fill string) int { return strings.Count(string(svg), "fill:"+fill) }
	enx, enen := 0, 0
	for _, row := range r.Rows {
		switch row[3] {
		case "en-x":
			enx++
		case "en-en":
			enen++
		}
	}
	if got := count("#1F77B4"); got != enx+1 {
		t.Errorf("%d en-x bars, want %d and the legend's", got-1, enx)
	}
	if got := count("#DDDDDD"); got != 3*enen+1 {
		t.Errorf("%d pale bars, want %d and the legend's", got-1, 3*enen)
	}
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 2*3*150 || b.Dy() < 2*2*150 {
		t.Fatalf("PNG of %v for 2 x 2 panels", b)
	}
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

// datg tables writes the figure beside accuracy_groups' tables; a model
// name is data, escaped in the SVG ("org/my_model&v2").
func TestTablesWriteTheFigure(t *testing.T) {
	dir := writeRun(t, true)
	if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".svg", ".png"} {
		if st, err := os.Stat(filepath.Join(dir, "tables", "accuracy_groups"+ext)); err != nil || st.Size() == 0 {
			t.Fatalf("accuracy_groups%s: %v", ext, err)
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "tables", "accuracy_groups.svg"))
	if texts := strings.Join(svgTexts(t, svg), "|"); !strings.Contains(texts, "org/my_model&v2") {
		t.Fatalf("the model's name is not in the figure: %s", texts)
	}
}
