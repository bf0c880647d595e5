package tables

// outputTable is one table datg tables writes: everything about it but its
// numbers, which come from its query, sql/tables/<Name>.sql.
type outputTable struct {
	// Name is the query's file name without .sql, and the base name of
	// the outputs (<Name>.csv, .md, .tex; .pdf, .svg and .png with a
	// Figure).
	Name string
	// Needs are the tables derived from traces that the query reads
	// (inputs.go): the table is skipped while one is missing and refused
	// while one is stale. Declared for every table, []string{} when none,
	// so a forgotten entry is a test failure, not a silently skipped check.
	// A table that needs scores gets the note on problems short of DAGs.
	Needs []string
	// Reads is the traces the query reads: its inputs are checked over
	// those traces only, so a table of one design is never held back by
	// another's traces (controls not yet graded leave the probe tables
	// as they are). The probe's tables also say the design and n in their
	// captions.
	Reads traceScope
	// Layout arranges the result as the paper does; long shows its rows as
	// they come.
	Layout layout
	// Figure, when set, also draws the result (SVG and PNG).
	Figure figure
	// Paper is where the paper shows the table ("Table 1", with its
	// label in the paper's source); empty for the tables beyond the paper.
	// Captions and tables/index.md say it.
	Paper paperRef
}

// paperRef is a table or figure of the paper: its number as printed and
// its \label in the paper's source.
type paperRef struct{ Number, Label string }

// String is "Table 1 (tab:datg_main)"; "" for none.
func (p paperRef) String() string {
	if p.Number == "" {
		return ""
	}
	return p.Number + " (" + p.Label + ")"
}

// figure draws a table's result as a figure: its file in each of
// figureFormats, by extension.
type figure func(*result) (map[string][]byte, error)

// registry is every output table, in the paper's order: the main text's
// figure and tables, the appendix's, then the tables datg adds to check its
// own tools. TestRegistryMatchesQueries checks that it names each query in
// sql/tables once, and nothing else.
var registry = []outputTable{
	// Main text: Figure 2, Tables 1, 2 and 3.
	{Name: "accuracy_groups", Needs: []string{"answers"}, Reads: probeTraces, Layout: accuracyGroups, Figure: accuracyFigure, Paper: paperRef{"Figure 2", "fig:execution_gap"}},
	{Name: "datg_main", Needs: []string{"answers", "scores"}, Reads: probeTraces, Layout: datgMain, Paper: paperRef{"Table 1", "tab:datg_main"}},
	{Name: "datg_correctness_main", Needs: []string{"answers", "scores"}, Reads: probeTraces, Layout: datgCorrectnessMain, Paper: paperRef{"Table 2", "tab:datg_correctness"}},
	{Name: "control", Needs: []string{"answers", "trials"}, Reads: controlTraces, Layout: controlTable, Paper: paperRef{"Table 3", "tab:control_main"}},
	// Appendix.
	{Name: "compliance", Needs: []string{"compliance"}, Reads: probeTraces, Layout: compliance, Paper: paperRef{"Table 4", "tab:app_cot_compliance"}},
	{Name: "reference_diversity", Needs: []string{"answers", "scores"}, Reads: referenceTraces, Layout: referenceDiversity, Paper: paperRef{"Table 5", "tab:app_reference_diversity"}},
	{Name: "human_eval", Needs: []string{"annotations", "scores"}, Reads: allTraces, Layout: humanEval, Paper: paperRef{"Table 6, top", "tab:app_human_eval"}},
	{Name: "human_agreement", Needs: []string{"annotations"}, Reads: allTraces, Layout: humanAgreement, Paper: paperRef{"Table 6, bottom", "tab:app_human_eval"}},
	{Name: "direction_accuracy", Needs: []string{"answers"}, Reads: probeTraces, Layout: directionAccuracy, Paper: paperRef{"Table 7", "tab:app_direction_accuracy_full"}},
	{Name: "datg_full", Needs: []string{"answers", "scores"}, Reads: probeTraces, Layout: datgFull, Paper: paperRef{"Table 8", "tab:app_datg_full"}},
	{Name: "datg_correctness", Needs: []string{"answers", "scores"}, Reads: probeTraces, Layout: datgCorrectness, Paper: paperRef{"Table 9", "tab:app_datg_correctness_full"}},
	// datg's checks of its own tools.
	{Name: "grader_agreement", Needs: []string{"verdicts"}, Reads: probeTraces, Layout: graderAgreement},
	{Name: "compliance_agreement", Needs: []string{"compliance", "detections"}, Reads: probeTraces, Layout: complianceAgreement},
	{Name: "aligner_agreement", Needs: []string{"scores"}, Reads: probeTraces, Layout: alignerAgreement},
}

// registered is the registry's entry for a query, if it has one.
func registered(name string) (outputTable, bool) {
	for _, t := range registry {
		if t.Name == name {
			return t, true
		}
	}
	return outputTable{}, false
}

// tableNames are the registry's names, in its order.
func tableNames() []string {
	names := make([]string, len(registry))
	for i, t := range registry {
		names[i] = t.Name
	}
	return names
}
