package tables

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	datgsql "github.com/datg/datg/sql"
)

// testdata/before holds the queries, views and macro as they were before
// the tables' memory was made flat in the run's seeds (issue 23): the
// probe's seed read from a table by a subquery (probe.sql), the
// bootstraps grouped by their cells' strings (datg_correctness.sql,
// stg_datg_intervals.sql), datg_main's coverage of every graded trace
// (datg_main.sql). The reference the tables now must match byte for byte.
const beforeDir = "testdata/before"

// beforeWorld writes a run of random shape: 1-3 models, 1-3 levels, a few
// problems, some languages and directions, the probe's seed and 0-3
// others, answers missing or ungraded for some traces, one or two aligners
// scoring five DAGs a problem (not every trace; PMF sometimes NULL).
func beforeWorld(t *testing.T, rng *rand.Rand) string {
	t.Helper()
	dir := t.TempDir()
	models := []string{"Qwen/Qwen3-1.7B", "Qwen/Qwen3-4B", "Qwen/Qwen3-8B"}[:1+rng.IntN(3)]
	levels := []string{"low", "medium", "high"}[:1+rng.IntN(3)]
	langs := []string{"sw", "te", "fr", "zh", "bn"}[:1+rng.IntN(5)]
	aligners := []string{"llm", "symbolic"}[:1+rng.IntN(2)]
	seeds := []int64{42, 7, 215, 316}[:1+rng.IntN(4)]
	problems := 2 + rng.IntN(6)
	var (
		traces  []schema.Trace
		answers []schema.Answer
		dags    []schema.DAG
		scores  []schema.Score
	)
	for _, level := range levels {
		for k := range problems {
			for r := range 5 {
				dags = append(dags, schema.DAG{DagID: fmt.Sprintf("%s-%d/r%d", level, k, r), ProblemID: fmt.Sprintf("%s-%d", level, k), RefIndex: int32(r), Valid: true})
			}
		}
	}
	for _, model := range models {
		for _, level := range levels {
			for k := range problems {
				pairs := [][3]string{{"en", "en", "en-en"}}
				for _, x := range langs {
					pairs = append(pairs, [3]string{"en", x, "en-x"}, [3]string{x, "en", "x-en"}, [3]string{x, x, "x-x"})
				}
				for _, p := range pairs {
					for _, seed := range seeds {
						id := fmt.Sprintf("t%05d", len(traces))
						method := "base"
						if rng.IntN(10) == 0 {
							method = "loop-retry"
						}
						traces = append(traces, schema.Trace{TraceID: id, Model: model, Level: level, ProblemID: fmt.Sprintf("%s-%d", level, k),
							InputLang: p[0], ReasoningLang: p[1], Direction: p[2], Seed: seed, Method: method, TextHash: "h", Text: "x"})
						if rng.IntN(15) > 0 { // else not graded
							answers = append(answers, schema.Answer{TraceID: id, Correct: rng.IntN(2) == 0, TextHash: "h"})
						}
						if p[2] != "en-en" && p[2] != "en-x" {
							continue
						}
						for _, aligner := range aligners {
							if rng.IntN(8) == 0 {
								continue // not scored
							}
							best := rng.IntN(5)
							for r := range 5 {
								s := schema.Score{TraceID: id, DagID: fmt.Sprintf("%s-%d/r%d", level, k, r), Aligner: aligner, RefIndex: int32(r),
									CAR: rng.Float64(), HAR: rng.Float64() / 4, Best: r == best, TextHash: "h"}
								if rng.IntN(6) > 0 {
									pmf := rng.Float64()
									s.PMF = &pmf
								}
								scores = append(scores, s)
							}
						}
					}
				}
			}
		}
	}
	for _, err := range []error{
		store.WriteAll(dir, schema.Traces, store.Meta{}, traces),
		store.WriteAll(dir, schema.Answers, store.Meta{}, answers),
		store.WriteAll(dir, schema.DAGs, store.Meta{}, dags),
		store.WriteAll(dir, schema.Scores, store.Meta{}, scores),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// tablesOf runs every table query over a run as CSV, the probe at seed;
// before, with the macro, views and queries of testdata/before in place of
// today's. With keep, the shared views are kept as datg tables keeps them
// (sharedInputs: stg_datg_intervals computed once, for datg_main and
// datg_full); without, each query that names one computes it, as a query
// in datg sql does.
func tablesOf(t *testing.T, dir string, seed int64, before, keep bool) map[string][]byte {
	t.Helper()
	ctx := context.Background()
	db, err := openRun(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.SetProbeSeed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	read := func(name string) (string, bool) {
		text, err := os.ReadFile(filepath.Join(beforeDir, name+".sql"))
		if os.IsNotExist(err) {
			return "", false
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(text), true
	}
	if before {
		for _, name := range []string{"probe", "stg_datg_intervals"} {
			text, ok := read(name)
			if !ok {
				t.Fatalf("no %s/%s.sql", beforeDir, name)
			}
			if _, err := db.ExecContext(ctx, text); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	out := map[string][]byte{}
	shared := newSharedInputs(db.DB)
	for _, f := range datgsql.Tables() {
		text := f.Text
		if old, ok := read(f.Name); ok && before {
			text = old
		}
		if keep {
			if err := shared.prepare(ctx, text); err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
		}
		var b bytes.Buffer
		if err := duck.WriteQuery(ctx, db, text, duck.FormatCSV, &b); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		out[f.Name] = b.Bytes()
	}
	return out
}

// Every table gives, byte for byte, what the queries before gave, over
// random runs with several seeds besides the probe's and the probe at
// another seed: the probe's seed as a literal pushed into the traces scan,
// the bootstraps grouped by a number per cell, datg_main's coverage said
// of the probe's cells (issue 23).
//
// The first run's tables at the probe's seed are computed query by query
// (each of datg_main and datg_full computes stg_datg_intervals, as in
// datg sql); the others with the intervals kept once, as datg tables
// computes them, which halves the bootstraps of the test's longest part
// (TestSharedIntervalsAreComputedOnce checks that the kept rows are the
// computed ones).
func TestTablesMatchTheQueriesBefore(t *testing.T) {
	compared := 0
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			dir := beforeWorld(t, rand.New(rand.NewPCG(seed, 31)))
			probes := []int64{42}
			if seed == 1 {
				probes = append(probes, 7)
			}
			for _, probe := range probes {
				keep := seed != 1 || probe != 42
				want, got := tablesOf(t, dir, probe, true, keep), tablesOf(t, dir, probe, false, keep)
				for name, w := range want {
					if !bytes.Equal(got[name], w) {
						t.Errorf("probe seed %d, %s:\n%s\nbefore:\n%s", probe, name, got[name], w)
					}
					if bytes.Count(w, []byte("\n")) > 1 {
						compared++
					}
				}
			}
		})
	}
	if compared < 25 {
		t.Errorf("only %d tables with rows compared: the worlds test little", compared)
	}
}
