package tables

import (
	"slices"
	"strconv"
	"strings"

	"github.com/datg/datg/study"
)

// frac formats a score as the paper does: decimals without the leading
// zero (.469; 1.000 stays).
func frac(v any, decimals int) string {
	f, ok := v.(float64)
	if !ok {
		if n, isInt := v.(int64); isInt {
			f = float64(n)
		} else {
			return "--"
		}
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

// pairName is how the paper names a language's row: en-en, en-x.
func pairName(lang string) string { return "en-" + lang }

// eachAligner adds a part per aligner to g (in the order they first come,
// titled by the aligner's name) and calls fn with the aligner's rows to
// fill it.
func eachAligner(r *result, g *grid, fn func(rows [][]any)) {
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
	g.PartLabel = "Aligner"
	for _, a := range names {
		g.Parts = append(g.Parts, part{Title: a})
		fn(rows[a])
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
// Medium, Low.
func hardestFirst(levels []string) []string {
	out := easiestFirst(levels)
	slices.Reverse(out)
	return out
}

// datgMetrics are the DATG scores and the direction the paper marks on
// each (CAR ↑ PMF ↑ HAR ↓ in Table 1).
var datgMetrics = []struct{ col, name, arrow string }{
	{"car", "CAR", "↑"}, {"pmf", "PMF", "↑"}, {"har", "HAR", "↓"},
}

// datgFull is the appendix table "Full DATG results" (tab:app_datg_full):
// a block per pair in the appendix's order (en-en, en-fr, en-zh, ...), a
// row per level (High, Medium, Low), CAR, PMF and HAR for each model, three
// decimals; with --ci a part per model (and aligner), each mean with its
// bootstrap interval.
func datgFull(r *result, o layoutOpts) grid {
	models, labels := modelsOf(r), modelLabels(r)
	caption := "Full DATG results by language pair, difficulty, model scale, and metric: mean CAR, PMF and HAR of each trace's best reference DAG (en-en and en-x)."
	if o.CI {
		// Nine intervals side by side would not read: a part per model.
		caption += " A part per model; in brackets, 95% bootstrap intervals (1,000 replicates of the cell's traces)."
		g := grid{Caption: caption + coverageNote(r), Wide: true, Keys: 1, PartLabel: "Model",
			Header: []string{"Pair", "Difficulty", "CAR", "PMF", "HAR"}, Align: "llccc"}
		g.Parts = partPerModel(r, models, labels, levelFull, func(row []any) []string {
			if row == nil {
				return []string{"--", "--", "--"}
			}
			var line []string
			for _, m := range datgMetrics {
				line = append(line, interval(frac(row[r.col(m.col)], 3), row[r.col(m.col+"_lo")], row[r.col(m.col+"_hi")], fracOf(3)))
			}
			return line
		})
		return g
	}
	g := grid{Caption: caption + coverageNote(r), Wide: true, Keys: 1,
		Groups: [][]span{{{"", 2}}}, Header: []string{"Pair", "Difficulty"}, Align: "ll"}
	for _, m := range datgMetrics {
		g.Groups[0] = append(g.Groups[0], span{m.name, len(models)})
		for _, model := range models {
			g.Header = append(g.Header, labels[model])
			g.Align += "c"
		}
	}
	return pairBlocks(r, g, levelFull, func(cell func(model string) []any) []string {
		var line []string
		for _, m := range datgMetrics {
			for _, model := range models {
				row := cell(model)
				if row == nil {
					line = append(line, "--")
					continue
				}
				line = append(line, frac(row[r.col(m.col)], 3))
			}
		}
		return line
	})
}

// datgMain is Table 1 (tab:datg_main): a row per (resource group,
// language) for the paper's languages (en, fr, th, bn, te, sw; datg_full
// has them all), CAR ↑, PMF ↑ and HAR ↓ per level, each cell the models
// side by side with two decimals (.94/.98/.96). With --ci, a block per
// model instead, each cell a mean and its bootstrap interval: three
// intervals side by side would not read.
func datgMain(r *result, o layoutOpts) grid {
	iModel, iLevel, iLang, iRes := r.col("model"), r.col("level"), r.col("lang"), r.col("resource")
	levels := easiestFirst(uniqueIn(r.Rows, iLevel))
	models, labels := modelsOf(r), modelLabels(r)
	langs, left := paperSubset(uniqueIn(r.Rows, iLang), table1Langs)
	shown := make([]string, len(models))
	for i, m := range models {
		shown[i] = labels[m]
	}
	caption := "DATG results across model scales, with English included as the en-en reference row. HRL, MRL, and LRL denote high-, medium-, and low-resource language groups."
	if o.CI {
		caption += " A block per model; in brackets, 95% bootstrap intervals (1,000 replicates of the cell's traces)."
	} else {
		caption += " Each cell reports " + strings.Join(shown, "/") + "."
	}
	caption += " CAR measures committed anchor coverage, PMF coverage-aware dependency fidelity, and HAR harmful mathematical actions."
	if len(left) > 0 {
		caption += " The paper's rows; " + strings.Join(left, ", ") + " are in datg_full."
	}
	g := grid{Caption: caption + coverageNote(r), Wide: true,
		Groups: [][]span{{{"", 2}}}, Header: []string{"Type", "Lang."}, Align: "ll"}
	if o.CI {
		g.TitleLabel = "Model"
	}
	for _, m := range datgMetrics {
		g.Groups[0] = append(g.Groups[0], span{m.name + " " + m.arrow, len(levels)})
		for _, l := range levels {
			g.Header = append(g.Header, levelShort.name(l))
			g.Align += "c"
		}
	}
	eachAligner(r, &g, func(rows [][]any) {
		cell := map[cellKey][]any{}
		resource := map[string]string{}
		for _, row := range rows {
			cell[cellKey{plain(row[iLang]), plain(row[iLevel]), plain(row[iModel])}] = row
			resource[plain(row[iLang])] = plain(row[iRes])
		}
		value := func(lang, level, model, col string) string {
			row, ok := cell[cellKey{lang, level, model}]
			if !ok {
				return "--"
			}
			v := frac(row[r.col(col)], 2)
			if o.CI {
				v = interval(v, row[r.col(col+"_lo")], row[r.col(col+"_hi")], fracOf(2))
			}
			return v
		}
		present := func(lang string) bool { _, ok := resource[lang]; return ok }
		if !o.CI {
			var s section
			for _, lang := range langs {
				if !present(lang) {
					continue
				}
				line := []string{resource[lang], lang}
				for _, m := range datgMetrics {
					for _, l := range levels {
						var vals []string
						for _, model := range models {
							vals = append(vals, value(lang, l, model, m.col))
						}
						line = append(line, strings.Join(vals, "/"))
					}
				}
				s.Rows = append(s.Rows, line)
			}
			g.add(s)
			return
		}
		for _, model := range models {
			s := section{Title: labels[model]}
			for _, lang := range langs {
				if !present(lang) {
					continue
				}
				line := []string{resource[lang], lang}
				for _, m := range datgMetrics {
					for _, l := range levels {
						line = append(line, value(lang, l, model, m.col))
					}
				}
				s.Rows = append(s.Rows, line)
			}
			g.add(s)
		}
	})
	return g
}

// datgCorrectness is the appendix's correctness-stratified table
// (tab:app_datg_correctness_full): a block per pair in the appendix's
// order, a row per level (High, Med., Low), for each model Acc. (a
// fraction, over every graded trace) and CAR, PMF, HAR as
// correct/incorrect, three decimals. With --ci, a part per model (twelve
// intervals side by side would not read), Acc. with its Wilson interval
// and each of the six means with its bootstrap interval.
func datgCorrectness(r *result, o layoutOpts) grid {
	models, labels := modelsOf(r), modelLabels(r)
	caption := "Correctness-stratified DATG results under en-x (and en-en) by language pair, difficulty, and model scale. For CAR, PMF, and HAR, each cell reports C/I for correct and incorrect traces; -- indicates no trace in that cell. Acc. is over every graded trace, a fraction."
	if o.CI {
		return datgCorrectnessCI(r, caption, models, labels)
	}
	g := grid{Caption: caption + coverageNote(r), Wide: true, Keys: 1,
		Groups: [][]span{{{"", 2}}}, Header: []string{"Pair", "Diff."}, Align: "ll"}
	for _, model := range models {
		g.Groups[0] = append(g.Groups[0], span{labels[model], 4})
		g.Header = append(g.Header, "Acc.", "CAR", "PMF", "HAR")
		g.Align += "cccc"
	}
	return pairBlocks(r, g, levelShort, func(cell func(model string) []any) []string {
		var line []string
		for _, model := range models {
			row := cell(model)
			if row == nil {
				line = append(line, "--", "--", "--", "--")
				continue
			}
			line = append(line, frac(row[r.col("acc")], 3))
			for _, m := range datgMetrics {
				line = append(line, frac(row[r.col(m.col+"_c")], 3)+"/"+frac(row[r.col(m.col+"_i")], 3))
			}
		}
		return line
	})
}

// datgCorrectnessCI is datgCorrectness with --ci: a part per model, a
// column per mean (C and I apart), each cell with its interval.
func datgCorrectnessCI(r *result, caption string, models []string, labels map[string]string) grid {
	caption += " A part per model; in brackets, Acc.'s 95% Wilson interval and each mean's 95% bootstrap interval (1,000 replicates of the cell's traces)."
	g := grid{Caption: caption + coverageNote(r), Wide: true, Keys: 1, PartLabel: "Model",
		Groups: [][]span{{{"", 3}}},
		Header: []string{"Pair", "Diff.", "Acc."}, Align: "llc"}
	for _, m := range datgMetrics {
		g.Groups[0] = append(g.Groups[0], span{m.name, 2})
		g.Header = append(g.Header, "C", "I")
		g.Align += "cc"
	}
	g.Parts = partPerModel(r, models, labels, levelShort, func(row []any) []string {
		if row == nil {
			return []string{"--", "--", "--", "--", "--", "--", "--"}
		}
		line := []string{interval(frac(row[r.col("acc")], 3), row[r.col("acc_low")], row[r.col("acc_high")], fracOf(3))}
		for _, m := range datgMetrics {
			for _, side := range []string{"_c", "_i"} {
				col := m.col + side
				line = append(line, interval(frac(row[r.col(col)], 3), row[r.col(col+"_lo")], row[r.col(col+"_hi")], fracOf(3)))
			}
		}
		return line
	})
	return g
}

// partPerModel lays out the appendix's pair blocks once per model, each a
// part titled by the model (and its aligner when the run has several):
// the --ci layouts, whose intervals leave no room for models side by side.
// cells gives a row's cells from the model's result row (nil when it has
// none).
func partPerModel(r *result, models []string, labels map[string]string, style levelStyle, cells func(row []any) []string) []part {
	var parts []part
	aligners := uniqueIn(r.Rows, r.col("aligner"))
	for _, model := range models {
		own := &result{Columns: r.Columns}
		for _, row := range r.Rows {
			if plain(row[r.col("model")]) == model {
				own.Rows = append(own.Rows, row)
			}
		}
		one := pairBlocks(own, grid{}, style, func(cell func(string) []any) []string { return cells(cell(model)) })
		for _, p := range one.Parts {
			aligner := p.Title
			p.Title = labels[model]
			if len(aligners) > 1 {
				p.Title += ", aligner " + aligner
			}
			parts = append(parts, p)
		}
	}
	return parts
}

// cellKey is a DATG cell: a language, level and model (by name).
type cellKey struct{ lang, level, model string }

// pairBlocks lays out a result as the appendix's DATG tables do: a part
// per aligner, a section per pair (en-en, en-fr, en-zh, ... in the
// appendix's order), a row per level named in style (hardest first); cells
// gives a row's cells from the result row of each model (nil when the
// model has none).
func pairBlocks(r *result, g grid, style levelStyle, cells func(cell func(model string) []any) []string) grid {
	iModel, iLevel, iLang := r.col("model"), r.col("level"), r.col("lang")
	eachAligner(r, &g, func(rows [][]any) {
		byCell := map[cellKey][]any{}
		for _, row := range rows {
			byCell[cellKey{plain(row[iLang]), plain(row[iLevel]), plain(row[iModel])}] = row
		}
		for _, lang := range paperOrder(uniqueIn(rows, iLang), appendixDATGLangs) {
			var s section
			for _, level := range hardestFirst(uniqueIn(rows, iLevel)) {
				line := []string{pairName(lang), style.name(level)}
				line = append(line, cells(func(model string) []any { return byCell[cellKey{lang, level, model}] })...)
				s.Rows = append(s.Rows, line)
			}
			g.add(s)
		}
	})
	return g
}

// datgCorrectnessMain is Table 2 (tab:datg_correctness): a row per level
// (Low, Medium, High) and All under a rule, each score as
// correct/incorrect with three decimals; with --ci each mean's bootstrap
// interval and the number of correct and incorrect traces.
func datgCorrectnessMain(r *result, o layoutOpts) grid {
	caption := "DATG scores under en-x. C/I denotes correct/incorrect reasoning traces, pooled over target languages and model scales."
	g := grid{Header: []string{"Difficulty", "CAR (C/I)", "PMF (C/I)", "HAR (C/I)"}, Align: "lccc"}
	if o.CI {
		caption += " In brackets, 95% bootstrap intervals (1,000 replicates of the traces); n is the number of correct/incorrect traces."
		g.Header = append(g.Header, "n (C/I)")
		g.Align += "r"
		g.Wide = true
	}
	g.Caption = caption + coverageNote(r)
	iLevel, iNC, iNI := r.col("level"), r.col("n_c"), r.col("n_i")
	eachAligner(r, &g, func(rows [][]any) {
		var levels, all section
		for _, row := range rows {
			line := []string{levelFull.name(plain(row[iLevel]))}
			for _, m := range datgMetrics {
				c, i := frac(row[r.col(m.col+"_c")], 3), frac(row[r.col(m.col+"_i")], 3)
				if o.CI {
					c = interval(c, row[r.col(m.col+"_c_lo")], row[r.col(m.col+"_c_hi")], fracOf(3))
					i = interval(i, row[r.col(m.col+"_i_lo")], row[r.col(m.col+"_i_hi")], fracOf(3))
				}
				line = append(line, c+"/"+i)
			}
			if o.CI {
				line = append(line, countText(row[iNC])+"/"+countText(row[iNI]))
			}
			if plain(row[iLevel]) == "all" {
				all.Rows = append(all.Rows, line)
			} else {
				levels.Rows = append(levels.Rows, line)
			}
		}
		for _, s := range []section{levels, all} {
			if len(s.Rows) > 0 {
				g.add(s)
			}
		}
	})
	return g
}

// referenceDiversity is the appendix's reference-side diversity table
// (tab:app_reference_diversity): best-other CAR ↑, PMF ↑ and HAR ↓ as
// mean ± standard deviation per level and Overall, three decimals; with
// --ci the number of references.
func referenceDiversity(r *result, o layoutOpts) grid {
	g := grid{Caption: "Reference-side diversity among answer-verified English reference derivations. Values are mean ± standard deviation over best-other reference-to-reference alignments.",
		Header: []string{"Difficulty"}, Align: "l"}
	for _, m := range datgMetrics {
		g.Header = append(g.Header, "Best-other "+m.name+" "+m.arrow)
		g.Align += "c"
	}
	if o.CI {
		g.Header = append(g.Header, "n")
		g.Align += "r"
	}
	iLevel, iN := r.col("level"), r.col("n")
	eachAligner(r, &g, func(rows [][]any) {
		var s section
		for _, row := range rows {
			line := []string{levelFull.name(plain(row[iLevel]))}
			for _, m := range datgMetrics {
				line = append(line, fixedN(row[r.col(m.col)], 3)+" ± "+fixedN(row[r.col(m.col+"_sd")], 3))
			}
			if o.CI {
				line = append(line, countText(row[iN]))
			}
			s.Rows = append(s.Rows, line)
		}
		g.add(s)
	})
	return g
}
