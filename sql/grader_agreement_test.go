package sql_test

import (
	"fmt"
	"testing"
)

// grader_agreement recomputed in Go from the fixture: per model, level and
// reasoning language of the base traces, each grader's correct count and
// the verdicts that differ each way.
func TestGraderAgreementMatchesAnIndependentComputation(t *testing.T) {
	type verdict struct {
		TraceID string `json:"trace_id"`
		Grader  string `json:"grader"`
		Correct bool   `json:"correct"`
		Reason  string `json:"reason"`
	}
	type cell struct{ n, mv, ml, onlyMV, onlyML, unparsed int }
	traces := map[string]fixtureTrace{}
	for _, tr := range fixtureRows[fixtureTrace](t, "traces") {
		traces[tr.TraceID] = tr
	}
	byTrace := map[string]map[string]verdict{}
	for _, v := range fixtureRows[verdict](t, "verdicts") {
		if byTrace[v.TraceID] == nil {
			byTrace[v.TraceID] = map[string]verdict{}
		}
		byTrace[v.TraceID][v.Grader] = v
	}
	want := map[string]*cell{}
	for id, vs := range byTrace {
		tr, ok := traces[id]
		mv, hasMV := vs["math-verify"]
		ml, hasML := vs["multilingual"]
		if !ok || !tr.probe() || !hasMV || !hasML {
			continue
		}
		k := fmt.Sprint(tr.Model, "|", tr.Level, "|", tr.ReasoningLang)
		c := want[k]
		if c == nil {
			c = &cell{}
			want[k] = c
		}
		c.n++
		if mv.Correct {
			c.mv++
		}
		if ml.Correct {
			c.ml++
		}
		if mv.Correct && !ml.Correct {
			c.onlyMV++
		}
		if ml.Correct && !mv.Correct {
			c.onlyML++
		}
		if mv.Reason == "gold-unparsed" {
			c.unparsed++
		}
	}
	rows := tableRows(t, "grader_agreement")
	if len(rows) != len(want) || len(rows) == 0 {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	differ := 0
	for _, r := range rows {
		k := fmt.Sprint(r["model"], "|", r["level"], "|", r["lang"])
		c := want[k]
		if c == nil {
			t.Fatalf("unexpected cell %s", k)
		}
		num := func(name string) float64 {
			v, ok := number(r[name])
			if !ok {
				t.Fatalf("%s %s = %v", k, name, r[name])
			}
			return v
		}
		pct := func(x int) float64 { return float64(int(10000.0*float64(x)/float64(c.n)+0.5)) / 100 }
		for name, got := range map[string]float64{"n": float64(c.n), "only_math_verify": float64(c.onlyMV),
			"only_multilingual": float64(c.onlyML), "gold_unparsed": float64(c.unparsed),
			"acc_math_verify": pct(c.mv), "acc_multilingual": pct(c.ml)} {
			if num(name) != got {
				t.Errorf("%s %s = %v, want %v", k, name, num(name), got)
			}
		}
		differ += c.onlyMV + c.onlyML
	}
	if differ == 0 {
		t.Fatal("the fixture has no verdicts that differ")
	}
}
