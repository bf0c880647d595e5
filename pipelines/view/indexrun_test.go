package view

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// writeIndexRun is a run of n traces made to break an index: every facet
// with several values (hostile, empty, combining marks, ids that sort
// differently by bytes and by letters), verdicts and detections missing,
// stale, gold-unparsed or without an answer, three aligners scoring some
// traces each with tied scores, NULL PMFs, a NaN CAR, -0, and human
// annotations in several layers. The traces are written in a random
// order (the index sorts them by id).
func writeIndexRun(t testing.TB, n int, seed uint64) string {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(seed, 7))
	pick := func(vs ...string) string { return vs[rng.IntN(len(vs))] }
	var (
		traces   []schema.Trace
		verdicts []schema.Verdict
		dets     []schema.Detection
		scores   []schema.Score
		notes    []schema.Annotation
	)
	pools := []float64{0, 0.2, 0.2, 0.35, 0.5, 0.8, 1, 1, math.Copysign(0, -1), 0.6}
	for i := range n {
		id := fmt.Sprintf("%s%04d", pick("t", "T", "t-", "é", "a b", "z"), rng.IntN(10*n))
		level := pick("low", "medium", "high", "weird")
		problem := pick(fmt.Sprintf("%s-%d", level, rng.IntN(5)), fmt.Sprintf("%s-%03d", level, rng.IntN(12)), "p-x", "")
		text := pick("we count apples", "APPLES and pears", "nothing here", "ünïcödé ß text")
		traces = append(traces, schema.Trace{TraceID: id, Model: pick("Qwen/Qwen3-4B", "m"+hostile, "", "Ωmega", "a\u0301"),
			Level: level, ProblemID: problem, Direction: pick("en-en", "en-x", "x-en", "x-x", "odd"),
			InputLang: pick("en", "sw", "te", "ja", ""), ReasoningLang: pick("en", "sw", "bn", "zz"),
			Seed: []int64{42, 1, -3, 0}[rng.IntN(4)], Method: pick("base", "control-base", "loop-retry", "reference", "other"),
			CompletionTokens: int64(rng.IntN(4) * 100), Truncated: rng.IntN(3) == 0, Text: text, TextHash: "h"})
		for _, g := range []string{"math-verify", "multilingual"} {
			v := schema.Verdict{TraceID: id, Grader: g, HasAnswer: rng.IntN(5) > 0, Correct: rng.IntN(2) == 0, Reason: pick("exact", "exact", "gold-unparsed"), TextHash: pick("h", "h", "h", "old")}
			if rng.IntN(6) > 0 {
				verdicts = append(verdicts, v)
			}
		}
		for _, d := range []string{"langdetect", "lingua"} {
			if rng.IntN(6) > 0 {
				dets = append(dets, schema.Detection{TraceID: id, Detector: d, Compliant: rng.IntN(3) > 0, Status: "ok", TextHash: pick("h", "h", "old")})
			}
		}
		for _, a := range []string{"llm", "symbolic", "z" + hostile} {
			if rng.IntN(5) < 2 {
				continue
			}
			s := schema.Score{TraceID: id, DagID: problem + "/r0", Aligner: a, CAR: pools[rng.IntN(len(pools))], HAR: pools[rng.IntN(len(pools))] / 4, Best: true, TextHash: "h"}
			if rng.IntN(4) > 0 {
				p := pools[rng.IntN(len(pools))]
				s.PMF = &p
			}
			if i%37 == 5 {
				s.CAR = math.NaN()
			}
			scores = append(scores, s)
		}
		if rng.IntN(8) == 0 {
			notes = append(notes, schema.Annotation{TraceID: id, DagID: problem + "/r0", Annotator: "a", Layer: pick("node", "edge", "status"), Item: "n1", Label: "valid"})
		}
	}
	// Ids drawn at random may repeat: a run holds each once.
	seen := map[string]bool{}
	traces = slices.DeleteFunc(traces, func(tr schema.Trace) bool {
		dup := seen[tr.TraceID]
		seen[tr.TraceID] = true
		return dup
	})
	first := map[string]bool{}
	keep := func(key string) bool {
		if first[key] {
			return false
		}
		first[key] = true
		return true
	}
	verdicts = slices.DeleteFunc(verdicts, func(v schema.Verdict) bool { return !keep("v" + v.TraceID + v.Grader) })
	dets = slices.DeleteFunc(dets, func(d schema.Detection) bool { return !keep("d" + d.TraceID + d.Detector) })
	scores = slices.DeleteFunc(scores, func(s schema.Score) bool { return !keep("s" + s.TraceID + s.Aligner) })
	notes = slices.DeleteFunc(notes, func(a schema.Annotation) bool { return !keep("a" + a.TraceID + a.Layer) })
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(store.WriteAll(dir, schema.Traces, store.Meta{}, traces))
	must(store.WriteAll(dir, schema.Verdicts, store.Meta{}, verdicts))
	must(store.WriteAll(dir, schema.Detections, store.Meta{}, dets))
	must(store.WriteAll(dir, schema.Scores, store.Meta{}, scores))
	must(store.WriteAll(dir, schema.Annotations, store.Meta{}, notes))
	return dir
}
