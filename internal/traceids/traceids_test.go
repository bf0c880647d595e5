package traceids

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/store/storetest"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms"
)

// tableKey is the identity of the table's i-th trace.
func tableKey(i int) transforms.TraceKey {
	return transforms.TraceKey{Model: "m", InputLang: "en", ReasoningLang: "sw", Level: "low", ProblemID: fmt.Sprintf("low-%d", i%125), Seed: int64(i), Method: "base"}
}

// writeTable writes traces of the identities keys, under the derived id
// or, where ids names one, another.
func writeTable(t testing.TB, dir string, keys []transforms.TraceKey, ids map[int]string) {
	rows := make([]schema.Trace, len(keys))
	for i, k := range keys {
		id := transforms.TraceID(k)
		if other, ok := ids[i]; ok {
			id = other
		}
		rows[i] = schema.Trace{TraceID: id, Model: k.Model, InputLang: k.InputLang, ReasoningLang: k.ReasoningLang, Level: k.Level,
			ProblemID: k.ProblemID, Seed: k.Seed, Method: k.Method, Source: fmt.Sprintf("import:%d", i), Text: "x"}
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, rows); err != nil {
		t.Fatal(err)
	}
}

func seqOf(keys []transforms.TraceKey) iter.Seq[transforms.TraceKey] {
	return func(yield func(transforms.TraceKey) bool) {
		for _, k := range keys {
			if !yield(k) {
				return
			}
		}
	}
}

// Reading the table past the plan's ids says of every planned trace what
// the table's whole index says: random tables where some traces are held
// under other ids (of planned traces, or taking planned ids), and plans
// that overlap them.
func TestPlanChecksAsTheIndexDoes(t *testing.T) {
	for seed := range uint64(30) {
		rnd := rand.New(rand.NewPCG(seed, 37))
		dir := t.TempDir()
		n := 1 + rnd.IntN(300)
		var table []transforms.TraceKey
		for i := range n {
			table = append(table, tableKey(i))
		}
		ids := map[int]string{}
		used := map[string]bool{}
		for i := range n {
			used[transforms.TraceID(tableKey(i))] = true
		}
		for range rnd.IntN(20) {
			i := rnd.IntN(n)
			var id string
			switch rnd.IntN(3) {
			case 0: // held under an id of its own
				id = fmt.Sprintf("mine-%d", i)
			case 1: // held under the id datg derives for a planned trace
				id = transforms.TraceID(tableKey(n + rnd.IntN(50)))
			case 2: // held under another table trace's derived id, moved away
				j := rnd.IntN(n)
				if _, moved := ids[j]; !moved || i == j {
					continue
				}
				id = transforms.TraceID(tableKey(j))
			}
			if _, moved := ids[i]; moved || used[id] {
				continue
			}
			delete(used, transforms.TraceID(tableKey(i)))
			ids[i], used[id] = id, true
		}
		writeTable(t, dir, table, ids)
		var plan []transforms.TraceKey
		for range rnd.IntN(100) {
			plan = append(plan, tableKey(rnd.IntN(n+60)))
		}
		x, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		check, err := planChecks(dir, seqOf(plan))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range plan {
			id := transforms.TraceID(k)
			if got, want := fmt.Sprint(check(id)), fmt.Sprint(x.Check(id, id)); got != want {
				t.Fatalf("seed %d, planned %s: got %s, want %s", seed, id, got, want)
			}
		}
	}
}

// TestCheckPlanHeapFlat checks a plan of 1,875 traces (references') against
// tables of n traces: the heap it holds may grow with n only by a few
// bytes a trace. The table's whole index was about 250 bytes a trace.
func TestCheckPlanHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 45,000 traces")
	}
	var plan []transforms.TraceKey
	for i := range 1_875 {
		k := tableKey(i)
		k.Method = "reference"
		plan = append(plan, k)
	}
	peak := map[int]int64{}
	for _, n := range []int{5_000, 5_000, 40_000} {
		dir := t.TempDir()
		var table []transforms.TraceKey
		for i := range n {
			table = append(table, tableKey(i))
		}
		writeTable(t, dir, table, nil)
		table = nil
		peak[n] = storetest.PeakHeap(func() {
			if err := CheckPlan(dir, seqOf(plan)); err != nil {
				t.Fatal(err)
			}
		})
	}
	per := (peak[40_000] - peak[5_000]) / 35_000
	t.Logf("peak heap: %d KB at 5,000 traces, %d KB at 40,000: %d bytes a trace", peak[5_000]>>10, peak[40_000]>>10, per)
	if per > 40 {
		t.Errorf("CheckPlan holds %d bytes of heap per trace of the table (at most 40): its memory grows with the run", per)
	}
}
