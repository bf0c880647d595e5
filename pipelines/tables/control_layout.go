package tables

import (
	"cmp"
	"slices"
	"strings"

	"github.com/datg/datg/study"
)

// controlTable is Table 3: a row per method (a section per model when there
// are several); for each level the accuracy of each language and their
// average, then for each level the decoded tokens in millions, the retry
// rate and the mean trials per example, both over all languages.
func controlTable(r *result) grid {
	seeds := seedsOf(r)
	r = pooledSeeds(r)
	iMethod, iModel, iLevel, iLang := r.col("method"), r.col("model"), r.col("level"), r.col("lang")
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
	g := grid{Caption: "Test-time controls: accuracy (%) per language and their average (Avg); Tok. (M) is every decoded token (aborted attempts and scaffolds included) per sampling seed in millions, Retry% the share of examples that retried, Trials the mean attempts per example. " +
		"Base (datg control --method base) samples each example once as Loop-Retry's first trial does, without a checkpoint. " +
		poolNote(seeds),
		Super: []span{{"", 1}}, TexHeader: []string{"Method"}, Header: []string{"Method"}, Align: "l"}
	for _, l := range levels {
		g.Super = append(g.Super, span{levelLabel(l), len(langs) + 1})
		for _, lang := range append(slices.Clone(langs), "Avg") {
			g.TexHeader = append(g.TexHeader, lang)
			g.Header = append(g.Header, levelLabel(l)+" "+lang)
			g.Align += "c"
		}
	}
	for _, l := range levels {
		g.Super = append(g.Super, span{levelLabel(l), 3})
		for _, h := range []string{"Tok. (M)", "Retry%", "Trials"} {
			g.TexHeader = append(g.TexHeader, h)
			g.Header = append(g.Header, levelLabel(l)+" "+h)
			g.Align += "c"
		}
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
		for _, method := range uniqueIn(own, iMethod) {
			line := []string{methodLabel(method)}
			get := func(level, lang, col string, decimals int) string {
				row, ok := cell[key{method, model, level, lang}]
				if !ok {
					return "--"
				}
				return fixedN(row[r.col(col)], decimals)
			}
			for _, l := range levels {
				for _, lang := range langs {
					line = append(line, get(l, lang, "accuracy", 1))
				}
				line = append(line, get(l, "all", "accuracy", 1))
			}
			for _, l := range levels {
				line = append(line, get(l, "all", "tokens_m", 3), get(l, "all", "retry_pct", 1), get(l, "all", "trials", 2))
			}
			s.Rows = append(s.Rows, line)
		}
		g.Sections = append(g.Sections, s)
	}
	return g
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
			parts = append(parts, labels[k.model]+" "+levelLabel(k.level)+": "+strings.Join(counts[k], ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " Caution, the methods ran different examples (" + strings.Join(parts, "; ") + "): run datg control --method base and every control on the same scope."
}
