package tables

import "testing"

func TestHumanEvalLayout(t *testing.T) {
	r := &result{Columns: []string{"aligner", "lang", "n", "node_valid", "edge_valid", "car_mae", "car_pearson", "car_spearman",
		"pmf_mae", "pmf_pearson", "pmf_spearman", "har_candidates", "har_judged", "har_precision_any", "har_precision_all"}}
	r.Rows = [][]any{
		{"llm", "sw", int64(60), 97.7, 95.3, 0.034, 0.965, 0.935, 0.014, 0.985, 0.904, int64(40), int64(40), 100.0, 97.5},
		{"llm", "all", int64(240), 97.5, 96.5, 0.049, 0.963, 0.955, 0.048, 0.955, 0.954, int64(162), int64(160), 90.1, 85.0},
	}
	g := humanEval(r, layoutOpts{})
	md, tex := string(g.markdown("")), string(g.latex("t", ""))
	wantContains(t, "markdown", md, "| sw | 60 | 97.7 | 95.3 | .034 | .965/.935 | .014 | .985/.904 | 100.0 | 97.5 |",
		"| All | 240 | 97.5 | 96.5 | .049 | .963/.955 | .048 | .955/.954 | 90.1 | 85.0 |", "| Lang. | n | DAG Node | DAG Edge | CAR MAE | CAR r | PMF MAE | PMF r | HAR any | HAR all |",
		"over the judged candidates (160 of 162 candidates judged)")
	wantContains(t, "latex", tex, `\multicolumn{2}{c}{DAG}`, `Lang. & n & Node & Edge`, `\multicolumn{2}{c}{HAR}`, `& any & all`)
	a := &result{Columns: []string{"layer", "items", "observed", "expected", "kappa"}, Rows: [][]any{
		{"node", int64(7), 0.857, 0.653, 0.753}, {"edge", int64(3), 0.667, 0.667, 0.770}, {"status", int64(7), 0.9, 0.4, 0.938}, {"harmful", int64(4), 0.75, 0.5, 0.798}}}
	wantContains(t, "the agreement's markdown", string(humanAgreement(a, layoutOpts{}).markdown("")),
		"| Agreement | Node | Edge | Node-event | HAR |", "| Pooled Cohen's kappa | .753 | .770 | .938 | .798 |")

}
