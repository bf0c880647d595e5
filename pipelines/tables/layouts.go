package tables

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/datg/datg/transforms"
)

// layout turns a query result into the paper's arrangement of the table.
type layout func(*result) grid

// layouts maps a table (sql/tables/<name>.sql) to its paper layout; tables
// without one are shown as they come, one row per result row.
var layouts = map[string]layout{
	"direction_accuracy":    directionAccuracy,
	"compliance":            compliance,
	"datg_full":             datgFull,
	"datg_main":             datgMain,
	"datg_correctness":      datgCorrectness,
	"datg_correctness_main": datgCorrectnessMain,
	"reference_diversity":   referenceDiversity,
	"control":               controlTable,
	"human_eval":            humanEval,
	"human_agreement":       humanAgreement,
}

// levelNames are the paper's column labels for levels.
var levelNames = map[string]string{"low": "Low", "medium": "Med.", "high": "High", "top": "Top"}

// compliance is the appendix table "Reasoning language compliance under
// en-x": a row per pair en-x, a column per (model, level), percentages.
func compliance(r *result) grid {
	iModel, iLevel, iLang, iPct := r.col("model_label"), r.col("level"), r.col("lang"), r.col("pct")
	type col struct{ model, level string }
	var cols []col
	cells := map[string]string{}
	for _, row := range r.Rows {
		c := col{plain(row[iModel]), plain(row[iLevel])}
		if !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
		cells[plain(row[iLang])+"/"+c.model+"/"+c.level] = strconv.FormatFloat(row[iPct].(float64), 'f', 1, 64)
	}
	// Columns by model as first seen (sorted by the query), levels in order.
	models := uniqueIn(r.Rows, iModel)
	slices.SortFunc(cols, func(a, b col) int {
		return cmp.Or(slices.Index(models, a.model)-slices.Index(models, b.model), levelOrder(a.level)-levelOrder(b.level))
	})
	g := grid{Caption: "Reasoning language compliance (%) under en-x.", Header: []string{"Pair"}, Align: "l", Super: []span{{"", 1}}}
	for _, c := range cols {
		g.Header = append(g.Header, levelNames[c.level])
		g.Align += "r"
		if last := len(g.Super) - 1; g.Super[last].Label == c.model {
			g.Super[last].Cols++
		} else {
			g.Super = append(g.Super, span{c.model, 1})
		}
	}
	var s section
	for _, l := range studyOrder(uniqueIn(r.Rows, iLang)) {
		row := []string{pairName(l)}
		for _, c := range cols {
			v, ok := cells[l+"/"+c.model+"/"+c.level]
			if !ok {
				v = "--"
			}
			row = append(row, v)
		}
		s.Rows = append(s.Rows, row)
	}
	g.Sections = []section{s}
	// Markdown has one header row: it names the model in each column.
	g.TexHeader = append([]string(nil), g.Header...)
	for i, c := range cols {
		g.Header[i+1] = c.model + " " + levelNames[c.level]
	}
	return g
}

func levelOrder(level string) int { return slices.Index(transforms.Levels, level) }

// directionAccuracy is the appendix table "Full direction-probing accuracy":
// a block per model, a row per (level, direction), a column per language in
// the study's order, "--" where a direction has no cell (en-en only has en).
func directionAccuracy(r *result) grid {
	iModel, iLevel, iDir, iLang, iAcc := r.col("model_label"), r.col("level"), r.col("direction"), r.col("lang"), r.col("accuracy")
	langs := studyOrder(uniqueIn(r.Rows, iLang))
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

// long shows a result as it is, numbers as the query rounded them.
func long(r *result) grid {
	g := grid{Header: r.Columns}
	s := section{}
	for _, row := range r.Rows {
		cells := make([]string, len(row))
		align := ""
		for i, v := range row {
			switch v.(type) {
			case float64, int64:
				cells[i] = plain(v)
				align += "r"
			case nil:
				cells[i] = "--"
				align += "l"
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
