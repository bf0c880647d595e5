package sql_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"sort"
	"testing"

	"github.com/datg/datg/internal/duck"
	datgsql "github.com/datg/datg/sql"
)

// TestAlignerAgreementMatchesAnIndependentComputation recomputes the
// agreement statistics of the fixture in Go (Spearman as Pearson over
// average ranks, ties sharing the mean of their positions) and compares them
// with aligner_agreement.sql.
func TestAlignerAgreementMatchesAnIndependentComputation(t *testing.T) {
	base := map[string]bool{}
	for _, tr := range fixtureRows[fixtureTrace](t, "traces") {
		base[tr.TraceID] = tr.probe()
	}
	byAligner := map[string]map[[2]string]fixtureScore{}
	for _, s := range fixtureRows[fixtureScore](t, "scores") {
		if !base[s.TraceID] {
			continue
		}
		if byAligner[s.Aligner] == nil {
			byAligner[s.Aligner] = map[[2]string]fixtureScore{}
		}

		byAligner[s.Aligner][[2]string{s.TraceID, s.DagID}] = s
	}
	var carA, carB, pmfA, pmfB []float64
	var carMAE, harMAE float64
	for k, a := range byAligner["llm"] {
		b, ok := byAligner["symbolic"][k]
		if !ok {
			continue
		}
		carA, carB = append(carA, a.CAR), append(carB, b.CAR)
		carMAE += math.Abs(a.CAR - b.CAR)
		harMAE += math.Abs(a.HAR - b.HAR)
		if a.PMF != nil && b.PMF != nil {
			pmfA, pmfB = append(pmfA, *a.PMF), append(pmfB, *b.PMF)
		}
	}
	n := float64(len(carA))
	want := map[string]float64{
		"n":            n,
		"car_mae":      carMAE / n,
		"car_pearson":  pearson(carA, carB),
		"car_spearman": pearson(averageRanks(carA), averageRanks(carB)),
		"n_pmf":        float64(len(pmfA)),
		"pmf_pearson":  pearson(pmfA, pmfB),
		"pmf_spearman": pearson(averageRanks(pmfA), averageRanks(pmfB)),
		"har_mae":      harMAE / n,
	}
	if len(pmfA) == len(carA) {
		t.Fatal("the fixture should have pairs without a PMF")
	}

	rows := tableRows(t, "aligner_agreement")
	if len(rows) == 0 {
		t.Fatal("aligner_agreement: no rows")
	}
	for c, v := range rows[0] {
		w, ok := want[c]
		if !ok {
			continue
		}
		var got float64
		switch v := v.(type) {
		case float64:
			got = v
		case int64:
			got = float64(v)
		default:
			t.Fatalf("%s: unexpected %T", c, v)
		}
		if math.Abs(got-w) > 0.0005 {
			t.Errorf("%s = %v, want %.4f", c, got, w)
		}
	}
}

func averageRanks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	ranks := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			ranks[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return ranks
}

func pearson(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sx, sy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sx += (x[i] - mx) * (x[i] - mx)
		sy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sx*sy)
}

// tableRows runs a table's query on the fixture run and returns its rows as
// column -> value, as datg sql --format json gives them: numbers as
// float64, NULL as nil.
func tableRows(t *testing.T, name string) []map[string]any {
	t.Helper()
	db, err := duck.Open(context.Background(), fixtureRun(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	f, ok := datgsql.Table(name)
	if !ok {
		t.Fatalf("no table %s", name)
	}
	var out bytes.Buffer
	if err := duck.WriteQuery(context.Background(), db, f.Text, duck.FormatJSON, &out); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	for dec := json.NewDecoder(&out); dec.More(); {
		var row map[string]any
		if err := dec.Decode(&row); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	return rows
}
