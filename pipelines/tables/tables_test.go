package tables

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

func trace(id, model, level, in, out, dir, problem string) schema.Trace {
	return schema.Trace{TraceID: id, Model: model, Level: level, InputLang: in, ReasoningLang: out, Direction: dir,
		ProblemID: problem, Seed: 42, Method: "base", Text: "x"}
}

func writeRun(t *testing.T, graded bool) string {
	t.Helper()
	dir := t.TempDir()
	traces := []schema.Trace{
		trace("a", "org/my_model&v2", "low", "en", "en", "en-en", "low-0"),
		trace("b", "org/my_model&v2", "low", "en", "sw", "en-x", "low-0"),
		trace("c", "org/my_model&v2", "low", "sw", "en", "x-en", "low-0"),
		trace("d", "Qwen/Qwen3-8B", "medium", "en", "te", "en-x", "medium-0"),
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	answers := []schema.Answer{{TraceID: "a", Correct: true}, {TraceID: "b"}, {TraceID: "c", Correct: true}}
	if graded {
		answers = append(answers, schema.Answer{TraceID: "d", Correct: true})
	}
	if err := store.WriteAll(dir, schema.Answers, store.Meta{}, answers); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestRunWritesPaperLayout(t *testing.T) {
	dir := writeRun(t, true)
	sum, err := Run(context.Background(), Config{Data: dir})
	if err != nil {
		t.Fatal(err)
	}
	// csv, md, tex of two tables, the figure as pdf, svg and png, paper.tex
	// and index.md.
	if len(sum.Written) != 11 {
		t.Fatalf("wrote %v", sum.Written)
	}
	wantContains(t, "direction_accuracy.md", readOutput(t, dir, "direction_accuracy.md"),
		"Table 7 (tab:app\\_direction\\_accuracy\\_full) of the paper. Full direction-probing accuracy",
		"| Model | Difficulty | Direction | en | sw | te |\n| --- | --- | --- | ---: | ---: | ---: |\n",
		"| org/my\\_model&amp;v2 | low | en-en | 100.00 | -- | -- |",
		"| org/my\\_model&amp;v2 | low | en-x | -- | 0.00 | -- |",
		"| org/my\\_model&amp;v2 | low | x-en | -- | 100.00 | -- |",
		"| 8B | medium | en-x | -- | -- | 100.00 |")
	wantContains(t, "direction_accuracy.tex", readOutput(t, dir, "direction_accuracy.tex"),
		`\begin{table*}[tp]`, `\toprule`, `\multicolumn{5}{l}{\textbf{org/my\_model\&v2}} \\`, `low & en-en & 100.00 & -- & -- \\`, `\bottomrule`,
		`\caption{Full direction-probing accuracy`, `\label{tab:direction_accuracy}`, `\end{table*}`)
	wantContains(t, "paper.tex", readOutput(t, dir, "paper.tex"), `\documentclass[10pt,onecolumn]{article}`,
		`\IfFileExists{direction_accuracy.tex}{\input{direction_accuracy}}{}`, `\includegraphics[width=\textwidth,height=0.8\textheight,keepaspectratio]{\datgfigure}`)
	wantContains(t, "index.md", readOutput(t, dir, "index.md"), "| `direction_accuracy.{csv,md,tex}` | Table 7 (tab:app\\_direction\\_accuracy\\_full) |",
		"| `grader_agreement.{csv,md,tex}` | beyond the paper |")
	// 8B has no en-en trace to pair with; the en-x sw trace of my_model is
	// wrong where its en-en one is right (one discordant pair, p = 1).
	// No gold here is unreadable: gold_unparsed is 0.
	wantContains(t, "direction_accuracy.csv", readOutput(t, dir, "direction_accuracy.csv"),
		"Qwen/Qwen3-8B,8B,medium,en-x,te,1,1,100,20.65,100,,,,,0\n",
		"org/my_model&v2,org/my_model&v2,low,en-x,sw,1,0,0,0,79.35,1,1,0,1,0\n")
}

func TestRefusesUngradedTraces(t *testing.T) {
	dir := writeRun(t, false)
	if _, err := Run(context.Background(), Config{Data: dir}); !errors.Is(err, ErrNotGraded) {
		t.Fatalf("got %v, want ErrNotGraded", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "tables")); err == nil {
		t.Fatal("tables written for an ungraded run")
	}
}

func TestEscaping(t *testing.T) {
	if got := texEscape(`50% of $x_1$ & {y} \ ~^#`); got != `50\% of \$x\_1\$ \& \{y\} \textbackslash{} \textasciitilde{}\textasciicircum{}\#` {
		t.Errorf("texEscape = %s", got)
	}
	if got := mdEscape("a|b <script>*x*\nc"); got != `a\|b &lt;script&gt;\*x\* c` {
		t.Errorf("mdEscape = %s", got)
	}
}

func TestRefusesVerdictsOfAnOlderText(t *testing.T) {
	dir := writeRun(t, true)
	// Trace "b" was regenerated after grading: its text hash changed.
	rewrite(t, dir, schema.Traces, func(traces []schema.Trace) []schema.Trace {
		traces[slices.IndexFunc(traces, func(tr schema.Trace) bool { return tr.TraceID == "b" })].TextHash = "newer"
		return traces
	})
	_, err := Run(context.Background(), Config{Data: dir})
	wantRefusal(t, err, ErrNotGraded, "1 probe traces")
}

func TestComplianceLayoutAndSkips(t *testing.T) {
	dir := writeRun(t, true)
	wantContains(t, "the report", report(t, dir), "compliance: skipped, no compliance yet (run datg langcheck)")
	store.WriteAll(dir, schema.Compliances, store.Meta{}, []schema.Compliance{
		{TraceID: "a", Compliant: true}, {TraceID: "b", Compliant: true}, {TraceID: "c", Compliant: true}, {TraceID: "d", Compliant: false},
	})
	if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	wantContains(t, "compliance.md", readOutput(t, dir, "compliance.md"),
		"| Pair | org/my\\_model&amp;v2 Low | 8B Med. |", "| en-sw | 100.0 | -- |", "| en-te | -- | 0.0 |")
	wantContains(t, "compliance.tex", readOutput(t, dir, "compliance.tex"),
		`& org/my\_model\&v2 & 8B \\`, `\cmidrule(lr){2-2}\cmidrule(lr){3-3}`, `Pair & Low & Med. \\`, `en-sw & 100.0 & -- \\`)
	// A compliance table that misses a trace is refused.
	store.WriteAll(dir, schema.Compliances, store.Meta{}, []schema.Compliance{{TraceID: "a"}})
	if _, err := Run(context.Background(), Config{Data: dir}); !errors.Is(err, ErrStale) {
		t.Fatalf("got %v, want ErrStale", err)
	}
}

// A trace whose gold answer the grader cannot read counts as wrong, and the
// table says how many there are instead of hiding them in the accuracy.
func TestGoldUnparsedIsCounted(t *testing.T) {
	dir := writeRun(t, true)
	rewrite(t, dir, schema.Answers, func(answers []schema.Answer) []schema.Answer {
		answers[slices.IndexFunc(answers, func(a schema.Answer) bool { return a.TraceID == "b" })].Reason = "gold-unparsed"
		return answers
	})
	if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	wantContains(t, "direction_accuracy.csv (counting the unreadable gold)", readOutput(t, dir, "direction_accuracy.csv"),
		"org/my_model&v2,org/my_model&v2,low,en-x,sw,1,0,0,0,79.35,1,1,0,1,1\n")
	for _, name := range []string{"direction_accuracy.md", "direction_accuracy.tex"} {
		wantContains(t, name, readOutput(t, dir, name), "1 traces have a gold answer the grader cannot read")
	}
}
