package tables

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/datg/datg/study"
)

// controlTable is Table 3 (tab:control_main): a row per method (Base,
// Loop-Retry, Formula-Retry; a section per model when there are several);
// under "Accuracy ↑", for each level the accuracy of each language and
// their average, the best of each column in bold; under "Decoded Cost",
// for each level the decoded tokens in millions, the retry rate and the
// mean trials per example, both over all languages. With --ci each
// accuracy has its Wilson interval.
func controlTable(r *result, o layoutOpts) grid {
	seeds := seedsOf(r)
	r = pooledSeeds(r)
	iMethod, iModel, iLevel, iLang := r.col("method"), r.col("model"), r.col("level"), r.col("lang")
	iLo, hasLo := r.colOK("wilson_low")
	_, hasRetryLo := r.colOK("retry_low")
	_, hasRetryHi := r.colOK("retry_high")
	hasRetryCI := hasRetryLo && hasRetryHi
	iHi, hasHi := r.colOK("wilson_high")
	labels := modelLabels(r)
	levels := easiestFirst(uniqueIn(r.Rows, iLevel))
	var langs []string
	for _, l := range studyOrder(uniqueIn(r.Rows, iLang)) {
		if l != "all" {
			langs = append(langs, l)
		}
	}
	type key struct{ method, model, level, lang string }
	cell := map[key][]any{}
	for _, row := range r.Rows {
		cell[key{plain(row[iMethod]), plain(row[iModel]), plain(row[iLevel]), plain(row[iLang])}] = row
	}
	caption := "Test-time control results: accuracy (%) per language and their average (Avg), the best of each column in bold. " +
		"Tok. (M) is every decoded token (aborted attempts and scaffolds included) per sampling seed in millions, excluding prompt tokens; " +
		"Retry% the percentage of examples that trigger at least one retry; Trials the average number of generation attempts per example. " +
		"Base (datg control --method base) samples each example once as Loop-Retry's first trial does, without a checkpoint. "
	if o.CI {
		caption += "In brackets, 95% Wilson intervals. "
	}
	caption += poolNote(seeds)
	accCols, costCols := len(levels)*(len(langs)+1), len(levels)*3
	g := grid{Caption: caption, Wide: true, TitleLabel: "Model",
		Groups: [][]span{{{"", 1}, {"Accuracy ↑", accCols}, {"Decoded Cost", costCols}}, {{"", 1}}},
		Header: []string{"Method"}, Align: "l"}
	for _, l := range levels {
		g.Groups[1] = append(g.Groups[1], span{levelShort.name(l), len(langs) + 1})
		g.Header = append(g.Header, append(slices.Clone(langs), "Avg")...)
		g.Align += strings.Repeat("r", len(langs)+1)
	}
	for _, l := range levels {
		g.Groups[1] = append(g.Groups[1], span{levelShort.name(l), 3})
		g.Header = append(g.Header, "Tok. (M)", "Retry%", "Trials")
		g.Align += "rrr"
	}
	g.Caption += uneven(r) + noBase(r)
	models := uniqueIn(r.Rows, iModel)
	for _, model := range models {
		s := section{}
		if len(models) > 1 {
			s.Title = labels[model]
		}
		var own [][]any // the model's rows: a method it did not run gets no row
		for _, row := range r.Rows {
			if plain(row[iModel]) == model {
				own = append(own, row)
			}
		}
		var accuracies [][]float64 // per row, each accuracy column's value (NaN: none)
		for _, method := range methodOrder(uniqueIn(own, iMethod)) {
			line := []string{methodLabel(method)}
			var acc []float64
			get := func(level, lang, col string, decimals int) string {
				row, ok := cell[key{method, model, level, lang}]
				if !ok {
					return "--"
				}
				return fixedN(row[r.col(col)], decimals)
			}
			for _, l := range levels {
				for _, lang := range append(slices.Clone(langs), "all") {
					v := get(l, lang, "accuracy", 1)
					f, err := strconv.ParseFloat(v, 64)
					if err != nil {
						f = math.NaN()
					}
					acc = append(acc, f)
					if o.CI && hasLo && hasHi {
						if row, ok := cell[key{method, model, l, lang}]; ok {
							v = interval(v, row[iLo], row[iHi], pct(1))
						}
					}
					line = append(line, v)
				}
			}
			for _, l := range levels {
				retry := get(l, "all", "retry_pct", 1)
				if row, ok := cell[key{method, model, l, "all"}]; ok && o.CI && hasRetryCI {
					retry = interval(retry, row[r.col("retry_low")], row[r.col("retry_high")], pct(1))
				}
				line = append(line, get(l, "all", "tokens_m", 3), retry, get(l, "all", "trials", 2))
			}
			s.Rows = append(s.Rows, line)
			accuracies = append(accuracies, acc)
		}
		s.Bold = bestInColumns(accuracies, 1)
		g.add(s)
	}
	return g
}

// bestInColumns marks, in each column of values (rows of equal length;
// NaN for none), the cells that hold the column's largest value when some
// other row's is smaller, as the paper bolds Table 3's best accuracies:
// ties are all bold, and a column where every method scores the same has
// no best. Columns are offset by first in the returned cells.
func bestInColumns(values [][]float64, first int) map[cellAt]bool {
	bold := map[cellAt]bool{}
	if len(values) == 0 {
		return bold
	}
	for c := range values[0] {
		best, worse := math.Inf(-1), false
		for _, row := range values {
			if v := row[c]; !math.IsNaN(v) {
				best = math.Max(best, v)
			}
		}
		for _, row := range values {
			worse = worse || !math.IsNaN(row[c]) && row[c] < best
		}
		if !worse {
			continue
		}
		for r, row := range values {
			if row[c] == best {
				bold[cellAt{r, first + c}] = true
			}
		}
	}
	return bold
}

// methodOrder puts methods in Table 3's row order (Base, Loop-Retry,
// Formula-Retry), others after as they come.
func methodOrder(methods []string) []string {
	rank := func(m string) int {
		if i := slices.Index(table3Methods, study.Method(m)); i >= 0 {
			return i
		}
		return len(table3Methods)
	}
	out := slices.Clone(methods)
	slices.SortStableFunc(out, func(a, b string) int { return rank(a) - rank(b) })
	return out
}

// poolNote says the accuracies pool the seeds and where the per-seed ones
// are.
func poolNote(seeds string) string {
	if seeds == "" {
		return ""
	}
	return "Accuracies pool the seeds " + seeds + "; the csv has a row per seed too (the paper's accuracies, multiples of 0.8 at 125 problems, look like one seed's)."
}

// pooledSeeds keeps the rows pooled over the seeds (seed "all"), which the
// layout shows; the per-seed rows are in the csv.
func pooledSeeds(r *result) *result {
	i, ok := r.colOK("seed")
	if !ok {
		return r
	}
	out := &result{Columns: r.Columns}
	for _, row := range r.Rows {
		if plain(row[i]) == "all" {
			out.Rows = append(out.Rows, row)
		}
	}
	return out
}

// seedsOf lists the seeds a control result has rows for ("42, 215, 316").
func seedsOf(r *result) string {
	i, ok := r.colOK("seed")
	if !ok {
		return ""
	}
	var seeds []string
	for _, s := range uniqueIn(r.Rows, i) {
		if s != "all" {
			seeds = append(seeds, s)
		}
	}
	slices.SortFunc(seeds, func(a, b string) int { return cmp.Compare(len(a), len(b))*2 + cmp.Compare(a, b) })
	return strings.Join(seeds, ", ")
}

// methodLabel is how the paper names a method.
func methodLabel(m string) string {
	switch study.Method(m) {
	case study.ControlBase:
		return "Base"
	case study.LoopRetry:
		return "Loop-Retry"
	case study.FormulaRetry:
		return "Formula-Retry"
	}
	return m
}

// noBase says, for the caption, which models have controls but no Base
// row: Table 3's Base is datg control --method base alone, never the
// direction probe's traces.
func noBase(r *result) string {
	iMethod, iModel := r.col("method"), r.col("model")
	labels := modelLabels(r)
	var lacking []string
	for _, model := range uniqueIn(r.Rows, iModel) {
		has := false
		for _, row := range r.Rows {
			has = has || plain(row[iModel]) == model && study.Method(plain(row[iMethod])) == study.ControlBase
		}
		if !has {
			lacking = append(lacking, labels[model])
		}
	}
	if len(lacking) == 0 {
		return ""
	}
	return " No Base for " + strings.Join(lacking, ", ") + ": run datg control --method base on the controls' scope."
}

// uneven warns, for the caption, when the methods of a model and level ran
// different numbers of examples: their numbers then do not compare.
func uneven(r *result) string {
	iMethod, iModel, iLevel, iLang, iN := r.col("method"), r.col("model"), r.col("level"), r.col("lang"), r.col("n")
	labels := modelLabels(r)
	type key struct{ model, level string }
	counts := map[key][]string{} // -> "method n"
	var keys []key
	differ := map[key]bool{}
	first := map[key]string{}
	for _, row := range r.Rows {
		if plain(row[iLang]) != "all" {
			continue
		}
		k := key{plain(row[iModel]), plain(row[iLevel])}
		n := plain(row[iN])
		if _, ok := counts[k]; !ok {
			keys = append(keys, k)
			first[k] = n
		}
		counts[k] = append(counts[k], methodLabel(plain(row[iMethod]))+" "+n)
		if n != first[k] {
			differ[k] = true
		}
	}
	var parts []string
	for _, k := range keys {
		if differ[k] {
			parts = append(parts, labels[k.model]+" "+levelShort.name(k.level)+": "+strings.Join(counts[k], ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " Caution, the methods ran different examples (" + strings.Join(parts, "; ") + "): run datg control --method base and every control on the same scope."
}
