package simulate

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/transforms/datg"
)

// Every varied derivation of every demo solution is still correct
// arithmetic that reaches the same answer, and for most problems some
// variants have DAGs with different anchors.
func TestVaryStepsKeepsDerivationsCorrect(t *testing.T) {
	f, err := os.Open(filepath.Join(testenv.Root(t), "data", "demo", "solutions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	distinctDAGs, problems := 0, 0
	for sc.Scan() {
		var sol struct {
			ProblemID string   `json:"problem_id"`
			Steps     []string `json:"steps"`
		}
		if err := json.Unmarshal(sc.Bytes(), &sol); err != nil {
			t.Fatal(err)
		}
		problems++
		last := datg.Equations("$" + sol.Steps[len(sol.Steps)-1] + "$")
		dags := map[string]bool{}
		for seed := range uint64(20) {
			steps := varySteps(sol.Steps, rand.New(rand.NewPCG(seed, 7)))
			text := "$" + strings.Join(steps, "$. $") + "$"
			reaches := len(last) == 0 // a final step that is no equation is never changed
			for _, eq := range datg.Equations(text) {
				if !eq.Correct() {
					t.Errorf("%s seed %d: %q is wrong", sol.ProblemID, seed, eq.Text)
				}
				if len(last) > 0 && eq.Result() == last[0].Result() {
					reaches = true
				}
			}
			if !reaches {
				t.Errorf("%s seed %d: %q no longer reaches the answer", sol.ProblemID, seed, text)
			}
			var anchors []string
			final := ""
			if len(last) > 0 {
				final = strconv.FormatFloat(last[0].Result(), 'g', -1, 64)
			}
			for _, n := range datg.SymbolicDAG(text, final).Nodes {
				anchors = append(anchors, n.Anchor)
			}
			slices.Sort(anchors)
			dags[strings.Join(anchors, "|")] = true
		}
		if len(dags) > 1 {
			distinctDAGs++
		}
	}
	if distinctDAGs < problems/2 {
		t.Errorf("only %d of %d problems get references with different DAGs", distinctDAGs, problems)
	}
}

// An alignment request gets the same reply every time, faults included:
// they are drawn node by node in a fixed order.
func TestAlignDeterministic(t *testing.T) {
	m := testModel(DefaultProfile())
	derivation := "The first part is 3 + 4 = 7.\n\nThe second part is 7 * 5 = 35.\n\nThen 35 - 5 = 30.\n\nSo 30 / 2 = 15."
	dag := datg.SymbolicDAGJSON(derivation, "15")
	history := prompts.AlignSystem() + prompts.AlignUser(prompts.AlignInput{Language: "English", DAG: dag, Trace: derivation})
	s := sampling{Model: "aligner", Temperature: 0, TopP: 1, RepetitionPenalty: 1, MaxTokens: 4096}
	f := ContentFaults{AbsentSpan: 0.5, BadStatus: 0.5}
	first := m.align(history, s, f).Text()
	if !strings.Contains(first, "n3") {
		t.Fatalf("the reply aligns too few nodes to test the order: %s", first)
	}
	for i := 0; i < 32; i++ {
		if got := m.align(history, s, f).Text(); got != first {
			t.Fatalf("same request, a different reply:\n%s\n%s", first, got)
		}
	}
}
