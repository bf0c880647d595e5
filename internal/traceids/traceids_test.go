package traceids

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"runtime"
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
// tables of n traces: beyond the table file's footer, which parquet-go
// decodes whole (about 21 KB a row group of 1,024 traces), the heap it
// holds may grow with n only by a few bytes a trace. The table's whole
// index was about 250 bytes a trace.
func TestCheckPlanHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 90,000 traces")
	}
	var plan []transforms.TraceKey
	for i := range 1_875 {
		k := tableKey(i)
		k.Method = "reference"
		plan = append(plan, k)
	}
	// The sampled peak varies by a few hundred KB from run to run; the
	// tables' sizes are far enough apart that this is a few bytes a trace.
	const small, large = 5_000, 80_000
	peak, footer := map[int]int64{}, map[int]int64{}
	for _, n := range []int{small, small, large} {
		dir := t.TempDir()
		var table []transforms.TraceKey
		for i := range n {
			table = append(table, tableKey(i))
		}
		writeTable(t, dir, table, nil)
		table = nil
		footer[n] = footerHeap(t, dir)
		peak[n] = storetest.PeakHeap(func() {
			if err := CheckPlan(dir, seqOf(plan)); err != nil {
				t.Fatal(err)
			}
		})
	}
	per := (peak[large] - footer[large] - peak[small] + footer[small]) / (large - small)
	t.Logf("peak heap: %d KB at %d traces, %d KB at %d (footers %d and %d KB): %d bytes a trace beyond the footer",
		peak[small]>>10, small, peak[large]>>10, large, footer[small]>>10, footer[large]>>10, per)
	if per > 10 {
		t.Errorf("CheckPlan holds %d bytes of heap per trace of the table beyond its footer (at most 10): its memory grows with the run", per)
	}
}

// footerHeap is the heap an open traces file holds: its decoded footer.
func footerHeap(t *testing.T, dir string) int64 {
	paths, err := store.Paths(dir, schema.Traces.Table)
	if err != nil || len(paths) != 1 {
		t.Fatalf("traces files %v: %v", paths, err)
	}
	var ms runtime.MemStats
	runtime.GC() // twice, as in storetest.PeakHeap: the pools' buffers are freed by the second
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	pf, f, err := store.OpenFile(paths[0], true)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(pf)
	return int64(ms.HeapAlloc) - int64(before)
}
