package tables

import (
	"context"
	"crypto/md5"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/schema"
	datgsql "github.com/datg/datg/sql"
)

// paperRun writes a run of the paper's size: 3 models x 3 levels x 125
// problems x 34 language pairs of base traces (38,250) graded and checked;
// the en-en and en-x ones (13,500) aligned to 5 DAGs each by one aligner
// (67,500 scores); and Table 3's Base, Loop-Retry and Formula-Retry on
// Qwen3-4B, en-x, Swahili and Telugu, three seeds (3 x 2,250 examples) with
// their trials.
//
// seeds > 1 adds base traces of seeds 1 .. seeds-1 (the probe's is 42),
// aligned and scored like the probe's: ten times the paper's design at 10,
// as scripts/scale.sh writes it.
func paperRun(b *testing.B, seeds int) string {
	b.Helper()
	dir := b.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	models := []string{"Qwen/Qwen3-1.7B", "Qwen/Qwen3-4B", "Qwen/Qwen3-8B"}
	levels := []string{"low", "medium", "high"}
	var langs []string
	for _, l := range prompts.Languages() {
		if l.Code != "en" {
			langs = append(langs, l.Code)
		}
	}
	var (
		traces  []schema.Trace
		answers []schema.Answer
		checks  []schema.Compliance
		dags    []schema.DAG
		aligns  []schema.Alignment
		scores  []schema.Score
		trials  []schema.Trial
	)
	add := func(t schema.Trace) {
		t.TraceID = fmt.Sprintf("t%07d", len(traces))
		t.TextHash, t.Text = "h", "x"
		traces = append(traces, t)
		answers = append(answers, schema.Answer{TraceID: t.TraceID, Correct: rng.IntN(2) == 0, TextHash: "h"})
		checks = append(checks, schema.Compliance{TraceID: t.TraceID, Compliant: rng.IntN(10) > 0, TextHash: "h"})
	}
	for _, level := range levels {
		for k := range 125 {
			problem := fmt.Sprintf("%s-%d", level, k)
			for r := range 5 {
				dags = append(dags, schema.DAG{DagID: fmt.Sprintf("%s/r%d", problem, r), ProblemID: problem, RefIndex: int32(r), Valid: true})
			}
		}
	}
	for _, model := range models {
		for _, level := range levels {
			for k := range 125 {
				problem := fmt.Sprintf("%s-%d", level, k)
				pairs := [][3]string{{"en", "en", "en-en"}}
				for _, x := range langs {
					pairs = append(pairs, [3]string{"en", x, "en-x"}, [3]string{x, "en", "x-en"}, [3]string{x, x, "x-x"})
				}
				for _, p := range pairs {
					for i := range seeds {
						seed := int64(42)
						if i > 0 {
							seed = int64(i)
						}
						add(schema.Trace{Model: model, Level: level, ProblemID: problem, InputLang: p[0], ReasoningLang: p[1], Direction: p[2], Seed: seed, Method: "base", CompletionTokens: 2000})
						if p[2] != "en-en" && p[2] != "en-x" {
							continue
						}
						id := traces[len(traces)-1].TraceID
						for r := range 5 {
							dag := fmt.Sprintf("%s/r%d", problem, r)
							aligns = append(aligns, schema.Alignment{TraceID: id, DagID: dag, Aligner: "llm", Status: "ok", TextHash: "h"})
							pmf := rng.Float64()
							scores = append(scores, schema.Score{TraceID: id, DagID: dag, Aligner: "llm", RefIndex: int32(r),
								CAR: rng.Float64(), PMF: &pmf, HAR: rng.Float64() / 4, Best: r == 0,
								TextHash: "h", AlignmentHash: emptyMD5}) // as datg score records them
						}
					}
				}
			}
		}
	}
	for _, method := range []string{"control-base", "loop-retry", "formula-retry"} {
		for _, level := range levels {
			for k := range 125 {
				for _, x := range []string{"sw", "te"} {
					for _, seed := range []int64{42, 215, 316} {
						t := schema.Trace{Model: models[1], Level: level, ProblemID: fmt.Sprintf("%s-%d", level, k), InputLang: "en",
							ReasoningLang: x, Direction: "en-x", Seed: seed, Method: method}
						add(t)
						n := 1 + rng.IntN(3)
						if method == "control-base" {
							n = 1
						}
						for i := range n {
							trials = append(trials, schema.Trial{TraceID: traces[len(traces)-1].TraceID, Method: method, Phase: "reasoning",
								Trial: int32(i + 1), CompletionTokens: 1024, Aborted: i < n-1, Accepted: i == n-1})
						}
					}
				}
			}
		}
	}
	for _, w := range []error{
		store.WriteAll(dir, schema.Traces, store.Meta{}, traces),
		store.WriteAll(dir, schema.Answers, store.Meta{}, answers),
		store.WriteAll(dir, schema.Compliances, store.Meta{}, checks),
		store.WriteAll(dir, schema.DAGs, store.Meta{}, dags),
		store.WriteAll(dir, schema.Alignments, store.Meta{}, aligns),
		store.WriteAll(dir, schema.Scores, store.Meta{}, scores),
		store.WriteAll(dir, schema.Trials, store.Meta{}, trials),
	} {
		if w != nil {
			b.Fatal(w)
		}
	}
	b.ReportMetric(float64(len(traces)), "traces")
	b.ReportMetric(float64(len(scores)), "scores")
	return dir
}

// BenchmarkTables measures `datg tables` (every query, layout and the
// figure) on a run of the paper's size, and each table alone.
// emptyMD5 is the MD5 of an empty alignment reply, the alignment_hash of
// the benchmark's alignments.
var emptyMD5 = fmt.Sprintf("%x", md5.Sum(nil))

func BenchmarkTables(b *testing.B) {
	dir := paperRun(b, 1)
	run := func(b *testing.B, only []string, atLeast int) {
		for range b.N {
			sum, err := Run(context.Background(), Config{Data: dir, Only: only})
			if err != nil {
				b.Fatal(err)
			}
			if len(sum.Written) < atLeast {
				b.Fatalf("wrote %d files", len(sum.Written))
			}
		}
	}
	b.Run("all", func(b *testing.B) { run(b, nil, 30) })
	for _, f := range datgsql.Tables() {
		b.Run(f.Name, func(b *testing.B) {
			if entry, _ := registered(f.Name); slices.Contains(entry.Needs, "annotations") {
				b.Skip("the run has no human audit")
			}
			run(b, []string{f.Name}, 3)
		})
	}
}

// BenchmarkTablesScale measures `datg tables` on the paper's design and on
// ten times it (382,500 base traces, 675,000 scores), and its memory:
// peak_MB is the process's peak resident memory over the runs alone
// (DuckDB's included), which should stay flat from 1x to 10x.
func BenchmarkTablesScale(b *testing.B) {
	for _, seeds := range []int{1, 10} {
		b.Run(fmt.Sprintf("x%d", seeds), func(b *testing.B) {
			dir := paperRun(b, seeds)
			reset := testenv.ResetPeakRSS()
			start := testenv.CPUTime()
			b.ResetTimer()
			for b.Loop() {
				if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((testenv.CPUTime()-start).Seconds()/float64(b.N), "cpu_s/op")
			testenv.ReportPeakRSS(b, reset)
		})
	}
}
