package datg

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const reference = `Janet's ducks lay 16 eggs per day. She uses $3 + 4 = 7$ eggs for breakfast and muffins.
The remainder is $16 - 7 = 9$ eggs, and at \$2 each she earns \(9 \times 2 = 18\) dollars.

So the answer is $\boxed{18}$.`

func TestSymbolicDAG(t *testing.T) {
	d := SymbolicDAG(reference, "18")
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	var anchors []string
	for _, n := range d.Nodes {
		anchors = append(anchors, n.Anchor+" <- "+strings.Join(n.Parents, ","))
	}
	type built struct{ Anchors, Final string }
	want := built{"3 + 4 = 7 <- ,16 - 7 = 9 <- n1,9 \\times 2 = 18 <- n2", "n3"}
	if diff := cmp.Diff(want, built{strings.Join(anchors, ","), d.FinalNodeID}); diff != "" {
		t.Fatalf("DAG (-want +got):\n%s", diff)
	}
	d = SymbolicDAG("No equations at all, just \\boxed{5}.", "5")
	if err := d.Validate(); err != nil {
		t.Fatalf("no-equation DAG: %v", err)
	}
	var got []string
	for _, n := range d.Nodes {
		got = append(got, n.Anchor)
	}
	if diff := cmp.Diff([]string{"answer = 5"}, got); diff != "" {
		t.Fatalf("no-equation DAG: anchors (-want +got):\n%s", diff)
	}
}

func TestSymbolicAlign(t *testing.T) {
	d := SymbolicDAG(reference, "18")
	right := "<think>\nKwanza, tunajua $3 + 4 = 7$.\n\nKisha $16 - 7 = 9$ na $9 \\times 2 = 18$.\n</think>\n\\boxed{18}"
	wrong := "<think>\nKwanza, $3 + 4 = 7$. Kisha $16 - 7 = 8$, hivyo $8 \\times 2 = 16$.\nSubiri, hebu nifikirie tena hatua iliyotangulia.\nSubiri, hebu nifikirie tena hatua iliyotangulia.\nSubiri, hebu nifikirie tena hatua iliyotangulia.\n</think> \\boxed{16}"
	statuses := func(a Alignment) string {
		var s []string
		for _, n := range d.Nodes {
			var e []string
			for _, ev := range a.AuditResults[n.NodeID] {
				e = append(e, ev.Status)
			}
			s = append(s, n.NodeID+":"+strings.Join(e, "+"))
		}
		return strings.Join(s, " ")
	}
	a := SymbolicAlign(right, d)
	if got := statuses(a); got != "n1:COMMIT n2:COMMIT n3:COMMIT" {
		t.Errorf("right trace: %s", got)
	}
	tr := NewTrace(right)
	for _, evs := range a.AuditResults {
		for _, e := range evs {
			if loc := tr.Locate(e.EvidenceSpan); loc.Match != MatchExact {
				t.Errorf("span %q not found exactly", e.EvidenceSpan)
			}
		}
	}
	a = SymbolicAlign(wrong, d)
	if got := statuses(a); got != "n1:COMMIT n2:ERROR n3:" {
		t.Errorf("wrong trace: %s", got)
	}
	type harmful struct{ Contradictory, HarmfulLoop int }
	if diff := cmp.Diff(harmful{1, 1}, harmful{len(a.ContradictorySteps), len(a.HarmfulLoopSteps)}); diff != "" {
		t.Errorf("harmful actions of the wrong trace (-want +got):\n%s", diff)
	}
	// The JSON round-trips through the parser the LLM path uses.
	if back, err := ParseAlignment(SymbolicAlignmentJSON(wrong, d)); err != nil {
		t.Errorf("round trip: %v", err)
	} else if n := len(back.AuditResults); n != 3 {
		t.Errorf("round trip: audit results of %d nodes, want 3", n)
	}
}

func TestEquationsFindPlainArithmetic(t *testing.T) {
	eqs := Equations("Total: 6 × 12 = 72, then 72 - 50 - 7 = 15 muffins; and $x = 1, y = 2$.")
	var got []string
	for _, e := range eqs {
		got = append(got, e.Text)
	}
	if strings.Join(got, "|") != "6 × 12 = 72|72 - 50 - 7 = 15|x = 1|y = 2" {
		t.Fatalf("equations %q", got)
	}
}
