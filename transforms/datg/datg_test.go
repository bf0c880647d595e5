package datg

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/study"
)

const goodDAG = `{"final_node_id": "n3", "nodes": [
 {"node_id": "n1", "anchor": "eggs_day = 16", "description": "eggs per day", "parents": []},
 {"node_id": "n2", "anchor": "remaining = 16 - 3 - 4 = 9", "description": "left to sell", "parents": ["n1"]},
 {"node_id": "n3", "anchor": "income = 9 * 2 = 18", "description": "daily income", "parents": ["n2"]}]}`

func TestParseDAGLeniently(t *testing.T) {
	for name, reply := range map[string]string{
		"bare":         goodDAG,
		"fenced":       "Here is the DAG:\n```json\n" + goodDAG + "\n```\nDone.",
		"prose around": "Sure! " + goodDAG + " Hope this helps {not json}.",
		"as a string":  mustQuote(goodDAG),
		"brace in str": strings.Replace(goodDAG, "eggs per day", "eggs {per} day", 1),
	} {
		d, err := ParseDAG(reply)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		type parsed struct {
			Nodes int
			Final string
		}
		if diff := cmp.Diff(parsed{3, "n3"}, parsed{len(d.Nodes), d.FinalNodeID}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
		if err := d.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := ParseDAG("I cannot do this."); !errors.Is(err, ErrNoJSON) {
		t.Errorf("no JSON: %v", err)
	}
	if _, err := ParseDAG(`{"final_node_id": "n1", "nodes": [ {"node_id": "n1", "anchor": "x=1", "parents": []}`); !errors.Is(err, ErrNoJSON) {
		t.Errorf("truncated JSON: %v", err)
	}
}

func mustQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

func TestValidate(t *testing.T) {
	n := func(id string, parents ...string) Node { return Node{NodeID: id, Anchor: "x=" + id, Parents: parents} }
	cases := []struct {
		name string
		dag  DAG
		want string
	}{
		{"ok", DAG{"c", []Node{n("a"), n("b", "a"), n("c", "a", "b")}}, ""},
		{"no nodes", DAG{"a", nil}, "no nodes"},
		{"duplicate", DAG{"b", []Node{n("a"), n("a"), n("b", "a")}}, "appears twice"},
		{"cycle", DAG{"b", []Node{n("a", "b"), n("b", "a")}}, "comes later"},
		{"self", DAG{"a", []Node{n("a", "a")}}, "its own parent"},
		{"unknown parent", DAG{"b", []Node{n("a"), n("b", "zz")}}, "which is no node"},
		{"no final", DAG{"zz", []Node{n("a")}}, "is no node"},
		{"final not sink", DAG{"a", []Node{n("a"), n("b", "a")}}, "not a sink"},
		{"dangling", DAG{"c", []Node{n("a"), n("b"), n("c", "a")}}, "does not lead"},
		{"empty id", DAG{"a", []Node{{NodeID: " ", Anchor: "x"}}}, "no node_id"},
		{"empty anchor", DAG{"a", []Node{{NodeID: "a"}}}, "no anchor"},
	}
	for _, c := range cases {
		err := c.dag.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (!errors.Is(err, ErrInvalidDAG) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

func TestCheckAlignment(t *testing.T) {
	d, _ := ParseDAG(goodDAG)
	a, err := ParseAlignment(`{"audit_results": {"n1": [{"status": "commit", "evidence": "16", "evidence_span": "lay 16 eggs"}],
	  "n2": [{"status": "ATTEMPT", "evidence": "16-3", "evidence_span": "16 - 3"}, {"status": "maybe", "evidence": "", "evidence_span": ""}],
	  "n9": [{"status": "COMMIT", "evidence": "x", "evidence_span": "x"}], "n3": [{"status": "MISSING"}]},
	  "contradictory_steps": [{"evidence": "e", "evidence_span": "s"}], "harmful_loop_steps": null, "degenerate_steps": [{"evidence": "d"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	events, actions, problems := Check(d, a)
	type event struct {
		NodeID, Status string
		Seq            int
	}
	var gotEvents []event
	for _, e := range events {
		gotEvents = append(gotEvents, event{e.NodeID, e.Status, e.Seq})
	}
	if diff := cmp.Diff([]event{{"n1", string(study.Commit), 0}, {"n2", string(study.Attempt), 0}}, gotEvents); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	var categories []string
	for _, a := range actions {
		categories = append(categories, a.Category)
	}
	if diff := cmp.Diff([]string{Contradictory, Degenerate}, categories); diff != "" {
		t.Errorf("action categories (-want +got):\n%s", diff)
	}
	kinds := []string{}
	for _, p := range problems {
		kinds = append(kinds, string(p.Kind))
	}
	if strings.Join(kinds, ",") != "bad-status,missing-status,unknown-node" {
		t.Errorf("problems %v", problems)
	}
	if _, err := ParseAlignment(`{"contradictory_steps": []}`); err == nil {
		t.Error("an alignment without audit_results was accepted")
	}
}

func TestLocate(t *testing.T) {
	text := "<think>\nPremièrement, on a 16 œufs.\n\nEnsuite 16 − 3 − 4 = 9,   donc\nle revenu est $9 \\times 2 = 18$.\n\n\nFin."
	tr := NewTrace(text)
	cases := []struct {
		span, match string
		wantText    string
		block       int
	}{
		{"16 œufs", MatchExact, "16 œufs", 0},
		{"16 − 3 − 4 = 9, donc le revenu", MatchNormalized, "16 − 3 − 4 = 9,   donc\nle revenu", 1},
		{"LE REVENU EST 9 \\times 2 = 18", MatchNormalized, "le revenu est $9 \\times 2 = 18", 1},
		{"Ensuite 16 - 3 - 4 = 9", MatchFuzzy, "Ensuite 16 − 3 − 4 = 9", 1},
		{"completely absent sentence here", MatchNone, "", 0},
		{"", MatchNone, "", 0},
	}
	runes := []rune(text)
	for _, c := range cases {
		loc := tr.Locate(c.span)
		if loc.Match != c.match {
			t.Errorf("Locate(%q): match %s, want %s", c.span, loc.Match, c.match)
			continue
		}
		if !loc.Found() {
			continue
		}
		if got := string(runes[loc.Start:loc.End]); got != c.wantText {
			t.Errorf("Locate(%q) = %q, want %q", c.span, got, c.wantText)
		}
		if b := tr.Block(loc.Start); b != c.block {
			t.Errorf("Locate(%q) in block %d, want %d", c.span, b, c.block)
		}
	}
	if tr.Block(len(runes)-1) != 2 {
		t.Errorf("last block %d, want 2", tr.Block(len(runes)-1))
	}
}

func FuzzParseAndLocate(f *testing.F) {
	f.Add(goodDAG, "16 - 3")
	f.Add("```json\n{\"a\": \"}\"}\n```", "}")
	f.Add("{{{{", "\u00a0$ $")
	f.Fuzz(func(t *testing.T, reply, span string) {
		if d, err := ParseDAG(reply); err == nil {
			d.Validate()
		}
		if a, err := ParseAlignment(reply); err == nil {
			Check(DAG{}, a)
		}
		tr := NewTrace(reply)
		l := tr.Locator()
		loc := l.Locate(span)
		if loc.Found() && (loc.Start < 0 || loc.End > tr.Len() || loc.Start > loc.End) {
			t.Fatalf("location %+v out of a trace of %d", loc, tr.Len())
		}
		// As the unbounded locator found it, within the budget.
		if want := refLocate(NewTrace(reply), span); loc.Cut == "" && loc != want {
			t.Fatalf("Locate(%q) in %q = %+v, before %+v", span, reply, loc, want)
		}
		if l.Spent() > LocateBudget(tr.Len()) {
			t.Fatalf("spent %d steps of a budget of %d", l.Spent(), LocateBudget(tr.Len()))
		}
	})
}
