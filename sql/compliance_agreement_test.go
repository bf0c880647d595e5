package sql_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestComplianceAgreementMatchesAnIndependentComputation recomputes
// compliance_agreement from the fixture's traces and detections in Go:
// base en-x traces, grouped by model, level and target language, each
// detector's compliant count and the traces they decide differently.
func TestComplianceAgreementMatchesAnIndependentComputation(t *testing.T) {
	type cell struct{ n, ld, li, disagree, onlyLD, onlyLI int64 }
	traces := map[string]fixtureTrace{}
	for _, tr := range fixtureRows[fixtureTrace](t, "traces") {
		traces[tr.TraceID] = tr
	}
	decisions := map[string]map[string]bool{} // trace -> detector -> compliant
	type detection struct {
		TraceID   string `json:"trace_id"`
		Detector  string `json:"detector"`
		Compliant bool   `json:"compliant"`
	}
	for _, d := range fixtureRows[detection](t, "detections") {
		if decisions[d.TraceID] == nil {
			decisions[d.TraceID] = map[string]bool{}
		}
		decisions[d.TraceID][d.Detector] = d.Compliant
	}
	want := map[string]*cell{}
	for id, tr := range traces {
		ds, ok := decisions[id]
		if !tr.probe() || tr.Direction != "en-x" || !ok {
			continue
		}
		k := fmt.Sprintf("%s|%s|%s", tr.Model, tr.Level, tr.ReasoningLang)
		if want[k] == nil {
			want[k] = &cell{}
		}
		c := want[k]
		c.n++
		ld, li := ds["langdetect"], ds["lingua"]
		if ld {
			c.ld++
		}
		if li {
			c.li++
		}
		if ld != li {
			c.disagree++
			if ld {
				c.onlyLD++
			} else {
				c.onlyLI++
			}
		}
	}
	rows := tableRows(t, "compliance_agreement")
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d cells", len(rows), len(want))
	}
	disagreements := int64(0)
	for _, r := range rows {
		k := fmt.Sprintf("%s|%s|%s", r["model"], r["level"], r["lang"])
		w, ok := want[k]
		if !ok {
			t.Errorf("unexpected cell %s", k)
			continue
		}
		count := func(col string) int64 { v, _ := number(r[col]); return int64(v) }
		got := cell{count("n"), count("compliant_langdetect"), count("compliant_lingua"), count("disagree"), count("only_langdetect"), count("only_lingua")}
		if d := cmp.Diff(*w, got, cmp.AllowUnexported(cell{})); d != "" {
			t.Errorf("%s: counts (-want +got):\n%s", k, d)
		}

		for col, count := range map[string]int64{"pct_langdetect": w.ld, "pct_lingua": w.li} {
			pct := math.Round(1000*float64(count)/float64(w.n)) / 10
			if v, _ := number(r[col]); math.Abs(v-pct) > 1e-9 {
				t.Errorf("%s %s = %v, want %v", k, col, r[col], pct)
			}
		}
		disagreements += got.disagree
	}
	// The fixture has disagreements each way, and some outside the table
	// (a loop-retry and an x-x trace) that must not count.
	if disagreements != 3 {
		t.Errorf("%d disagreements in the table, want 3", disagreements)
	}
}
