package tables

import (
	"context"
	"crypto/md5"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/google/go-cmp/cmp"
)

func pf(v float64) *float64 { return &v }

// writeScoredRun adds alignments and scores to writeRun's graded run: two
// DAGs per en-en/en-x trace under one aligner, and an edgeless DAG.
func writeScoredRun(t *testing.T) string {
	t.Helper()
	dir := writeRun(t, true)
	scores := []schema.Score{
		{TraceID: "a", DagID: "low-0/r0", Aligner: "symbolic", RefIndex: 0, CAR: 0.75, PMF: pf(0.5), HAR: 0.25, Best: true},
		{TraceID: "a", DagID: "low-0/r1", Aligner: "symbolic", RefIndex: 1, CAR: 0.5, PMF: pf(1), HAR: 0},
		{TraceID: "b", DagID: "low-0/r0", Aligner: "symbolic", RefIndex: 0, CAR: 0.4, PMF: pf(0.25), HAR: 0.125, Best: true},
		{TraceID: "d", DagID: "medium-0/r0", Aligner: "symbolic", RefIndex: 0, CAR: 1, PMF: nil, HAR: 0, Best: true},
	}
	var aligns []schema.Alignment
	for i, s := range scores {
		a := schema.Alignment{TraceID: s.TraceID, DagID: s.DagID, Aligner: s.Aligner, Status: "ok", Raw: fmt.Sprintf("{%d}", i)}
		aligns = append(aligns, a)
		// What datg score records of the alignment it scored.
		scores[i].AlignmentHash = fmt.Sprintf("%x", md5.Sum([]byte(a.Raw)))
	}
	if err := store.WriteAll(dir, schema.Alignments, store.Meta{}, aligns); err != nil {
		t.Fatal(err)
	}
	if err := store.WriteAll(dir, schema.Scores, store.Meta{}, scores); err != nil {
		t.Fatal(err)
	}
	// The DAGs the alignments were made on, as they are now.
	ds := []schema.DAG{
		{DagID: "low-0/r0", ProblemID: "low-0", RefIndex: 0, Valid: true},
		{DagID: "low-0/r1", ProblemID: "low-0", RefIndex: 1, Valid: true},
		{DagID: "medium-0/r0", ProblemID: "medium-0", RefIndex: 0, Valid: true},
	}
	if err := store.WriteAll(dir, schema.DAGs, store.Meta{}, ds); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDATGLayouts(t *testing.T) {
	dir := writeScoredRun(t)
	if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	checks := map[string][]string{
		"datg_full.md": {
			"| Pair | Difficulty | CAR 8B | CAR org/my\\_model&amp;v2 | PMF 8B | PMF org/my\\_model&amp;v2 | HAR 8B | HAR org/my\\_model&amp;v2 |",
			// The paper's level names in this table (Medium), and the pair
			// on every row: a column, never a block heading.
			"| en-en | Medium | -- | -- | -- | -- | -- | -- |",
			"| en-en | Low | -- | .750 | -- | .500 | -- | .250 |",
			"| en-sw | Low | -- | .400 | -- | .250 | -- | .125 |",
			// An edgeless DAG has no PMF: the cell says so instead of 0.
			"| en-te | Medium | 1.000 | -- | -- | -- | .000 | -- |",
		},
		"datg_full.tex": {`\multicolumn{2}{c}{CAR}`, ` & Low & -- & .750 & -- & .500 & -- & .250 \\`},
		"datg_main.md":  {"| HRL | en | --/.75 | --/-- | --/.50 | --/-- | --/.25 | --/-- |", "| LRL | te | --/-- | 1.00/-- |"},
		"datg_correctness.md": {
			"| en-en | Low | -- | -- | -- | -- | 1.000 | .750/-- | .500/-- | .250/-- |",
			"| en-sw | Low | -- | -- | -- | -- | .000 | --/.400 | --/.250 | --/.125 |",
			"| en-te | Med. | 1.000 | 1.000/-- | --/-- | .000/-- | -- |",
		},
		"datg_correctness_main.md": {"| Low | --/.400 | --/.250 | --/.125 |", "| Medium | 1.000/-- | --/-- | .000/-- |", "| All | 1.000/.400 | --/.250 | .000/.125 |"},
	}
	for file, wants := range checks {
		wantContains(t, file, readOutput(t, dir, file), wants...)
	}
}

// Levels keep the paper's order whatever order the rows come in, with Top
// beside them when a study includes it: Table 1's columns read Low to Top,
// the appendix rows Top to Low.
func TestDATGLevelOrder(t *testing.T) {
	r := &result{Columns: []string{"aligner", "model", "model_label", "lang", "resource", "level", "car", "pmf", "har"}}
	for _, level := range []string{"top", "low", "high", "medium"} {
		r.Rows = append(r.Rows, []any{"symbolic", "Qwen/Qwen3-8B", "8B", "en", "HRL", level, 0.5, 0.5, 0.0})
	}
	if got, want := datgMain(r, layoutOpts{}).mdHeader()[2:6], []string{"CAR ↑ Low", "CAR ↑ Med.", "CAR ↑ High", "CAR ↑ Top"}; !slices.Equal(got, want) {
		t.Errorf("Table 1 columns %q, want %q", got, want)
	}
	var rows []string
	for _, s := range datgFull(r, layoutOpts{}).sections() {
		for _, line := range s.Rows {
			rows = append(rows, line[1])
		}
	}
	if want := []string{"Top", "High", "Medium", "Low"}; !slices.Equal(rows, want) {
		t.Errorf("appendix rows %q, want %q", rows, want)
	}
}

// The compliance table groups its columns by model (in the query's order)
// and orders levels within each, however the rows interleave.
func TestComplianceColumnOrder(t *testing.T) {
	r := &result{Columns: []string{"model", "model_label", "level", "lang", "pct", "wilson_low", "wilson_high"}}
	for _, c := range [][2]string{{"4B", "high"}, {"8B", "low"}, {"4B", "low"}, {"8B", "high"}, {"4B", "medium"}, {"8B", "medium"}} {
		r.Rows = append(r.Rows, []any{"Qwen/Qwen3-" + c[0], c[0], c[1], "sw", 50.0, 40.0, 60.0})
	}
	want := []string{"Pair", "4B Low", "4B Med.", "4B High", "8B Low", "8B Med.", "8B High"}
	if got := compliance(r, layoutOpts{}).mdHeader(); !slices.Equal(got, want) {
		t.Errorf("columns %q, want %q", got, want)
	}
}

// Scores are refused unless made from alignments of the current trace
// text and DAG content, by the very alignments the run holds, and every
// scorable alignment has one. The red team's review found that alignments
// made again (after a DAG changed) with score not rerun left scores
// computed from the old alignments while every lineage check passed: a
// score records the alignment it was computed from.
func TestRefusesStaleScores(t *testing.T) {
	alignments := func(change func([]schema.Alignment) []schema.Alignment) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) { rewrite(t, dir, schema.Alignments, change) }
	}
	cases := []struct {
		name   string
		change func(t *testing.T, dir string)
		want   string
	}{
		{"older trace text", alignments(func(a []schema.Alignment) []schema.Alignment {
			a[0].TextHash = "older"
			return a
		}), "1 scores of probe traces come from alignments of an older trace text"},
		{"alignment without scores", alignments(func(a []schema.Alignment) []schema.Alignment {
			return append(a, schema.Alignment{TraceID: "b", DagID: "low-0/r1", Aligner: "symbolic", Status: "ok"})
		}), "1 alignments of probe traces have no scores row); run datg align and datg score"},
		// A DAG rebuilt or re-imported differently since.
		{"changed DAG", func(t *testing.T, dir string) {
			rewrite(t, dir, schema.DAGs, func(d []schema.DAG) []schema.DAG {
				d[0].ContentHash = "rebuilt"
				return d
			})
		}, "come from alignments of a DAG that has changed since"},
		{"alignment made again", alignments(func(a []schema.Alignment) []schema.Alignment {
			a[0].Raw = "{made again}"
			return a
		}), "1 scores of probe traces were computed from alignments made again since"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeScoredRun(t)
			c.change(t, dir)
			_, err := Run(context.Background(), Config{Data: dir})
			wantRefusal(t, err, ErrStale, c.want)
		})
	}
}

// Issue 13: a trace whose alignment failed vanished from every DATG table,
// and datg_correctness computed Acc over the scored traces only, leaning
// towards the traces that aligned. Acc is now over every graded trace of
// the cell, the tables carry n_graded and n_scored, the captions state the
// coverage, and datg tables warns below 95%.
func TestDATGCoverage(t *testing.T) {
	dir := writeScoredRun(t)
	// e is graded, never scored.
	rewrite(t, dir, schema.Traces, func(traces []schema.Trace) []schema.Trace {
		return append(traces, trace("e", "org/my_model&v2", "low", "en", "sw", "en-x", "low-1"))
	})
	rewrite(t, dir, schema.Answers, func(answers []schema.Answer) []schema.Answer {
		return append(answers, schema.Answer{TraceID: "e", Correct: true})
	})

	var warned strings.Builder
	if _, err := Run(context.Background(), Config{Data: dir, Stderr: &warned}); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string { return readOutput(t, dir, name) }
	// b (wrong, scored) and e (right, not scored): Acc 0.5 over both; the
	// DATG columns are b's (n_graded 2, n_scored 1), and so are their
	// bootstrap bounds (one trace: the bounds are its CAR).
	wantContains(t, "datg_correctness.csv", read("datg_correctness.csv"), "symbolic,org/my_model&v2,org/my_model&v2,low,sw,1,0.5,", ",2,1,,,0.4,0.4,")
	for _, name := range []string{"datg_full.csv", "datg_main.csv"} {
		if csv := read(name); !strings.HasSuffix(strings.SplitN(csv, "\n", 2)[0], "n_graded,n_scored") {
			t.Errorf("%s lacks n_graded and n_scored:\n%s", name, csv)
		}
	}
	for _, name := range []string{"datg_full.md", "datg_main.md", "datg_correctness.md", "datg_correctness_main.md"} {
		wantContains(t, name+" (its caption states the coverage)", read(name), "Scored traces out of graded ones: symbolic", "below 95%")
	}
	wantContains(t, "the coverage warning", warned.String(), "under 95% of their graded traces", "symbolic org/my_model&v2 low sw 50.0% (1 of 2)")
}

// Problems short of the paper's five valid reference DAGs are listed, with
// their counts, in the captions of the tables that rest on DAGs.
func TestDAGShortfallInCaptions(t *testing.T) {
	dir := writeScoredRun(t) // low-0 has 2 valid DAGs, medium-0 one
	if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"datg_full.md", "datg_main.tex", "datg_correctness.md", "datg_correctness_main.md"} {
		wantContains(t, name, readOutput(t, dir, name), "2 problems have fewer than 5 valid reference DAGs (valid DAGs in parentheses): low-0 (2), medium-0 (1).")
	}
	if strings.Contains(readOutput(t, dir, "direction_accuracy.md"), "reference DAGs") {
		t.Error("direction_accuracy does not rest on DAGs but its caption lists them")
	}
}

// The DATG layouts give each aligner its part of the table (a float of its
// own in LaTeX, an Aligner column in Markdown), aligners in the order the
// query gives them; one aligner makes one part and no Aligner column.
func TestSectionPerAligner(t *testing.T) {
	r := &result{Columns: []string{"aligner", "model", "model_label", "lang", "resource", "level",
		"car", "pmf", "har", "car_c", "car_i", "pmf_c", "pmf_i", "har_c", "har_i", "n_c", "n_i"}}
	for _, a := range []string{"symbolic", "llm", "symbolic"} {
		r.Rows = append(r.Rows, []any{a, "Qwen/Qwen3-8B", "8B", "sw", "LRL", "low", 0.5, 0.5, 0.0, 0.5, 0.5, 0.5, 0.5, 0.0, 0.0, int64(1), int64(1)})
	}
	one := &result{Columns: r.Columns, Rows: r.Rows[:1]}
	for name, lay := range map[string]layout{"datg_main": datgMain, "datg_correctness_main": datgCorrectnessMain, "datg_full": datgFull} {
		g := lay(r, layoutOpts{})
		var titles []string
		for _, p := range g.Parts {
			titles = append(titles, p.Title)
		}
		if d := cmp.Diff([]string{"symbolic", "llm"}, titles); d != "" {
			t.Errorf("%s, two aligners: parts (-want +got):\n%s", name, d)
		}
		wantContains(t, name+".md", string(g.markdown("")), "| Aligner |", "| llm |")
		wantContains(t, name+".tex", string(g.latex(name, "")), "Part 1 of 2: Aligner symbolic.", "\\label{tab:"+name+"-2}")
		g = lay(one, layoutOpts{})
		if len(g.Parts) != 1 || strings.Contains(string(g.markdown("")), "Aligner") {
			t.Errorf("%s, one aligner: %d parts\n%s", name, len(g.Parts), g.markdown(""))
		}
	}
}
