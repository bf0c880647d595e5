package datg

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/datg/datg/study"
)

// Alignment is the closed-set alignment JSON of the paper's appendix.
type Alignment struct {
	AuditResults       map[string][]Event `json:"audit_results"`
	ContradictorySteps []Action           `json:"contradictory_steps"`
	HarmfulLoopSteps   []Action           `json:"harmful_loop_steps"`
	DegenerateSteps    []Action           `json:"degenerate_steps"`
}

// Event is one piece of evidence for a node.
type Event struct {
	Status       string `json:"status"`
	Evidence     string `json:"evidence"`
	EvidenceSpan string `json:"evidence_span"`
}

// Action is one harmful action.
type Action struct {
	Evidence     string `json:"evidence"`
	EvidenceSpan string `json:"evidence_span"`
	Category     string `json:"category,omitempty"`
}

// Harmful action categories, one per list of the alignment JSON.
const (
	Contradictory = "contradictory"
	HarmfulLoop   = "harmful_loop"
	Degenerate    = "degenerate"
)

// ActionCaps are the paper's caps on the harmful lists (appendix C.3): the
// first 2 contradictory and 2 harmful-loop steps and the first degenerate
// step are scored; items past a cap are problems (too-many-actions), kept
// rather than dropped, and not scored.
var ActionCaps = map[string]int{Contradictory: 2, HarmfulLoop: 2, Degenerate: 1}

// ParseAlignment reads an alignment from a model's reply or an import,
// leniently as ParseDAG does.
func ParseAlignment(reply string) (Alignment, error) {
	var a Alignment
	obj, err := FindJSONObject(reply)
	if err != nil {
		return a, err
	}
	if err := json.Unmarshal([]byte(obj), &a); err != nil {
		return a, fmt.Errorf("alignment JSON: %w", err)
	}
	if a.AuditResults == nil {
		return a, fmt.Errorf("alignment JSON has no audit_results")
	}
	return a, nil
}

// CheckedEvent is an event tied to a node of the DAG, with its position in
// the node's list.
type CheckedEvent struct {
	NodeID string
	Seq    int
	Event
}

// CheckedAction is a harmful action with its category and position.
type CheckedAction struct {
	Category string
	Seq      int
	Action
}

// Problem is something wrong in an alignment, kept rather than dropped.
type Problem struct {
	Kind   study.AlignmentErrorKind
	Detail string
}

// Check ties an alignment to its DAG: events of known nodes with a valid
// status are kept (statuses are read case-insensitively); events of nodes
// the DAG does not have, events with another status, and harmful actions
// past their list's cap (ActionCaps) become problems.
func Check(d DAG, a Alignment) ([]CheckedEvent, []CheckedAction, []Problem) {
	known := map[string]int{}
	for i, n := range d.Nodes {
		known[n.NodeID] = i
	}
	var events []CheckedEvent
	var problems []Problem
	ids := make([]string, 0, len(a.AuditResults))
	for id := range a.AuditResults {
		ids = append(ids, id)
	}
	// DAG order first, unknown ids after, for a stable result.
	sort.Slice(ids, func(i, j int) bool {
		pi, oki := known[ids[i]]
		pj, okj := known[ids[j]]
		switch {
		case oki && okj:
			return pi < pj
		case oki != okj:
			return oki
		}
		return ids[i] < ids[j]
	})
	for _, id := range ids {
		list := a.AuditResults[id]
		if _, ok := known[id]; !ok {
			problems = append(problems, Problem{Kind: study.UnknownNode, Detail: fmt.Sprintf("node %q is not in the DAG (%d events)", id, len(list))})
			continue
		}
		for seq, e := range list {
			status := strings.ToUpper(strings.TrimSpace(e.Status))
			switch study.NodeStatus(status) {
			case study.Commit, study.Attempt, study.Error:
				e.Status = status
				events = append(events, CheckedEvent{NodeID: id, Seq: seq, Event: e})
			case study.Missing:
				problems = append(problems, Problem{Kind: study.MissingStatus, Detail: fmt.Sprintf("node %s event %d has status MISSING, which is implied by no events", id, seq)})
			default:
				problems = append(problems, Problem{Kind: study.BadStatus, Detail: fmt.Sprintf("node %s event %d has status %q", id, seq, e.Status)})
			}
		}
	}
	var actions []CheckedAction
	for _, l := range []struct {
		cat  string
		list []Action
	}{{Contradictory, a.ContradictorySteps}, {HarmfulLoop, a.HarmfulLoopSteps}, {Degenerate, a.DegenerateSteps}} {
		for seq, act := range l.list {
			if limit := ActionCaps[l.cat]; seq >= limit {
				problems = append(problems, Problem{Kind: study.TooManyActions,
					Detail: fmt.Sprintf("%s_steps item %d of %d is past the cap of %d and is not scored: %q", l.cat, seq+1, len(l.list), limit, act.EvidenceSpan)})
				continue
			}
			actions = append(actions, CheckedAction{Category: l.cat, Seq: seq, Action: act})
		}
	}
	return events, actions, problems
}
