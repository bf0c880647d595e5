package tables

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/google/go-cmp/cmp"
)

// controlResult is control.sql's output for Table 3 of the paper (Qwen3-4B,
// sw and te, low and medium), its rows out of order (medium before low, te
// before sw), with Formula-Retry's medium te cell missing.
func controlResult() *result {
	r := &result{Columns: []string{"method", "model", "model_label", "level", "lang", "n", "accuracy", "tokens_m", "retry_pct", "trials", "forced_pct", "wilson_low", "wilson_high"}}
	add := func(method, level, lang string, acc, tok, retry, trials float64) {
		r.Rows = append(r.Rows, []any{method, "Qwen/Qwen3-4B", "4B", level, lang, int64(125), acc, tok, retry, trials, 0.0, acc - 8, acc + 8})
	}
	for _, m := range []struct {
		method           string
		low, med         [3]float64 // te, sw, all accuracy
		lowCost, medCost [3]float64 // tokens_m, retry_pct, trials
		skipMediumTelugu bool
	}{
		{"control-base", [3]float64{64.8, 45.6, 55.2}, [3]float64{8, 4.8, 6.4}, [3]float64{0.522, 0, 1}, [3]float64{1.772, 0, 1}, false},
		{"loop-retry", [3]float64{74.4, 74.4, 74.4}, [3]float64{8.8, 35.2, 22}, [3]float64{0.395, 22.4, 1.31}, [3]float64{1.809, 50.4, 1.9}, false},
		{"formula-retry", [3]float64{75.2, 87.2, 81.2}, [3]float64{9.6, 18.4, 14}, [3]float64{0.311, 10, 1.1}, [3]float64{1.937, 46.8, 2}, true},
	} {
		for i, lang := range []string{"te", "sw", "all"} {
			if !(m.skipMediumTelugu && lang == "te") {
				add(m.method, "medium", lang, m.med[i], m.medCost[0], m.medCost[1], m.medCost[2])
			}
		}
		for i, lang := range []string{"te", "sw", "all"} {
			add(m.method, "low", lang, m.low[i], m.lowCost[0], m.lowCost[1], m.lowCost[2])
		}
	}
	return r
}

func TestControlLayout(t *testing.T) {
	g := controlTable(controlResult(), layoutOpts{})
	wantHeader := []string{"Method", "Accuracy ↑ Low sw", "Accuracy ↑ Low te", "Accuracy ↑ Low Avg", "Accuracy ↑ Med. sw", "Accuracy ↑ Med. te", "Accuracy ↑ Med. Avg",
		"Decoded Cost Low Tok. (M)", "Decoded Cost Low Retry%", "Decoded Cost Low Trials", "Decoded Cost Med. Tok. (M)", "Decoded Cost Med. Retry%", "Decoded Cost Med. Trials"}
	if got := g.mdHeader(); !slices.Equal(got, wantHeader) {
		t.Errorf("header %q, want %q", got, wantHeader)
	}
	// One model gives one untitled section.
	if d := cmp.Diff([]string{""}, sectionTitles(g)); d != "" {
		t.Errorf("section titles (-want +got):\n%s", d)
	}
	md := string(g.markdown(""))
	wantContains(t, "markdown", md,
		"| Method | Accuracy ↑ Low sw | Accuracy ↑ Low te | Accuracy ↑ Low Avg | Accuracy ↑ Med. sw | Accuracy ↑ Med. te | Accuracy ↑ Med. Avg | Decoded Cost Low Tok. (M) | Decoded Cost Low Retry% | Decoded Cost Low Trials | Decoded Cost Med. Tok. (M) | Decoded Cost Med. Retry% | Decoded Cost Med. Trials |\n",
		"| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
		"| Base | 45.6 | 64.8 | 55.2 | 4.8 | 8.0 | 6.4 | 0.522 | 0.0 | 1.00 | 1.772 | 0.0 | 1.00 |\n",
		// The paper's bold: the best accuracy of each column.
		// Formula-Retry has no medium te: Loop-Retry's 8.8 is the best there is.
		"| Loop-Retry | 74.4 | 74.4 | 74.4 | **35.2** | **8.8** | **22.0** | 0.395 | 22.4 | 1.31 | 1.809 | 50.4 | 1.90 |\n",
		"| Formula-Retry | **87.2** | **75.2** | **81.2** | 18.4 | -- | 14.0 | 0.311 | 10.0 | 1.10 | 1.937 | 46.8 | 2.00 |\n")
	// Methods in the query's order.
	if i, j, k := strings.Index(md, "| Base |"), strings.Index(md, "| Loop-Retry |"), strings.Index(md, "| Formula-Retry |"); !(i < j && j < k) {
		t.Errorf("methods out of order:\n%s", md)
	}
	wantContains(t, "latex", string(g.latex("t", "")),
		`\begin{tabular}{lrrrrrrrrrrrr}`,
		` & \multicolumn{6}{c}{Accuracy $\uparrow$} & \multicolumn{6}{c}{Decoded Cost} \\`,
		`\cmidrule(lr){2-7}\cmidrule(lr){8-13}`,
		` & \multicolumn{3}{c}{Low} & \multicolumn{3}{c}{Med.} & \multicolumn{3}{c}{Low} & \multicolumn{3}{c}{Med.} \\`,
		`\cmidrule(lr){2-4}\cmidrule(lr){5-7}\cmidrule(lr){8-10}\cmidrule(lr){11-13}`,
		`Method & sw & te & Avg & sw & te & Avg & Tok. (M) & Retry\% & Trials & Tok. (M) & Retry\% & Trials \\`,
		`Loop-Retry & 74.4 & 74.4 & 74.4 & \textbf{35.2} & \textbf{8.8} & \textbf{22.0} & 0.395 & 22.4 & 1.31 & 1.809 & 50.4 & 1.90 \\`,
		`Formula-Retry & \textbf{87.2} & \textbf{75.2} & \textbf{81.2} & 18.4 & -- & 14.0 & 0.311 & 10.0 & 1.10 & 1.937 & 46.8 & 2.00 \\`,
		`\caption{Test-time control results`, `\label{tab:t}`, `\begin{table*}`)
	// --ci: each accuracy with its Wilson interval; the layout stays.
	wantContains(t, "markdown --ci", string(controlTable(controlResult(), layoutOpts{CI: true}).markdown("")),
		"| Formula-Retry | **87.2 \\[79.2, 95.2\\]** | **75.2 \\[67.2, 83.2\\]** |")
}

// sectionTitles are the titles of a grid's sections, in order.
func sectionTitles(g grid) []string {
	var titles []string
	for _, s := range g.sections() {
		titles = append(titles, s.Title)
	}
	return titles
}

// Several models get a titled section each, every method a row in each.
func TestControlLayoutSectionPerModel(t *testing.T) {
	r := controlResult()
	r.Rows = append(r.Rows, []any{"loop-retry", "Qwen/Qwen3-8B", "8B", "low", "sw", int64(10), 50.0, 0.1, 20.0, 1.2, 0.0, 40.0, 60.0})
	g := controlTable(r, layoutOpts{})
	if d := cmp.Diff([]string{"4B", "8B"}, sectionTitles(g)); d != "" {
		t.Fatalf("section titles (-want +got):\n%s", d)
	}
	wantContains(t, "markdown", string(g.markdown("")), "| 8B | Loop-Retry | 50.0 | -- | -- | -- | -- | -- | -- | -- | -- | -- | -- |")
}

// control needs trials: skipped without the table, refused while a
// controlled trace has no attempts in it, written once every one has.
func TestControlInputs(t *testing.T) {
	dir := writeRun(t, true)
	wantContains(t, "the report", report(t, dir), "control: skipped, no trials yet (run datg control)")
	if _, err := os.Stat(filepath.Join(dir, "tables", "control.md")); err == nil {
		t.Error("control written without trials")
	}

	// A Loop-Retry and a Formula-Retry trace of base trace b's cell.
	loop := trace("e", "org/my_model&v2", "low", "en", "sw", "en-x", "low-0")
	loop.Method, loop.CompletionTokens = "loop-retry", 1000
	formula := trace("f", "org/my_model&v2", "low", "en", "sw", "en-x", "low-0")
	formula.Method, formula.CompletionTokens = "formula-retry", 1900
	rewrite(t, dir, schema.Traces, func(traces []schema.Trace) []schema.Trace { return append(traces, loop, formula) })
	rewrite(t, dir, schema.Answers, func(answers []schema.Answer) []schema.Answer {
		return append(answers, schema.Answer{TraceID: "e", Correct: true}, schema.Answer{TraceID: "f"})
	})

	attempt := func(id, method, phase string, trial, tokens int32) schema.Trial {
		return schema.Trial{TraceID: id, Method: method, Model: "org/my_model&v2", ReasoningLang: "sw", Level: "low",
			ProblemID: "low-0", Seed: 42, Phase: phase, Trial: trial, CompletionTokens: int64(tokens)}
	}
	trials := []schema.Trial{
		attempt("f", "formula-retry", "scaffold", 0, 400),
		attempt("f", "formula-retry", "reasoning", 1, 1500),
	}
	if err := store.WriteAll(dir, schema.Trials, store.Meta{}, trials); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Config{Data: dir})
	wantRefusal(t, err, ErrStale, "1 control traces have no trials rows")
	if _, err := os.Stat(filepath.Join(dir, "tables", "control.md")); err == nil {
		t.Error("control written with a controlled trace without trials")
	}

	aborted := attempt("e", "loop-retry", "reasoning", 1, 2048)
	aborted.Aborted = true
	trials = append(trials, aborted, attempt("e", "loop-retry", "reasoning", 2, 1000))
	if err := store.WriteAll(dir, schema.Trials, store.Meta{}, trials); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	md := readOutput(t, dir, "control.md")
	wantContains(t, "control.md", md,
		"| Method | Accuracy ↑ Low sw | Accuracy ↑ Low Avg | Decoded Cost Low Tok. (M) | Decoded Cost Low Retry% | Decoded Cost Low Trials |\n",
		"| Loop-Retry | **100.0** | **100.0** | 0.003 | 100.0 | 2.00 |\n",
		"| Formula-Retry | 0.0 | 0.0 | 0.002 | 0.0 | 1.00 |\n",
		"No Base for org/my\\_model&amp;v2: run datg control --method base")
	// The probe's trace b of the same example is no Base row.
	if strings.Contains(md, "| Base") {
		t.Errorf("Table 3 has a Base row without datg control --method base:\n%s", md)
	}
}

// Methods that ran different examples are flagged in the caption.
func TestControlCaptionFlagsUnevenExamples(t *testing.T) {
	r := &result{Columns: []string{"method", "model", "model_label", "level", "lang", "n", "accuracy", "tokens_m", "retry_pct", "trials", "forced_pct"}}
	add := func(method string, n int64) {
		r.Rows = append(r.Rows, []any{method, "Qwen/Qwen3-4B", "4B", "low", "all", n, 50.0, 0.1, 10.0, 1.2, 0.0})
	}
	add("control-base", 30)
	add("loop-retry", 30)
	if c := controlTable(r, layoutOpts{}).Caption; strings.Contains(c, "Caution") {
		t.Fatalf("even examples flagged: %s", c)
	}
	add("formula-retry", 20)
	wantContains(t, "the caption", controlTable(r, layoutOpts{}).Caption, "Caution", "4B Low: Base 30, Loop-Retry 30, Formula-Retry 20")

}
