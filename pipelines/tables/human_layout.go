package tables

import (
	"fmt"
	"strings"
)

// humanEval is the first part of the appendix table "Human evaluation of
// DATG" (tab:app_human_eval): a row per language in the paper's order (fr,
// sw, bn, te) and All under a rule (a part per aligner): n, DAG node and edge validity (%), CAR and PMF MAE and
// Pearson/Spearman against the human alignments, and HAR precision (%)
// under the two confirmation rules, any annotator (the paper's figure is
// comparable with it) and every annotator (datg's stricter variant). The
// caption says how many candidates the precision is over, as the paper's
// does ("HAR precision is over 162 candidates").
func humanEval(r *result, o layoutOpts) grid {
	g := grid{
		Groups: [][]span{{{"", 2}, {"DAG", 2}, {"CAR", 2}, {"PMF", 2}, {"HAR", 2}}},
		Header: []string{"Lang.", "n", "Node", "Edge", "MAE", "r", "MAE", "r", "any", "all"},
		Align:  "lrrrcccc" + "rr"}
	var over []string
	iLang := r.col("lang")
	eachAligner(r, &g, func(rows [][]any) {
		var langs, all section
		for _, row := range rows {
			if plain(row[iLang]) == "all" {
				all.Rows = append(all.Rows, humanEvalRow(r, row, "All", o.CI))
				n := fmt.Sprintf("%s of %s candidates judged", plain(row[r.col("har_judged")]), plain(row[r.col("har_candidates")]))
				if len(uniqueIn(r.Rows, r.col("aligner"))) > 1 {
					n = "aligner " + g.Parts[len(g.Parts)-1].Title + ": " + n
				}
				over = append(over, n)
			}
		}
		// The paper's languages first (fr, sw, bn, te), the others after.
		byLang := map[string][]any{}
		var present []string
		for _, row := range rows {
			if l := plain(row[iLang]); l != "all" {
				byLang[l] = row
				present = append(present, l)
			}
		}
		for _, l := range paperOrder(present, humanEvalLangs) {
			langs.Rows = append(langs.Rows, humanEvalRow(r, byLang[l], l, o.CI))
		}
		for _, s := range []section{langs, all} {
			if len(s.Rows) > 0 {
				g.add(s)
			}
		}
	})
	g.Caption = "Human evaluation of DATG. DAG validity in percent; CAR/PMF: MAE and Pearson/Spearman against the human alignments; " +
		"HAR: precision (%) of the harmful-action candidates of all three lists, a candidate confirmed when any annotator who judged it says harmful (any) " +
		"or when every one does (all): with two annotators, any way of settling their disagreements gives a figure between the two " +
		"(the paper's 90.1, 146 of 162 candidates, does not say which it used)."
	if len(over) > 0 {
		g.Caption += " HAR precision is over the judged candidates (" + strings.Join(over, "; ") + ")."
	}
	if o.CI {
		g.Caption += " In brackets, 95% Wilson intervals of the validity (over the judgments) and of the precision (over the judged candidates)."
	}
	return g
}

// humanAgreement is the table's second part: pooled Cohen's kappa per
// annotation layer, in one row.
func humanAgreement(r *result, _ layoutOpts) grid {
	labels := map[string]string{"node": "Node", "edge": "Edge", "status": "Node-event", "harmful": "HAR"}
	g := grid{Caption: "Inter-annotator agreement of the human evaluation (pooled Cohen's kappa).",
		Header: []string{"Agreement"}, Align: "l"}
	line := []string{"Pooled Cohen's kappa"}
	for _, row := range r.Rows {
		layer := plain(row[r.col("layer")])
		name, ok := labels[layer]
		if !ok {
			name = layer
		}
		g.Header = append(g.Header, name)
		g.Align += "c"
		line = append(line, frac(row[r.col("kappa")], 3))
	}
	g.add(section{Rows: [][]string{line}})
	return g
}

// humanEvalRow is a row of the human evaluation, its language shown as
// lang; with ci, each percentage with its Wilson interval.
func humanEvalRow(r *result, row []any, lang string, ci bool) []string {
	get := func(col string) any { return row[r.col(col)] }
	percent := func(col string) string {
		v := fixedN(get(col), 1)
		lo, okLo := r.colOK(col + "_low")
		hi, okHi := r.colOK(col + "_high")
		if ci && okLo && okHi {
			v = interval(v, row[lo], row[hi], pct(1))
		}
		return v
	}
	return []string{lang, plain(get("n")), percent("node_valid"), percent("edge_valid"),
		frac(get("car_mae"), 3), frac(get("car_pearson"), 3) + "/" + frac(get("car_spearman"), 3),
		frac(get("pmf_mae"), 3), frac(get("pmf_pearson"), 3) + "/" + frac(get("pmf_spearman"), 3),
		percent("har_precision_any"), percent("har_precision_all")}
}
