package tables

// humanEval is the first part of the appendix table "Human evaluation of
// DATG": a row per language and All (a section per aligner when there are
// several): n, DAG node and edge validity (%), CAR and PMF MAE and
// Pearson/Spearman against the human alignments, HAR precision (%).
func humanEval(r *result) grid {
	g := grid{Caption: "Human evaluation of DATG. DAG validity in percent; CAR/PMF: MAE and Pearson/Spearman against the human alignments; HAR: precision of the harmful-action candidates (%).",
		Super:     []span{{"", 2}, {"DAG", 2}, {"CAR", 2}, {"PMF", 2}, {"", 1}},
		TexHeader: []string{"Lang.", "n", "Node", "Edge", "MAE", "r", "MAE", "r", "HAR"},
		Header:    []string{"Lang.", "n", "DAG node", "DAG edge", "CAR MAE", "CAR r", "PMF MAE", "PMF r", "HAR"},
		Align:     "lrrrcccc" + "r"}
	eachAligner(r, func(title string, rows [][]any) {
		s := section{Title: title}
		for _, row := range rows {
			get := func(col string) any { return row[r.col(col)] }
			lang := plain(get("lang"))
			if lang == "all" {
				lang = "All"
			}
			s.Rows = append(s.Rows, []string{lang, plain(get("n")), fixedN(get("node_valid"), 1), fixedN(get("edge_valid"), 1),
				frac(get("car_mae"), 3), frac(get("car_pearson"), 3) + "/" + frac(get("car_spearman"), 3),
				frac(get("pmf_mae"), 3), frac(get("pmf_pearson"), 3) + "/" + frac(get("pmf_spearman"), 3),
				fixedN(get("har_precision"), 1)})
		}
		g.Sections = append(g.Sections, s)
	})
	return g
}

// humanAgreement is the table's second part: pooled Cohen's kappa per
// annotation layer, in one row.
func humanAgreement(r *result) grid {
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
	g.Sections = []section{{Rows: [][]string{line}}}
	return g
}
