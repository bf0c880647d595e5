package tables

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/datg/datg/internal/duck"
	datgsql "github.com/datg/datg/sql"
)

const deepseek8B = "deepseek-ai/DeepSeek-R1-Distill-Llama-8B"

// sameSizeRun is the fixture with Qwen3-4B renamed to DeepSeek's 8B
// distill, so that two models of the run end in "8B".
func sameSizeRun(t *testing.T) string {
	return fixtureRun(t, map[string]string{"Qwen/Qwen3-4B": deepseek8B})
}

// readCSV reads an output CSV as a header and records.
func readCSV(t *testing.T, path string) ([]string, [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return recs[0], recs[1:]
}

// mdTable is a markdown table read back: its header, and its rows under
// the title of the section they are in ("" before any).
type mdTable struct {
	header []string
	rows   map[string][][]string
	titles []string
}

func readMarkdown(t *testing.T, path string) mdTable {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tbl := mdTable{rows: map[string][][]string{}}
	titled := false // a first column Model: the block each row is in
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |"), " | ")
		title := ""
		if titled {
			title, cells = cells[0], cells[1:]
		}
		switch {
		case tbl.header == nil:
			if titled = cells[0] == "Model"; titled {
				cells = cells[1:]
			}
			tbl.header = cells
		case strings.HasPrefix(cells[0], "---"):
		default:
			if !slices.Contains(tbl.titles, title) && title != "" {
				tbl.titles = append(tbl.titles, title)
			}
			tbl.rows[title] = append(tbl.rows[title], cells)
		}
	}
	return tbl
}

// Two models of a run with the same size suffix are shown by their full
// names, and each keeps its own cells: in every CSV, in compliance (a
// column per model and level), in direction_accuracy (a block per model)
// and in the figure (a row of panels per model).
func TestSameSizeModelsKeepTheirOwnCells(t *testing.T) {
	dir := sameSizeRun(t)
	if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "tables")
	wantLabels := map[string]string{"Qwen/Qwen3-8B": "Qwen/Qwen3-8B", deepseek8B: deepseek8B, "gpt-4o": "gpt-4o"}
	files, _ := filepath.Glob(filepath.Join(out, "*.csv"))
	for _, f := range files {
		header, recs := readCSV(t, f)
		iModel, iLabel := slices.Index(header, "model"), slices.Index(header, "model_label")
		if iLabel < 0 {
			continue
		}
		if iModel < 0 {
			t.Errorf("%s has model_label without model", f)
			continue
		}
		wrong := map[string]string{}
		for _, rec := range recs {
			if want := wantLabels[rec[iModel]]; rec[iLabel] != want {
				wrong[rec[iModel]] = rec[iLabel]
			}
		}
		for model, label := range wrong {
			t.Errorf("%s: %s is labelled %q, want %q", filepath.Base(f), model, label, wantLabels[model])
		}
	}

	// compliance: every CSV cell at its (pair, model level) in the markdown.
	header, recs := readCSV(t, filepath.Join(out, "compliance.csv"))
	md := readMarkdown(t, filepath.Join(out, "compliance.md"))
	col := func(name string) int { return slices.Index(header, name) }
	seen := map[string]bool{}
	for _, rec := range recs {
		seen[rec[col("model")]] = true
		h := slices.Index(md.header, rec[col("model_label")]+" "+levelShort.name(rec[col("level")]))
		pct, _ := strconv.ParseFloat(rec[col("pct")], 64)
		found := false
		for _, row := range md.rows[""] {
			if h > 0 && row[0] == pairName(rec[col("lang")]) {
				found = row[h] == strconv.FormatFloat(pct, 'f', 1, 64)
			}
		}
		if !found {
			t.Errorf("compliance.md lacks %v (header %q)", rec, md.header)
		}
	}
	if !seen["Qwen/Qwen3-8B"] || !seen[deepseek8B] {
		t.Fatalf("the fixture has no compliance for both 8B models: %v", seen)
	}

	// direction_accuracy: one block per model, every cell in its block.
	header, recs = readCSV(t, filepath.Join(out, "direction_accuracy.csv"))
	md = readMarkdown(t, filepath.Join(out, "direction_accuracy.md"))
	// (gpt-4o only has reference traces, which no accuracy counts.)
	if want := []string{"Qwen/Qwen3-8B", deepseek8B}; !sameElements(md.titles, want) {
		t.Errorf("direction_accuracy.md blocks %q, want one per model %q", md.titles, want)
	}
	for _, rec := range recs {
		h := slices.Index(md.header, rec[col("lang")])
		acc, _ := strconv.ParseFloat(rec[col("accuracy")], 64)
		found := false
		for _, row := range md.rows[rec[col("model_label")]] {
			if h > 0 && row[0] == rec[col("level")] && row[1] == rec[col("direction")] {
				found = row[h] == strconv.FormatFloat(acc, 'f', 2, 64)
			}
		}
		if !found {
			t.Errorf("direction_accuracy.md lacks %v", rec)
		}
	}

	// The figure: a row of panels per model.
	svg, err := os.ReadFile(filepath.Join(out, "accuracy_groups.svg"))
	if err != nil {
		t.Fatal(err)
	}
	texts := svgTexts(t, svg)
	for _, label := range []string{"Qwen/Qwen3-8B", deepseek8B} {
		if !slices.Contains(texts, label+" · Low") {
			t.Errorf("the figure has no panel %q: %q", label+" · Low", texts)
		}
	}
}

func sameElements(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// model_label uses the size only when no other model of the run has it
// (case aside), so no two models ever share a label; a name without a
// size, or a model the run lacks, is handled too.
func TestModelLabelRule(t *testing.T) {
	dir := fixtureRun(t, map[string]string{"gpt-4o": "org/Other-8b"})
	db, err := duck.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for model, want := range map[string]string{
		"Qwen/Qwen3-4B": "4B",
		"Qwen/Qwen3-8B": "Qwen/Qwen3-8B", // org/Other-8b has the same size
		"org/Other-8b":  "org/Other-8b",
		"gpt-4o":        "gpt-4o",      // no size
		"x/Absent-1.7B": "1.7B",        // not in the run, no model of it shares the size
		"x/Absent-4B":   "x/Absent-4B", // not in the run, Qwen3-4B has the size
	} {
		var got string
		if err := db.QueryRow("SELECT model_label(?)", model).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("model_label(%q) = %q, want %q", model, got, want)
		}
	}
}

// Layouts key cells by model, never by label: if two models had the same
// label, every layout would still show each model's cells, and differ from
// the layout with distinct labels only in the label text.
func TestLayoutsKeyCellsByModel(t *testing.T) {
	dir := sameSizeRun(t)
	db, err := duck.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, f := range datgsql.Tables() {
		entry, _ := registered(f.Name)
		res, err := query(context.Background(), db.DB, f.Text)
		if err != nil {
			t.Fatal(err)
		}
		iLabel := slices.Index(res.Columns, "model_label")
		if iLabel < 0 {
			continue
		}
		// res labels the two 8B models by their names, same by "8B".
		iModel := res.col("model")
		same := &result{Columns: res.Columns}
		for _, row := range res.Rows {
			if m := row[iModel]; m == "Qwen/Qwen3-8B" || m == deepseek8B {
				row[iLabel] = m
				row = slices.Clone(row)
				row[iLabel] = "8B"
			}
			same.Rows = append(same.Rows, row)
		}
		relabel := strings.NewReplacer(deepseek8B, "8B", "Qwen/Qwen3-8B", "8B").Replace
		// long shows the rows as they come: the model column is in the table.
		for _, o := range []layoutOpts{{}, {CI: true}} {
			if lay := entry.Layout; lay != nil && !isLong(lay) {
				want, got := layoutText(lay(res, o)), layoutText(lay(same, o))
				if relabel(want) != got {
					t.Errorf("%s (%+v): with both 8B models labelled 8B the layout is\n%s\nwant\n%s", f.Name, o, got, relabel(want))
				}
			}
		}
		if draw := entry.Figure; draw != nil {
			drawnA, err := draw(res)
			if err != nil {
				t.Fatal(err)
			}
			drawnB, err := draw(same)
			if err != nil {
				t.Fatal(err)
			}
			a, b := drawnA["svg"], drawnB["svg"]
			if na, nb := len(svgTexts(t, a)), len(svgTexts(t, b)); na != nb {
				t.Errorf("%s figure: %d texts with distinct labels, %d with shared ones", f.Name, na, nb)
			}
			// The shapes drawn, not the glyph outlines the SVG defines
			// (<path id=...>), which differ with the labels' letters.
			if na, nb := strings.Count(string(a), "<path d="), strings.Count(string(b), "<path d="); na != nb {
				t.Errorf("%s figure: %d shapes with distinct labels, %d with shared ones", f.Name, na, nb)
			}
		}
	}
}

func layoutText(g grid) string { return string(g.markdown("")) + string(g.latex("t", "")) }

// isLong says whether a layout is long, which shows a result's rows as they
// come (funcs compare by their code's address).
func isLong(lay layout) bool {
	return reflect.ValueOf(lay).Pointer() == reflect.ValueOf(layout(long)).Pointer()
}
