package tables

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/datg/datg/study"
)

// frac formats a score as the paper does: three decimals without the
// leading zero (.469; 1.000 stays).
func frac(v any, decimals int) string {
	f, ok := v.(float64)
	if !ok {
		return "--"
	}
	s := strconv.FormatFloat(f, 'f', decimals, 64)
	if strings.HasPrefix(s, "0.") {
		return s[1:]
	}
	if strings.HasPrefix(s, "-0.") {
		return "-" + s[2:]
	}
	return s
}

func levelLabel(l string) string {
	if name, ok := levelNames[study.Level(l)]; ok {
		return name
	}
	if l == "" {
		return l
	}
	r, n := utf8.DecodeRuneInString(l)
	return string(unicode.ToUpper(r)) + l[n:] // All, Overall
}

// pairName is how the paper names a language's row: en-en, en-x.
func pairName(lang string) string { return "en-" + lang }

// eachAligner calls fn with each aligner's rows, aligners in the order
// they first come, and the title of its part of the table: "aligner NAME"
// when the result has several aligners, "" when one.
func eachAligner(r *result, fn func(title string, rows [][]any)) {
	i := r.col("aligner")
	var names []string
	rows := map[string][][]any{}
	for _, row := range r.Rows {
		a := plain(row[i])
		if _, ok := rows[a]; !ok {
			names = append(names, a)
		}
		rows[a] = append(rows[a], row)
	}
	for _, a := range names {
		title := ""
		if len(names) > 1 {
			title = "aligner " + a
		}
		fn(title, rows[a])
	}
}

func uniqueIn(rows [][]any, col int) []string {
	var out []string
	for _, row := range rows {
		if v := plain(row[col]); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// easiestFirst puts levels in PolyMath's order, Low to Top, as Table 1's
// columns read; levels outside it are left out.
func easiestFirst(levels []string) []string {
	var out []string
	for _, l := range study.Strings(study.Levels...) {
		if slices.Contains(levels, l) {
			out = append(out, l)
		}
	}
	return out
}

// hardestFirst puts levels in the appendix tables' row order: Top, High,
// Med., Low.
func hardestFirst(levels []string) []string {
	out := easiestFirst(levels)
	slices.Reverse(out)
	return out
}

// datgFull is the appendix table "Full DATG results": a block per pair,
// a row per level (High, Med., Low), CAR, PMF and HAR for each model.
func datgFull(r *result) grid {
	metrics := []string{"car", "pmf", "har"}
	models, labels := modelsOf(r), modelLabels(r)
	g := grid{Caption: "Mean CAR, PMF and HAR of each trace's best reference DAG (en-en and en-x)." + coverageNote(r),
		Super: []span{{"", 2}}, TexHeader: []string{"Pair", "Difficulty"}, Header: []string{"Pair", "Difficulty"}, Align: "ll"}
	for _, m := range metrics {
		g.Super = append(g.Super, span{strings.ToUpper(m), len(models)})
		for _, model := range models {
			g.TexHeader = append(g.TexHeader, labels[model])
			g.Header = append(g.Header, strings.ToUpper(m)+" "+labels[model])
			g.Align += "c"
		}
	}
	return pairBlocks(r, g, func(cell func(model string) []any) []string {
		var line []string
		for _, m := range metrics {
			for _, model := range models {
				v := any(nil)
				if row := cell(model); row != nil {
					v = row[r.col(m)]
				}
				line = append(line, frac(v, 3))
			}
		}
		return line
	})
}

// datgMain is Table 1: a row per (resource group, language), CAR, PMF and
// HAR per level, each cell the models side by side (.94/.98/.96).
func datgMain(r *result) grid {
	iModel, iLevel, iLang, iRes := r.col("model"), r.col("level"), r.col("lang"), r.col("resource")
	levels := easiestFirst(uniqueIn(r.Rows, iLevel))
	models, labels := modelsOf(r), modelLabels(r)
	shown := make([]string, len(models))
	for i, m := range models {
		shown[i] = labels[m]
	}
	g := grid{Caption: "DATG results across model scales; each cell is " + strings.Join(shown, "/") + "." + coverageNote(r),
		Super: []span{{"", 2}}, TexHeader: []string{"Type", "Lang."}, Header: []string{"Type", "Lang."}, Align: "ll"}
	for _, m := range []string{"CAR", "PMF", "HAR"} {
		g.Super = append(g.Super, span{m, len(levels)})
		for _, l := range levels {
			g.TexHeader = append(g.TexHeader, levelLabel(l))
			g.Header = append(g.Header, m+" "+levelLabel(l))
			g.Align += "c"
		}
	}
	eachAligner(r, func(title string, rows [][]any) {
		cell := map[cellKey][]any{}
		resource := map[string]string{}
		for _, row := range rows {
			cell[cellKey{plain(row[iLang]), plain(row[iLevel]), plain(row[iModel])}] = row
			resource[plain(row[iLang])] = plain(row[iRes])
		}
		s := section{Title: title}
		for _, lang := range studyOrder(uniqueIn(rows, iLang)) {
			line := []string{resource[lang], lang}
			for _, m := range []string{"car", "pmf", "har"} {
				for _, l := range levels {
					var vals []string
					for _, model := range models {
						v := any(nil)
						if row, ok := cell[cellKey{lang, l, model}]; ok {
							v = row[r.col(m)]
						}
						vals = append(vals, frac(v, 2))
					}
					line = append(line, strings.Join(vals, "/"))
				}
			}
			s.Rows = append(s.Rows, line)
		}
		g.Sections = append(g.Sections, s)
	})
	return g
}

// datgCorrectness is the appendix's correctness-stratified table: a block
// per pair, a row per level, for each model Acc. and CAR, PMF, HAR as
// correct/incorrect.
func datgCorrectness(r *result) grid {
	iAcc := r.col("acc")
	models, labels := modelsOf(r), modelLabels(r)
	g := grid{Caption: "DATG scores of correct/incorrect traces (by the answer grader); Acc. is a fraction, over every graded trace." + coverageNote(r),
		Super: []span{{"", 2}}, TexHeader: []string{"Pair", "Diff."}, Header: []string{"Pair", "Diff."}, Align: "ll"}
	for _, model := range models {
		g.Super = append(g.Super, span{labels[model], 4})
		for _, h := range []string{"Acc.", "CAR", "PMF", "HAR"} {
			g.TexHeader = append(g.TexHeader, h)
			g.Header = append(g.Header, labels[model]+" "+h)
			g.Align += "c"
		}
	}
	return pairBlocks(r, g, func(cell func(model string) []any) []string {
		var line []string
		for _, model := range models {
			row := cell(model)
			if row == nil {
				line = append(line, "--", "--", "--", "--")
				continue
			}
			line = append(line, frac(row[iAcc], 3))
			for _, m := range []string{"car", "pmf", "har"} {
				line = append(line, frac(row[r.col(m+"_c")], 3)+"/"+frac(row[r.col(m+"_i")], 3))
			}
		}
		return line
	})
}

// cellKey is a DATG cell: a language, level and model (by name).
type cellKey struct{ lang, level, model string }

// pairBlocks lays out a result as the appendix's DATG tables do: a section
// per aligner (titled when there are several) and per pair (en-en, en-x), a
// row per level; cells gives a row's cells from the result row of each
// model (nil when the model has none).
func pairBlocks(r *result, g grid, cells func(cell func(model string) []any) []string) grid {
	iModel, iLevel, iLang := r.col("model"), r.col("level"), r.col("lang")
	eachAligner(r, func(title string, rows [][]any) {
		if title != "" {
			g.Sections = append(g.Sections, section{Title: title})
		}
		byCell := map[cellKey][]any{}
		for _, row := range rows {
			byCell[cellKey{plain(row[iLang]), plain(row[iLevel]), plain(row[iModel])}] = row
		}
		for _, lang := range studyOrder(uniqueIn(rows, iLang)) {
			var s section
			for i, level := range hardestFirst(uniqueIn(rows, iLevel)) {
				line := []string{"", levelLabel(level)}
				if i == 0 {
					line[0] = pairName(lang)
				}
				line = append(line, cells(func(model string) []any { return byCell[cellKey{lang, level, model}] })...)
				s.Rows = append(s.Rows, line)
			}
			g.Sections = append(g.Sections, s)
		}
	})
	return g
}

// datgCorrectnessMain is Table 2: a row per level and All, each score as
// correct/incorrect.
func datgCorrectnessMain(r *result) grid {
	return perLevel(r, grid{Caption: "DATG scores under en-x; C/I are correct/incorrect traces." + coverageNote(r),
		Header: []string{"Difficulty", "CAR (C/I)", "PMF (C/I)", "HAR (C/I)"}, Align: "lccc"},
		func(row []any, m string) string {
			return frac(row[r.col(m+"_c")], 3) + "/" + frac(row[r.col(m+"_i")], 3)
		})
}

// referenceDiversity is the appendix's reference-side diversity table:
// best-other CAR, PMF and HAR as mean ± standard deviation per level.
func referenceDiversity(r *result) grid {
	return perLevel(r, grid{Caption: "Reference-side diversity: best-other alignments among the references of a problem (mean ± sd).",
		Header: []string{"Difficulty", "Best-other CAR", "Best-other PMF", "Best-other HAR"}, Align: "lccc"},
		func(row []any, m string) string {
			return fixedN(row[r.col(m)], 3) + " ± " + fixedN(row[r.col(m+"_sd")], 3)
		})
}

// perLevel lays out a result with a row per level (and the pooled row the
// query adds), a cell per score, and a section per aligner.
func perLevel(r *result, g grid, cell func(row []any, metric string) string) grid {
	iLevel := r.col("level")
	eachAligner(r, func(title string, rows [][]any) {
		s := section{Title: title}
		for _, row := range rows {
			line := []string{levelLabel(plain(row[iLevel]))}
			for _, m := range []string{"car", "pmf", "har"} {
				line = append(line, cell(row, m))
			}
			s.Rows = append(s.Rows, line)
		}
		g.Sections = append(g.Sections, s)
	})
	return g
}
