package tables

import (
	"slices"
	"strings"
)

// The layouts of the tables beyond the paper's own. They always show their
// intervals and n (layoutOpts.CI is for the paper's tables), and name their
// columns for a reader: the machine names stay in the csv.

// resourceGroups are accuracy_groups' groups in the figure's order: en-en
// (the pale reference bar), then high-, medium- and low-resource.
var resourceGroups = []string{"en", "HRL", "MRL", "LRL"}

// accuracyGroups is the accuracy figure's bars (Figure 2,
// fig:execution_gap) as a table: a block per model, a row per (level,
// direction), a column per resource group, each cell the mean of the
// group's per-language accuracies (%) and the Wilson interval of its
// pooled counts; "--" where a direction has no such group (en-en only has
// en).
func accuracyGroups(r *result, _ layoutOpts) grid {
	iGroup := r.col("resource_group")
	iAcc, iLo, iHi := r.col("accuracy"), r.col("wilson_low"), r.col("wilson_high")
	var groups []string
	present := uniqueIn(r.Rows, iGroup)
	for _, g := range resourceGroups {
		if slices.Contains(present, g) {
			groups = append(groups, g)
		}
	}
	for _, g := range present {
		if !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	header := []string{"Difficulty", "Direction"}
	for _, g := range groups {
		if g == "en" {
			g = "en (reference)"
		}
		header = append(header, g)
	}
	g := grid{
		Caption: "Final-answer accuracy across input-reasoning language settings, the bars of the accuracy figure: for each model, " +
			"difficulty and direction, the mean accuracy (%) over the target languages of each resource group (HRL, MRL, LRL: high-, " +
			"medium- and low-resource), with the 95% Wilson interval of the group's pooled traces (n, the problems times the group's " +
			"languages, is in the csv). en-en is the English reference, in no group.",
		Wide: true, TitleLabel: "Model", Keys: 1, Header: header, Align: "ll" + strings.Repeat("r", len(groups)),
	}
	blocks, _ := levelDirectionBlocks(r, levelFull, groups, func(row []any) (string, string) {
		return plain(row[iGroup]), interval(fixedN(row[iAcc], 1), row[iLo], row[iHi], pct(1))
	})
	for _, m := range modelsOf(r) {
		if s, ok := blocks[m]; ok {
			g.add(*s)
		}
	}
	return g
}

// alignerAgreement is how two aligners of the same (trace, DAG) pairs
// agree: a row per pair of aligners, with n, CAR's and PMF's mean absolute
// error and Pearson/Spearman correlation, and HAR's mean absolute error.
func alignerAgreement(r *result, _ layoutOpts) grid {
	get := func(row []any, col string) any { return row[r.col(col)] }
	g := grid{
		Caption: "Agreement of two aligners over the same (trace, reference DAG) pairs of the direction probe: mean absolute error (MAE) " +
			"and Pearson/Spearman correlation (r) of CAR and PMF, and MAE of HAR; n counts the pairs (PMF's, the pairs where both " +
			"aligners' PMF is defined).",
		Groups: [][]span{{{"", 2}, {"CAR", 2}, {"PMF", 3}, {"HAR", 1}}},
		Header: []string{"Aligners", "n", "MAE", "r", "n", "MAE", "r", "MAE"},
		Align:  "lrrcrrcr",
	}
	var s section
	for _, row := range r.Rows {
		s.Rows = append(s.Rows, []string{
			plain(get(row, "aligner_a")) + " vs " + plain(get(row, "aligner_b")),
			countText(get(row, "n")),
			frac(get(row, "car_mae"), 3), frac(get(row, "car_pearson"), 3) + "/" + frac(get(row, "car_spearman"), 3),
			countText(get(row, "n_pmf")),
			frac(get(row, "pmf_mae"), 3), frac(get(row, "pmf_pearson"), 3) + "/" + frac(get(row, "pmf_spearman"), 3),
			frac(get(row, "har_mae"), 3),
		})
	}
	g.add(s)
	return g
}
