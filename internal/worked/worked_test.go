package worked_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/datg/datg/internal/worked"
	"github.com/datg/datg/transforms/datg"
)

// A solution's steps are correct, chained, and make a symbolic DAG of
// 4 to 11 nodes whose final node ends in the answer.
func TestSolutionMakesMultiNodeDAGs(t *testing.T) {
	sizes := map[int]int{}
	for seed := uint64(0); seed < 500; seed++ {
		answer := []string{"18", "140,892", "0", `\frac{3}{4}`, "7"}[seed%5]
		steps := worked.Solution(seed, answer)
		if len(steps) < worked.MinSteps || len(steps) > worked.MaxSteps {
			t.Fatalf("seed %d: %d steps", seed, len(steps))
		}
		var ref strings.Builder
		for _, s := range steps {
			ref.WriteString("Next, we compute $ " + s + " $. ")
		}
		eqs := datg.Equations(ref.String())
		if len(eqs) != len(steps) {
			t.Fatalf("seed %d: %d equations of %d steps %q", seed, len(eqs), len(steps), steps)
		}
		for _, eq := range eqs {
			if !eq.Correct() {
				t.Fatalf("seed %d: step %q is wrong", seed, eq.Text)
			}
		}
		d := datg.SymbolicDAG(ref.String(), answer)
		if err := d.Validate(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if n := len(d.Nodes); n < 4 || n > worked.MaxSteps {
			t.Fatalf("seed %d: a DAG of %d nodes from %q", seed, n, steps)
		}
		sizes[len(d.Nodes)]++
		last := d.Nodes[len(d.Nodes)-1]
		if d.FinalNodeID != last.NodeID {
			t.Fatalf("seed %d: final node %s, not the last", seed, d.FinalNodeID)
		}
		if answer != `\frac{3}{4}` && !strings.HasSuffix(last.Anchor, "= "+strings.ReplaceAll(answer, ",", "")) {
			t.Fatalf("seed %d: final anchor %q does not end in %s", seed, last.Anchor, answer)
		}
	}
	t.Logf("DAG sizes: %v", sizes)
}

// Weave inserts the written steps in order, each on its own line, inside
// the reasoning, and leaves the rest of the text as it was.
func TestWeave(t *testing.T) {
	text := "<think>\n" + strings.Repeat("Some prose here. More prose.\n\n", 200) + "</think>\n\nThe answer is 18."
	steps := worked.Solution(3, "18")
	for seed := uint64(0); seed < 50; seed++ {
		woven := worked.Weave(text, steps, seed)
		think := strings.Index(woven, "</think>")
		var written []string
		for _, m := range stepLine.FindAllStringSubmatch(woven, -1) {
			written = append(written, m[1])
		}
		rest := stepLine.ReplaceAllString(woven, "")
		if rest != text {
			t.Fatalf("seed %d: the text around the steps changed", seed)
		}
		if strings.LastIndex(woven, "$\n\n") > think {
			t.Fatalf("seed %d: a step after </think>", seed)
		}
		// In order: each written step is the solution's next one, or a
		// wrong version of it.
		k := 0
		for _, w := range written {
			for k < len(steps) && !sameLeft(w, steps[k]) {
				k++
			}
			if k == len(steps) {
				t.Fatalf("seed %d: %q is not in order in %q", seed, w, steps)
			}
		}
	}
	if got := worked.Weave(text, nil, 1); got != text {
		t.Fatal("Weave with no steps changed the text")
	}
}

func sameLeft(a, b string) bool {
	la, _, _ := strings.Cut(a, " = ")
	lb, _, _ := strings.Cut(b, " = ")
	return la == lb
}

var stepLine = regexp.MustCompile(`\$([^$\n]*)\$\n\n`)
