package tables

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/datg/datg/study"
)

// layout turns a query result into the paper's arrangement of the table
// (each table's is in registry.go).
type layout func(*result) grid

// levelNames are the paper's column labels for levels.
var levelNames = map[study.Level]string{study.Low: "Low", study.Medium: "Med.", study.High: "High", study.Top: "Top"}

// compliance is the appendix table "Reasoning language compliance under
// en-x": a row per pair en-x, a column per (model, level), percentages.
func compliance(r *result) grid {
	iPct := r.col("pct")
	return langByModelLevel(r, "Reasoning language compliance (%) under en-x.", "Pair", pairName,
		func(row []any) string { return strconv.FormatFloat(row[iPct].(float64), 'f', 1, 64) })
}

// graderAgreement is grader_agreement laid out like compliance: a row per
// reasoning language, a column per (model, level), each cell Math-Verify's
// accuracy and the multilingual grader's.
func graderAgreement(r *result) grid {
	iMV, iML := r.col("acc_math_verify"), r.col("acc_multilingual")
	return langByModelLevel(r, "Final-answer accuracy (%) by reasoning language under Math-Verify's rules / datg's multilingual grader (the csv counts the verdicts that differ each way).",
		"Language", func(lang string) string { return lang },
		func(row []any) string {
			return strconv.FormatFloat(row[iMV].(float64), 'f', 1, 64) + "/" + strconv.FormatFloat(row[iML].(float64), 'f', 1, 64)
		})
}

// langByModelLevel lays out a result with model, level and lang columns as
// a row per language (under rowHeader, named by rowName) and a column per
// (model, level), each cell what cell makes of its row; "--" where there is
// none.
func langByModelLevel(r *result, caption, rowHeader string, rowName func(lang string) string, cell func(row []any) string) grid {
	iModel, iLevel, iLang := r.col("model"), r.col("level"), r.col("lang")
	labels := modelLabels(r)
	type col struct{ model, level string }
	type key struct {
		lang string
		col
	}
	var cols []col
	cells := map[key]string{}
	for _, row := range r.Rows {
		c := col{plain(row[iModel]), plain(row[iLevel])}
		if !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
		cells[key{plain(row[iLang]), c}] = cell(row)
	}
	// Columns by model as first seen (sorted by the query), levels in order.
	models := uniqueIn(r.Rows, iModel)
	slices.SortFunc(cols, func(a, b col) int {
		return cmp.Or(slices.Index(models, a.model)-slices.Index(models, b.model), levelOrder(a.level)-levelOrder(b.level))
	})
	g := grid{Caption: caption + goldUnparsedNote(r), Header: []string{rowHeader}, Align: "l", Super: []span{{"", 1}}}
	for i, c := range cols {
		g.Header = append(g.Header, levelNames[study.Level(c.level)])
		g.Align += "r"
		if i > 0 && cols[i-1].model == c.model {
			g.Super[len(g.Super)-1].Cols++
		} else {
			g.Super = append(g.Super, span{labels[c.model], 1})
		}
	}
	var s section
	for _, l := range studyOrder(uniqueIn(r.Rows, iLang)) {
		row := []string{rowName(l)}
		for _, c := range cols {
			v, ok := cells[key{l, c}]
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
		g.Header[i+1] = labels[c.model] + " " + levelNames[study.Level(c.level)]
	}
	return g
}

// goldUnparsedNote says how many traces were judged wrong because the
// grader could not read their gold answer (the gold_unparsed column), so a
// malformed gold is never a silent zero; "" when there are none.
func goldUnparsedNote(r *result) string {
	i, ok := r.colOK("gold_unparsed")
	if !ok {
		return ""
	}
	n := 0
	for _, row := range r.Rows {
		if v, ok := row[i].(int64); ok {
			n += int(v)
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" %d traces have a gold answer the grader cannot read and count as wrong (gold_unparsed in the csv).", n)
}

func levelOrder(level string) int { return slices.Index(study.Levels, study.Level(level)) }

// directionAccuracy is the appendix table "Full direction-probing accuracy":
// a block per model, a row per (level, direction), a column per language in
// the study's order, "--" where a direction has no cell (en-en only has en).
func directionAccuracy(r *result) grid {
	iModel, iLevel, iDir, iLang, iAcc := r.col("model"), r.col("level"), r.col("direction"), r.col("lang"), r.col("accuracy")
	labels := modelLabels(r)
	langs := studyOrder(uniqueIn(r.Rows, iLang))
	g := grid{
		Caption: "Final-answer accuracy (%) by model, level, direction and language.",
		Header:  append([]string{"Difficulty", "Direction"}, langs...),
		Align:   "ll" + strings.Repeat("r", len(langs)),
	}
	// A block per model and a row per (level, direction), in the query's
	// order, keyed by the model's name.
	type rowKey struct{ model, level, dir string }
	block := map[string]int{}
	line := map[rowKey][]string{}
	for _, row := range r.Rows {
		model := plain(row[iModel])
		b, ok := block[model]
		if !ok {
			b = len(g.Sections)
			block[model] = b
			g.Sections = append(g.Sections, section{Title: labels[model]})
		}
		key := rowKey{model, plain(row[iLevel]), plain(row[iDir])}
		cells, ok := line[key]
		if !ok {
			cells = append([]string{key.level, key.dir}, repeatCells("--", len(langs))...)
			line[key] = cells
			g.Sections[b].Rows = append(g.Sections[b].Rows, cells)
		}
		cells[2+slices.Index(langs, plain(row[iLang]))] = fixed(row[iAcc])
	}
	g.Caption += goldUnparsedNote(r)
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
