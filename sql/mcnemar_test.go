package sql_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/datg/datg/internal/duck"
	"github.com/google/go-cmp/cmp"
)

// exactMcNemar is the exact two-sided McNemar p-value computed with exact
// integers: 2 * sum_{i <= min(b, c)} C(b+c, i) / 2^(b+c), at most 1.
func exactMcNemar(b, c int64) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	sum := new(big.Int)
	for i := int64(0); i <= min(b, c); i++ {
		sum.Add(sum, new(big.Int).Binomial(n, i))
	}
	p, _ := new(big.Rat).SetFrac(new(big.Int).Mul(sum, big.NewInt(2)), new(big.Int).Lsh(big.NewInt(1), uint(n))).Float64()
	return math.Min(1, p)
}

func TestMcNemarMacro(t *testing.T) {
	db, err := duck.Open(context.Background(), fixtureRun(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, bc := range [][2]int64{{0, 0}, {3, 0}, {10, 2}, {2, 10}, {5, 5}, {50, 30}, {400, 350}, {1, 1000}} {
		var p float64
		if err := db.QueryRow(fmt.Sprintf("SELECT mcnemar_p(%d, %d)", bc[0], bc[1])).Scan(&p); err != nil {
			t.Fatal(err)
		}
		if want := exactMcNemar(bc[0], bc[1]); math.Abs(p-want) > 1e-9*math.Max(1, want) && math.Abs(p-want) > 1e-300 {
			t.Errorf("mcnemar_p(%d, %d) = %v, want %v", bc[0], bc[1], p, want)
		}
	}
}

// Each direction's row of direction_accuracy pairs its traces with the en-en
// trace of the same model, level, problem and seed.
func TestDirectionAccuracyMcNemar(t *testing.T) {
	traces := fixtureRows[fixtureTrace](t, "traces")
	correct := fixtureCorrect(t)
	enen := map[string]string{} // model|level|problem|seed -> en-en trace
	for _, tr := range traces {
		if tr.probe() && tr.Direction == "en-en" {
			enen[fmt.Sprint(tr.Model, "|", tr.Level, "|", tr.ProblemID, "|", tr.Seed)] = tr.TraceID
		}
	}
	type counts struct{ pairs, b, c int64 }
	want := map[string]*counts{}
	for _, tr := range traces {
		if !tr.probe() || tr.Direction == "en-en" {
			continue
		}
		e, ok := enen[fmt.Sprint(tr.Model, "|", tr.Level, "|", tr.ProblemID, "|", tr.Seed)]
		if !ok {
			continue
		}
		k := fmt.Sprint(tr.Model, "|", tr.Level, "|", tr.Direction, "|", tr.lang())

		w := want[k]
		if w == nil {
			w = &counts{}
			want[k] = w
		}
		w.pairs++
		switch {
		case correct[e] && !correct[tr.TraceID]:
			w.b++
		case !correct[e] && correct[tr.TraceID]:
			w.c++
		}
	}
	discordant := false
	for _, row := range tableRows(t, "direction_accuracy") {
		k := fmt.Sprint(row["model"], "|", row["level"], "|", row["direction"], "|", row["lang"])
		w, ok := want[k]
		if !ok {
			if row["mcnemar_p"] != nil {
				t.Errorf("%s: a McNemar p-value without pairs", k)
			}
			continue
		}
		count := func(col string) int64 { v, _ := number(row[col]); return int64(v) }
		got := counts{pairs: count("paired_n"), b: count("mcnemar_b"), c: count("mcnemar_c")}
		if d := cmp.Diff(*w, got, cmp.AllowUnexported(counts{})); d != "" {
			t.Errorf("%s: paired_n (pairs), mcnemar_b (b) and mcnemar_c (c) (-want +got):\n%s", k, d)
		}

		p, _ := number(row["mcnemar_p"])
		if math.Abs(p-exactMcNemar(w.b, w.c)) > 0.00005 {
			t.Errorf("%s: p %v, want %v", k, p, exactMcNemar(w.b, w.c))
		}
		discordant = discordant || w.b+w.c > 0
		delete(want, k)
	}
	if len(want) > 0 || !discordant {
		t.Fatalf("rows missing for %d paired cells; discordant pairs seen: %v", len(want), discordant)
	}
}
