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
type layout func(*result, layoutOpts) grid

// compliance is the appendix table "Reasoning language compliance under
// en→x" (tab:app_cot_compliance): a row per pair en-x in the paper's order
// (fr, ru, zh, ja, th, sw, bn, te, ko, id, ms), a column per (model,
// level), percentages with one decimal.
func compliance(r *result, o layoutOpts) grid {
	iPct := r.col("pct")
	iLo, iHi := r.col("wilson_low"), r.col("wilson_high")
	caption := "Reasoning language compliance under en-x. Values are percentages of the traces whose reasoning is in the requested language (langdetect, the paper's rule)."
	if o.CI {
		caption += " In brackets, 95% Wilson intervals."
	}
	return langByModelLevel(r, caption, "Pair", pairName, complianceLangs, func(row []any) string {
		cell := fixedN(row[iPct], 1)
		if o.CI {
			cell = interval(cell, row[iLo], row[iHi], pct(1))
		}
		return cell
	})
}

// graderAgreement compares the two graders, beyond the paper: a section
// per model, a row per reasoning language, for each level the accuracy
// under Math-Verify's rules and under datg's multilingual grader with
// their Wilson intervals, and how many verdicts differ.
func graderAgreement(r *result, _ layoutOpts) grid {
	iModel, iLevel, iLang := r.col("model"), r.col("level"), r.col("lang")
	iMV, iMVLo, iMVHi := r.col("acc_math_verify"), r.col("math_verify_low"), r.col("math_verify_high")
	iML, iMLLo, iMLHi := r.col("acc_multilingual"), r.col("multilingual_low"), r.col("multilingual_high")
	iOnlyMV, iOnlyML := r.col("only_math_verify"), r.col("only_multilingual")
	labels := modelLabels(r)
	levels := easiestFirst(uniqueIn(r.Rows, iLevel))
	g := grid{
		Caption: "Final-answer accuracy (%) by reasoning language under Math-Verify's rules (MV) and under datg's multilingual grader (ML), " +
			"with 95% Wilson intervals; Differ counts the traces the two grade differently (MV only right / ML only right)." + goldUnparsedNote(r),
		Wide: true, TitleLabel: "Model", Groups: [][]span{{{"", 1}}}, Header: []string{"Language"}, Align: "l",
	}
	for _, l := range levels {
		g.Groups[0] = append(g.Groups[0], span{levelFull.name(l), 3})
		g.Header = append(g.Header, "MV", "ML", "Differ")
		g.Align += "rrr"
	}
	type key struct{ model, level, lang string }
	cells := map[key][]any{}
	for _, row := range r.Rows {
		cells[key{plain(row[iModel]), plain(row[iLevel]), plain(row[iLang])}] = row
	}
	langs := studyOrder(uniqueIn(r.Rows, iLang))
	for _, model := range modelsOf(r) {
		s := section{Title: labels[model]}
		for _, lang := range langs {
			line := []string{lang}
			for _, l := range levels {
				row, ok := cells[key{model, l, lang}]
				if !ok {
					line = append(line, "--", "--", "--")
					continue
				}
				line = append(line,
					interval(fixedN(row[iMV], 1), row[iMVLo], row[iMVHi], pct(1)),
					interval(fixedN(row[iML], 1), row[iMLLo], row[iMLHi], pct(1)),
					plain(row[iOnlyMV])+"/"+plain(row[iOnlyML]))
			}
			s.Rows = append(s.Rows, line)
		}
		g.add(s)
	}
	return g
}

// langByModelLevel lays out a result with model, level and lang columns as
// a row per language (under rowHeader, named by rowName, in order's order)
// and a column per (model, level) under a group per model, each cell what
// cell makes of its row; "--" where there is none.
func langByModelLevel(r *result, caption, rowHeader string, rowName func(lang string) string, order []string, cell func(row []any) string) grid {
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
	g := grid{Caption: caption + goldUnparsedNote(r), Wide: true, Groups: [][]span{{{"", 1}}}, Header: []string{rowHeader}, Align: "l"}
	for i, c := range cols {
		g.Header = append(g.Header, levelShort.name(c.level))
		g.Align += "r"
		if i > 0 && cols[i-1].model == c.model {
			g.Groups[0][len(g.Groups[0])-1].Cols++
		} else {
			g.Groups[0] = append(g.Groups[0], span{labels[c.model], 1})
		}
	}
	var s section
	for _, l := range paperOrder(uniqueIn(r.Rows, iLang), order) {
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
	g.add(s)
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

// directionAccuracy is the appendix table "Full direction-probing
// accuracy" (tab:app_direction_accuracy_full): a block per model, a row per
// (level, direction) as the paper names them (low, en-x), a column per
// language in the study's order, percentages with two decimals, "--" where
// a direction has no cell (en-en only has en).
func directionAccuracy(r *result, o layoutOpts) grid {
	iLang, iAcc := r.col("lang"), r.col("accuracy")
	iLo, iHi := r.col("wilson_low"), r.col("wilson_high")
	langs := studyOrder(uniqueIn(r.Rows, iLang))
	caption := "Full direction-probing accuracy by model, difficulty, direction, and language. Values are percentages."
	if o.CI {
		caption += " In brackets, 95% Wilson intervals."
	}
	g := grid{
		Caption: caption, Wide: true, TitleLabel: "Model",
		Header: append([]string{"Difficulty", "Direction"}, langs...),
		Align:  "ll" + strings.Repeat("r", len(langs)),
	}
	blocks, models := levelDirectionBlocks(r, levelLower, langs, func(row []any) (string, string) {
		cell := fixed(row[iAcc])
		if o.CI {
			cell = interval(cell, row[iLo], row[iHi], pct(2))
		}
		return plain(row[iLang]), cell
	})
	for _, m := range models {
		g.add(*blocks[m])
	}
	g.Caption += goldUnparsedNote(r)
	return g
}

// levelDirectionBlocks lays out a result as a block per model (titled by
// its label; the models in the query's order) and a row per (level,
// direction), the level named in style, with a column per value of
// columns: cell gives a result row's column and its text; a cell no row
// fills is "--".
func levelDirectionBlocks(r *result, style levelStyle, columns []string, cell func(row []any) (column, text string)) (map[string]*section, []string) {
	iModel, iLevel, iDir := r.col("model"), r.col("level"), r.col("direction")
	labels := modelLabels(r)
	type rowKey struct{ model, level, dir string }
	var models []string
	blocks := map[string]*section{}
	lines := map[rowKey][]string{}
	for _, row := range r.Rows {
		model := plain(row[iModel])
		s, ok := blocks[model]
		if !ok {
			s = &section{Title: labels[model]}
			blocks[model] = s
			models = append(models, model)
		}
		key := rowKey{model, plain(row[iLevel]), plain(row[iDir])}
		line, ok := lines[key]
		if !ok {
			line = append([]string{style.name(key.level), key.dir}, repeatCells("--", len(columns))...)
			lines[key] = line
			s.Rows = append(s.Rows, line)
		}
		column, text := cell(row)
		line[2+slices.Index(columns, column)] = text
	}
	return blocks, models
}

// long shows a result as it is, numbers as the query rounded them: the
// layout of a new query until it has the paper's.
func long(r *result, _ layoutOpts) grid {
	g := grid{Header: r.Columns, Wide: true}
	s := section{}
	numeric := make([]bool, len(r.Columns))
	for _, row := range r.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = plain(v)
			if v == nil {
				cells[i] = "--"
			}
			numeric[i] = numeric[i] || isNumber(v)
		}
		s.Rows = append(s.Rows, cells)
	}
	for _, n := range numeric {
		g.Align += map[bool]string{true: "r", false: "l"}[n]
	}
	g.add(s)
	return g
}

func repeatCells(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// count64 reads a count as text (a count is BIGINT, a sum of counts
// HUGEINT): "" when it is none.
func countText(v any) string {
	if v == nil {
		return "--"
	}
	if n, err := strconv.ParseInt(plain(v), 10, 64); err == nil {
		return strconv.FormatInt(n, 10)
	}
	return plain(v)
}
