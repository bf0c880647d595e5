package sql_test

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/datg/datg/internal/duck"
	datgsql "github.com/datg/datg/sql"
)

// poisson1 over hashes draws Poisson(1) weights: mean 1, variance 1,
// P(0) = 1/e.
func TestPoissonWeights(t *testing.T) {
	db, err := duck.Open(context.Background(), fixtureRun(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mean, variance, zero float64
	err = db.QueryRow(`SELECT avg(w), var_pop(w), avg((w = 0)::INT) FROM
		(SELECT poisson1(bootstrap_draw(key_hash('t' || (i % 400)), i // 400)) AS w FROM range(400000) t(i))`).Scan(&mean, &variance, &zero)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(mean-1) > 0.01 || math.Abs(variance-1) > 0.02 || math.Abs(zero-1/math.E) > 0.005 {
		t.Fatalf("weights: mean %.4f, variance %.4f, P(0) %.4f", mean, variance, zero)
	}
	// Two observations' weights over the replicates are uncorrelated: the
	// correlation of 1,000 independent pairs has a standard deviation of
	// about 0.032.
	var meanCorr, maxCorr float64
	err = db.QueryRow(`WITH w AS (
			SELECT k, b, poisson1(bootstrap_draw(key_hash('t' || k), b)) AS w FROM range(40) a(k), range(1000) r(b))
		SELECT avg(c), max(abs(c)) FROM (
			SELECT corr(x.w, y.w) AS c FROM w x JOIN w y ON x.b = y.b AND x.k < y.k GROUP BY x.k, y.k)`).Scan(&meanCorr, &maxCorr)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(meanCorr) > 0.01 || maxCorr > 0.15 {
		t.Fatalf("weights of two observations correlate: mean %.4f, largest %.4f over 780 pairs", meanCorr, maxCorr)
	}
}

// Every datg_full cell has its mean inside a bootstrap interval that is
// reproducible, collapses to the value for a single trace (when the run has
// one), and stays within the metric's range.
func TestDatgFullBootstrapIntervals(t *testing.T) {
	first, second := tableRows(t, "datg_full"), tableRows(t, "datg_full")
	if !reflect.DeepEqual(first, second) {
		t.Fatal("two runs gave different intervals")
	}
	singles, spread := 0, 0
	for _, row := range first {
		n, _ := number(row["n"])
		for _, m := range []string{"car", "pmf", "har"} {
			mean, ok := number(row[m])
			lo, okLo := number(row[m+"_lo"])
			hi, okHi := number(row[m+"_hi"])
			if !ok {
				if row[m+"_lo"] != nil || row[m+"_hi"] != nil {
					t.Errorf("%v: %s has bounds without a mean", row, m)
				}
				continue
			}
			if !okLo || !okHi || lo > hi || lo < 0 || (m != "har" && hi > 1) {
				t.Errorf("%v: %s interval [%v, %v]", row, m, row[m+"_lo"], row[m+"_hi"])
				continue
			}
			if mean < lo-0.0015 || mean > hi+0.0015 {
				t.Errorf("%v: %s mean %v outside [%v, %v]", row, m, mean, lo, hi)
			}
			if n == 1 {
				singles++
				if lo != mean || hi != mean {
					t.Errorf("%v: one trace, yet %s interval [%v, %v]", row, m, lo, hi)
				}
			}
			if hi > lo {
				spread++
			}
		}
	}
	if spread == 0 {
		t.Fatalf("no interval has width (%d single-trace cells)", singles)
	}
}

// A bootstrap hashes each observation's draw key once, before the 1,000
// replicates multiply it: datg_correctness hashed (MD5) its key once per
// replicate, 13.5 million hashes at the paper's design and four fifths of
// datg tables' time. The block of every query that crosses with range(1000)
// names no key_hash (trace_draw_key is one).
func TestBootstrapsHashEachKeyOnce(t *testing.T) {
	var files []datgsql.File
	files = append(append(files, datgsql.Tables()...), datgsql.Staging()...)
	crossings := 0
	for _, f := range files {
		for rest := f.Text; ; {
			i := strings.Index(rest, "range(1000)")
			if i < 0 {
				break
			}
			crossings++
			block := rest[:i]
			if j := strings.LastIndex(block, "AS ("); j >= 0 {
				block = block[j:]
			}
			for _, hash := range []string{"trace_draw_key(", "key_hash("} {
				if strings.Contains(block, hash) {
					t.Errorf("%s: the block crossed with range(1000) calls %s once per replicate:\n%s", f.Name, hash, block)
				}
			}
			rest = rest[i+1:]
		}
	}
	if crossings < 3 {
		t.Fatalf("found %d bootstraps: the test reads the wrong files", crossings)
	}
}
