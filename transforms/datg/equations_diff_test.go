package datg

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/internal/worked"
	"github.com/datg/datg/study"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// equationsCorpus is long generated traces in the study's 12 languages
// with worked solutions woven in, the demo's solutions, edge cases of the
// delimiters, and random texts of the characters the scanners decide on.
func equationsCorpus(t testing.TB) []string {
	out := []string{
		"", "$", "$$", "$$$", "$$$$", "$$x$$", "$$$x$$", "$x$$", "$$x$", "$\n$", "$ $", "$a\nb$ $c$",
		`\[`, `\[\]`, `\[x\]`, `\(x\)`, `\(\)`, `\( x \] \)`, `\[a$b$\]`, `$a \( b$ c \)`, `\\[x\\]`,
		"x = 1", "x= -3.5,6", "a b = 3", "3 + 4 = 7.", "16 - 3 - 4 = 9, then 9 × 2 = 18", "é3 + 4 = 7", "3\xff+ 4 = 7",
		"x + = 3", "= 3", "1 =2 =3", "a.b.c = 4", "x_1 ^ 2 = 4", "7 ÷ 7 = 1 and 2 · 3 = 6", "5 =\n\n 6", "x\t=\f1\r",
		"Total: 6 × 12 = 72, then 72 - 50 - 7 = 15 muffins; and $x = 1, y = 2$.", "$a \\leq b = 3$, $c < d = 4$",
		"$\xff = 3$", "$$\xff$$", `\(` + "\xe2\x82" + `\)`,
	}
	en := testenv.DemoQuestions(t, "en")
	seed := uint64(0)
	for _, l := range study.Languages() {
		prose := testenv.DemoQuestions(t, l.Code)
		for _, size := range []int{1_000, 8_000, 30_000} {
			seed++
			text := tracegen.Write(tracegen.Trace{Prose: prose, English: en, Bytes: size, Cut: seed%3 == 0, Answer: "42", Seed: seed})
			out = append(out, text, worked.Weave(text, worked.Solution(seed, "42"), seed))
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	pieces := []string{"$", "$$", `\`, "[", "]", "(", ")", "\n", " ", "=", "= ", "-", "+", "×", "·", ".", ",", "x", "ab", "12", "3.5", "é", "≤", "<", `\le`, "\xff", "\t", "_", "&", ";"}
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for n := rng.IntN(40); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		out = append(out, b.String())
	}
	return out
}

// sameEquations checks the scanners and Equations against the regexps
// they replace.
func sameEquations(t *testing.T, text string) {
	t.Helper()
	if diff := cmp.Diff(refMathSpans(text), mathSpans(text), cmp.AllowUnexported(mathSpanMatch{})); diff != "" {
		t.Fatalf("math spans of %q (-regexp +scanner):\n%s", clip(text, 200), diff)
	}
	if diff := cmp.Diff(plainEquation.FindAllStringIndex(text, -1), plainEquations(text)); diff != "" {
		t.Fatalf("plain equations of %q (-regexp +scanner):\n%s", clip(text, 200), diff)
	}
	if diff := cmp.Diff(refEquations(text), Equations(text), cmp.AllowUnexported(Equation{}), cmpopts.EquateNaNs(), cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("equations of %q (-old +new):\n%s", clip(text, 200), diff)
	}
}

func TestEquationsAgreeWithRegexps(t *testing.T) {
	for _, text := range equationsCorpus(t) {
		sameEquations(t, text)
	}
}

// Aligning a trace read the new way gives the same JSON as reading it
// the old way: generated traces of 12 languages with their problem's
// steps woven in, each aligned to its problem's DAG and four others'.
func TestSymbolicAlignAgreesWithRegexps(t *testing.T) {
	events := 0
	en := testenv.DemoQuestions(t, "en")
	seed := uint64(0)
	for _, l := range study.Languages() {
		prose := testenv.DemoQuestions(t, l.Code)
		for _, size := range []int{2_000, 12_000, 30_000} {
			seed++
			text := tracegen.Write(tracegen.Trace{Prose: prose, English: en, Bytes: size, Cut: seed%3 == 0, Answer: "42", Seed: seed})
			text = worked.Weave(text, worked.Solution(seed, "42"), seed)
			old, now := refReadSymbolic(text), ReadSymbolic(text)
			for k := uint64(0); k < 5; k++ {
				d := workedDAG(seed + k*1000)
				want, got := old.NodesJSON(refReadSymbolicDAG(d)), now.NodesJSON(ReadSymbolicDAG(d))
				if again := now.AlignmentJSON(d); again != got {
					t.Fatalf("trace %d, DAG %d: Align and AlignNodes differ:\n%s\n%s", seed, k, again, got)
				}
				if got != want {
					t.Fatalf("trace %d, DAG %d:\nold %s\nnew %s", seed, k, want, got)
				}
				events += strings.Count(got, `"status"`)
			}
		}
	}
	if events < 100 {
		t.Fatalf("%d events: the corpus does not exercise the aligner", events)
	}
	t.Logf("%d events", events)
}

// workedDAG is the symbolic DAG of a generated worked solution.
func workedDAG(seed uint64) DAG {
	var ref strings.Builder
	for _, s := range worked.Solution(seed, "42") {
		ref.WriteString("Next, we compute $ " + s + " $. ")
	}
	return SymbolicDAG(ref.String(), "42")
}

// Anchors read the new way read as before: the generated DAGs' and the
// corpus's chains as anchors.
func TestAnchorsAgreeWithRegexps(t *testing.T) {
	var ds []DAG
	for seed := uint64(0); seed < 300; seed++ {
		ds = append(ds, workedDAG(seed))
	}
	for _, text := range equationsCorpus(t) {
		if len(text) < 200 {
			ds = append(ds, DAG{Nodes: []Node{{NodeID: "n1", Anchor: text}}})
		}
	}
	for _, d := range ds {
		if diff := cmp.Diff(refReadSymbolicDAG(d), ReadSymbolicDAG(d), cmp.AllowUnexported(SymbolicNodes{}, anchorFacts{}), cmpopts.EquateNaNs(), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("anchors (-old +new):\n%s", diff)
		}
	}
}

func FuzzEquations(f *testing.F) {
	for _, s := range []string{"$$x = 1$$ and \\(y = 2\\)", "3 + 4 = 7, 9 = 9", "$a\nb$", "a b = 3", "\\[x\xff = 2\\]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4000 {
			return
		}
		sameEquations(t, text)
	})
}
