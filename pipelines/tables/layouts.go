package tables

import (
	"slices"
	"strings"
)

// layout turns a query result into the paper's arrangement of the table.
type layout func(*result) grid

// layouts maps a table (sql/tables/<name>.sql) to its paper layout; tables
// without one are shown as they come, one row per result row.
var layouts = map[string]layout{
	"direction_accuracy": directionAccuracy,
}

// directionAccuracy is the appendix table "Full direction-probing accuracy":
// a block per model, a row per (level, direction), a column per language in
// the study's order, "--" where a direction has no cell (en-en only has en).
func directionAccuracy(r *result) grid {
	iModel, iLevel, iDir, iLang, iAcc := r.col("model_label"), r.col("level"), r.col("direction"), r.col("lang"), r.col("accuracy")
	var langs []string
	for _, row := range r.Rows {
		if l := plain(row[iLang]); !slices.Contains(langs, l) {
			langs = append(langs, l)
		}
	}
	langs = studyOrder(langs)
	g := grid{
		Caption: "Final-answer accuracy (%) by model, level, direction and language.",
		Header:  append([]string{"Difficulty", "Direction"}, langs...),
		Align:   "ll" + strings.Repeat("r", len(langs)),
	}
	var cur *section
	var curRow []string
	rowKey := ""
	for _, row := range r.Rows {
		model := plain(row[iModel])
		if cur == nil || cur.Title != model {
			g.Sections = append(g.Sections, section{Title: model})
			cur = &g.Sections[len(g.Sections)-1]
			rowKey = ""
		}
		key := plain(row[iLevel]) + "/" + plain(row[iDir])
		if key != rowKey {
			curRow = append([]string{plain(row[iLevel]), plain(row[iDir])}, repeatCells("--", len(langs))...)
			cur.Rows = append(cur.Rows, curRow)
			curRow = cur.Rows[len(cur.Rows)-1]
			rowKey = key
		}
		curRow[2+slices.Index(langs, plain(row[iLang]))] = fixed(row[iAcc])
	}
	return g
}

// long shows a result as it is.
func long(r *result) grid {
	g := grid{Header: r.Columns}
	s := section{}
	for _, row := range r.Rows {
		cells := make([]string, len(row))
		align := ""
		for i, v := range row {
			switch v.(type) {
			case float64:
				cells[i] = fixed(v)
				align += "r"
			case int64:
				cells[i] = plain(v)
				align += "r"
			default:
				cells[i] = plain(v)
				align += "l"
			}
		}
		if g.Align == "" {
			g.Align = align
		}
		s.Rows = append(s.Rows, cells)
	}
	if g.Align == "" {
		g.Align = strings.Repeat("l", len(r.Columns))
	}
	g.Sections = []section{s}
	return g
}

func repeatCells(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}
