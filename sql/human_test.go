package sql_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestHumanEvalMatchesAnIndependentComputation recomputes human_eval from
// the fixture's annotations, scores, harmful actions and traces in Go.
func TestHumanEvalMatchesAnIndependentComputation(t *testing.T) {
	anns := fixtureRows[humanRow](t, "annotations")
	langOf := map[string]string{}
	for _, tr := range fixtureRows[fixtureTrace](t, "traces") {
		langOf[tr.TraceID] = tr.lang()
	}
	type pair struct{ trace, dag string }
	// The human alignment's scores, from the statuses by the contract's
	// definitions (human_scores_test.go).
	human := map[pair]humanScore{}
	for p, h := range fixtureHumanScores(t) {
		human[pair{p[0], p[1]}] = h
	}
	type cell struct {
		n              int
		carA, carH     []float64
		pmfA, pmfH     []float64
		harA, harH     []float64
		nodeOK, node   int
		edgeOK, edge   int
		cands, judged  int
		anyYes, allYes int
		instances      map[pair]bool
	}
	cells := map[[2]string]*cell{}
	get := func(aligner, lang string) *cell {
		k := [2]string{aligner, lang}
		if cells[k] == nil {
			cells[k] = &cell{instances: map[pair]bool{}}
		}
		return cells[k]
	}
	for _, s := range fixtureRows[fixtureScore](t, "scores") {
		p := pair{s.TraceID, s.DagID}
		h, ok := human[p]
		if !ok {
			continue
		}
		for _, lang := range []string{langOf[s.TraceID], "all"} {
			c := get(s.Aligner, lang)
			c.n++
			c.instances[p] = true
			if h.car != nil {
				c.carA, c.carH = append(c.carA, s.CAR), append(c.carH, *h.car)
			}
			if h.pmf != nil && s.PMF != nil {
				c.pmfA, c.pmfH = append(c.pmfA, *s.PMF), append(c.pmfH, *h.pmf)
			}
			if h.har != nil {
				c.harA, c.harH = append(c.harA, s.HAR), append(c.harH, *h.har)
			}
		}
	}
	for _, c := range cells {
		for _, a := range anns {
			if !c.instances[pair{a.TraceID, a.DagID}] {
				continue
			}
			switch a.Layer {
			case "node":
				c.node++
				if a.Label == "valid" {
					c.nodeOK++
				}
			case "edge":
				c.edge++
				if a.Label == "valid" {
					c.edgeOK++
				}
			}
		}
	}
	// Every action of the three lists is a candidate, judged by its quote:
	// its evidence_span, or its evidence when it has none (the paper's
	// degenerate_steps). Confirmed: by any annotator who judged it (the
	// paper-comparable reading) or by every one (datg's stricter variant).
	type harmfulAction struct {
		TraceID      string `json:"trace_id"`
		DagID        string `json:"dag_id"`
		Aligner      string `json:"aligner"`
		Evidence     string `json:"evidence"`
		EvidenceSpan string `json:"evidence_span"`
	}
	for _, h := range fixtureRows[harmfulAction](t, "harmful_actions") {
		p := pair{h.TraceID, h.DagID}
		quote := h.EvidenceSpan
		if strings.TrimSpace(quote) == "" {
			quote = h.Evidence
		}
		for _, lang := range []string{langOf[h.TraceID], "all"} {
			c, ok := cells[[2]string{h.Aligner, lang}]
			if !ok || !c.instances[p] {
				continue
			}
			c.cands++
			judgments, confirmations := 0, 0
			for _, a := range anns {
				if a.TraceID == h.TraceID && a.DagID == h.DagID && a.Layer == "harmful" && a.Item == quote {
					judgments++
					if a.Label == "harmful" {
						confirmations++
					}
				}
			}
			if judgments > 0 {
				c.judged++
				if confirmations > 0 {
					c.anyYes++
				}
				if confirmations == judgments {
					c.allYes++
				}
			}
		}
	}
	mae := func(a, b []float64) float64 {
		s := 0.0
		for i := range a {
			s += math.Abs(a[i] - b[i])
		}
		return s / float64(len(a))
	}
	checked := 0
	for _, row := range tableRows(t, "human_eval") {
		k := [2]string{fmt.Sprint(row["aligner"]), fmt.Sprint(row["lang"])}
		c, ok := cells[k]
		if !ok {
			t.Errorf("%v: a row the fixture does not give", k)
			continue
		}
		want := map[string]float64{
			"n":              float64(c.n),
			"node_valid":     100 * float64(c.nodeOK) / float64(c.node),
			"edge_valid":     100 * float64(c.edgeOK) / float64(c.edge),
			"car_mae":        mae(c.carA, c.carH),
			"pmf_mae":        mae(c.pmfA, c.pmfH),
			"har_mae":        mae(c.harA, c.harH),
			"pmf_pearson":    pearson(c.pmfA, c.pmfH),
			"pmf_spearman":   pearson(averageRanks(c.pmfA), averageRanks(c.pmfH)),
			"car_pearson":    pearson(c.carA, c.carH),
			"car_spearman":   pearson(averageRanks(c.carA), averageRanks(c.carH)),
			"har_candidates": float64(c.cands),
			"har_judged":     float64(c.judged),
		}
		if c.judged > 0 {
			want["har_precision_any"] = 100 * float64(c.anyYes) / float64(c.judged)
			want["har_precision_all"] = 100 * float64(c.allYes) / float64(c.judged)
		}
		for col, w := range want {
			got, ok := number(row[col])
			if math.IsNaN(w) || math.IsInf(w, 0) {
				if ok {
					t.Errorf("%v %s = %v, want none (undefined)", k, col, got)
				}
				continue
			}
			// The query rounds fractions to 3 decimals and percentages to 1.
			tol := 0.0005 + 1e-9
			if col == "node_valid" || col == "edge_valid" || strings.HasPrefix(col, "har_precision") {
				tol = 0.05 + 1e-9
			}
			if !ok || math.Abs(got-w) > tol {
				t.Errorf("%v %s = %v, want %.4f", k, col, row[col], w)
			}
		}
		checked++
		delete(cells, k)
	}
	if len(cells) > 0 || checked < 4 {
		t.Fatalf("%d cells without a row; %d rows checked", len(cells), checked)
	}
}
