package mathverify

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusCase is a gold answer and a realistic generation: Math-Verify's
// cases (traces in the study's languages) and the multilingual grader's
// graded pairs.
type corpusCase struct{ Gold, Pred string }

func corpusCases(t testing.TB) []corpusCase {
	t.Helper()
	files, _ := filepath.Glob("../answer/testdata/graded_cases*.jsonl")
	files = append(files, "testdata/cases.jsonl")
	var out []corpusCase
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var c corpusCase
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, c)
		}
		f.Close()
	}
	if len(out) < 2000 {
		t.Fatalf("only %d corpus cases", len(out))
	}
	return out
}

// corpusTexts are the corpus's golds and predictions as texts.
func corpusTexts(t testing.TB) []string {
	var out []string
	for _, c := range corpusCases(t) {
		out = append(out, c.Gold, c.Pred)
	}
	return out
}

// gradings are the ways each corpus case is graded: as answers check reads
// it, and its prediction as the final answer of a trace whose reasoning is
// other cases' generations (one, and twenty: about 10 KB), or boxed after
// the gold boxed as another solution.
func gradings(cases []corpusCase) []func() Verdict {
	var out []func() Verdict
	for i, c := range cases {
		reasoning := cases[(i*7+3)%len(cases)].Pred
		var long strings.Builder
		for j := range 20 {
			long.WriteString(cases[(i*13+j*31+5)%len(cases)].Pred + "\n\n")
		}
		g := NewGold(c.Gold)
		out = append(out,
			func() Verdict { return Check(c.Gold, c.Pred) },
			func() Verdict { return g.Grade("<think>\n" + reasoning + "\n</think>\n\n" + c.Pred) },
			func() Verdict { return g.Grade(long.String() + c.Pred) },
			func() Verdict {
				return g.Grade(reasoning + "\n\n$x_1 = \\boxed{" + c.Gold + "}$ and $x_2 = \\boxed{" + c.Pred + "}$")
			})
	}
	return out
}

var updateVerdicts = flag.Bool("update-verdicts", false, "write testdata/verdicts_before.jsonl.gz from this build")

const verdictsFile = "testdata/verdicts_before.jsonl.gz"

// The grader decides as it did before issue 19 made its extraction linear:
// every grading of the corpus gives the verdict recorded then (written by
// the code of commit 8813df8 with -update-verdicts).
func TestVerdictsAsBefore(t *testing.T) {
	grades := gradings(corpusCases(t))
	if *updateVerdicts {
		f, err := os.Create(verdictsFile)
		if err != nil {
			t.Fatal(err)
		}
		z := gzip.NewWriter(f)
		enc := json.NewEncoder(z)
		for _, g := range grades {
			if err := enc.Encode(g()); err != nil {
				t.Fatal(err)
			}
		}
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(verdictsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(z)
	for i, g := range grades {
		var want Verdict
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("verdict %d: %v", i, err)
		}
		if got := g(); got != want {
			t.Errorf("grading %d (case %d, way %d):\n got %+v\nwant %+v", i, i/4, i%4, got, want)
		}
	}
	if dec.More() {
		t.Fatal("more verdicts recorded than gradings")
	}
}
