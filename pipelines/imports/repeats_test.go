package imports

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/store/storetest"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/traceids"
	"github.com/datg/datg/schema"
)

// traceLine is a record of problem low-3 (low-99 when unknown, a bad
// record), seed seed, and id id when not empty.
func traceLine(seed int, id string, unknown bool) string {
	problem := "low-3"
	if unknown {
		problem = "low-99"
	}
	idField := ""
	if id != "" {
		idField = fmt.Sprintf(`"trace_id": %q, `, id)
	}
	return fmt.Sprintf(`{%s"model": "Qwen/Qwen3-4B", "input_lang": "en", "reasoning_lang": "sw", "level": "low", "problem_id": %q, "seed": %d, "method": "base", "text": "<think>\nKwanza %d\n</think> \\boxed{1}", "completion_tokens": 12}`,
		idField, problem, seed, seed)
}

// Import stops at the error a check line by line stops at, whether the
// identities and ids it has read were spilled or not: random files with
// repeated identities, repeated ids and unknown problems at random lines,
// against the line-by-line check (the code before, written out here).
func TestImportStopsAtTheFirstRepeat(t *testing.T) {
	for seed := range uint64(60) {
		rnd := rand.New(rand.NewPCG(seed, 31))
		restore := store.SetSpillKeys([]int{1, 3, 8, 1 << 20}[rnd.IntN(4)])
		n := 1 + rnd.IntN(120)
		var lines []string
		var want error
		in := ""
		identities, ids := map[int]int{}, map[string]int{} // seed or id -> first line
		for line := 1; line <= n; line++ {
			traceSeed := 1000 + line
			if rnd.IntN(40) == 0 && line > 1 {
				traceSeed = 1000 + 1 + rnd.IntN(line-1) // a repeated identity
			}
			id := ""
			if rnd.IntN(2) == 0 {
				id = fmt.Sprintf("id-%d", line)
				if rnd.IntN(30) == 0 && line > 1 {
					id = fmt.Sprintf("id-%d", 1+rnd.IntN(line-1)) // perhaps a repeated id
				}
			}
			unknown := rnd.IntN(150) == 0
			lines = append(lines, traceLine(traceSeed, id, unknown))
			if want != nil {
				continue
			}
			switch first, seen := identities[traceSeed]; {
			case unknown:
				want = inputerr.Field("IN", line, "problem_id", fmt.Errorf("%w: low-99 is not in the problems table (ingest it first)", ErrBadRecord))
			case seen:
				want = inputerr.At("IN", line, fmt.Errorf("%w: same model, languages, problem, seed and method as line %d", ErrDuplicate, first))
			case id != "" && ids[id] != 0:
				want = inputerr.Field("IN", line, "trace_id", fmt.Errorf("%w: %s is used twice", ErrDuplicate, id))
			}
			identities[traceSeed] = line
			if id != "" {
				ids[id] = line
			}
		}
		in = write(t, strings.Join(lines, "\n")+"\n")
		dir := runDir(t)
		_, err := Run(context.Background(), Config{Kind: "traces", In: in, Data: dir})
		restore()
		wantText := "<nil>"
		if want != nil {
			wantText = strings.ReplaceAll(want.Error(), "IN", in)
		}
		if fmt.Sprint(err) != wantText {
			t.Fatalf("seed %d (%d lines):\ngot  %v\nwant %s", seed, n, err, wantText)
		}
		if want != nil && store.Exists(dir, schema.Traces.Table) {
			t.Fatalf("seed %d: a refused import left a table", seed)
		}
	}
}

// heldTrace is the run's trace of seed seed, held under id (its derived
// id when empty).
func heldTrace(seed int, id string) schema.Trace {
	t := schema.Trace{Model: "Qwen/Qwen3-4B", InputLang: "en", ReasoningLang: "sw", Direction: "en-x", Level: "low",
		ProblemID: "low-3", Seed: int64(seed), Method: "base", Text: fmt.Sprint(seed), Source: fmt.Sprintf("import:held-%d.jsonl", seed)}
	t.TraceID = traceids.KeyOf(&t)
	if id != "" {
		t.TraceID = id
	}
	return t
}

// An import into a run that holds traces stops at the error a check line
// by line against the table's index stops at (the code before, written
// out here with traceids.Load), whether the lines' and the table's ids
// were spilled or not: random tables with traces under ids of their own,
// and random files that replace them, give a held trace another id, take
// a held trace's id for another, repeat identities and ids, or name
// unknown problems.
func TestImportStopsAtTheFirstCollision(t *testing.T) {
	kinds := map[string]int{} // the errors wanted, by kind: every kind is reached
	for seed := range uint64(50) {
		rnd := rand.New(rand.NewPCG(seed, 47))
		restore := store.SetSpillKeys([]int{1, 2, 5, 1 << 20}[rnd.IntN(4)])
		dir := runDir(t)
		n := 1 + rnd.IntN(60)
		var held []schema.Trace
		for i := range n {
			id := ""
			if rnd.IntN(4) == 0 {
				id = fmt.Sprintf("own-%d", i)
			}
			held = append(held, heldTrace(i, id))
		}
		if err := store.WriteAll(dir, schema.Traces, store.Meta{}, held); err != nil {
			t.Fatal(err)
		}
		index, err := traceids.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		var want error
		identities, ids := map[int]int{}, map[string]int{}
		for line, m := 1, 1+rnd.IntN(80); line <= m; line++ {
			traceSeed, id := 1000+line, ""
			switch rnd.IntN(12) {
			case 0, 1: // a held trace again, under its id or none
				h := held[rnd.IntN(n)]
				traceSeed = int(h.Seed)
				if rnd.IntN(2) == 0 || h.TraceID != traceids.KeyOf(&h) {
					id = h.TraceID
				}
			case 2: // a held trace under another id
				traceSeed, id = rnd.IntN(n), fmt.Sprintf("other-%d", line)
			case 3: // a new trace under a held trace's id
				id = held[rnd.IntN(n)].TraceID
			case 4: // perhaps a repeated identity
				if line > 1 {
					traceSeed = 1000 + 1 + rnd.IntN(line-1)
				}
			case 5: // an id of its own, perhaps repeated
				id = fmt.Sprintf("id-%d", 1+rnd.IntN(line))
			}
			unknown := rnd.IntN(100) == 0
			lines = append(lines, traceLine(traceSeed, id, unknown))
			if want != nil {
				continue
			}
			rec := schema.Trace{Model: "Qwen/Qwen3-4B", InputLang: "en", ReasoningLang: "sw", Level: "low", ProblemID: "low-3", Seed: int64(traceSeed), Method: "base"}
			key := traceids.KeyOf(&rec)
			rowID := id
			if rowID == "" {
				rowID = key
			}
			first, seen := identities[traceSeed]
			switch err := index.Check(rowID, key); {
			case unknown:
				want = inputerr.Field("IN", line, "problem_id", fmt.Errorf("%w: low-99 is not in the problems table (ingest it first)", ErrBadRecord))
			case seen:
				want = inputerr.At("IN", line, fmt.Errorf("%w: same model, languages, problem, seed and method as line %d", ErrDuplicate, first))
			case ids[rowID] != 0:
				want = inputerr.Field("IN", line, "trace_id", fmt.Errorf("%w: %s is used twice", ErrDuplicate, rowID))
			case err != nil:
				if errors.Is(err, traceids.ErrHeldUnderAnotherID) {
					err = fmt.Errorf("%w; give that id or none", err)
				}
				want = inputerr.Field("IN", line, "trace_id", fmt.Errorf("%w: %w", ErrDuplicate, err))
			}
			identities[traceSeed], ids[rowID] = line, line
		}
		in := write(t, strings.Join(lines, "\n")+"\n")
		_, err = Run(context.Background(), Config{Kind: "traces", In: in, Data: dir})
		restore()
		wantText := "<nil>"
		if want != nil {
			wantText = strings.ReplaceAll(want.Error(), "IN", in)
		}
		kind := "none"
		for _, k := range []string{"twice", "same model", "not in the problems", "another trace", "under another"} {
			if strings.Contains(wantText, k) {
				kind = k
			}
		}
		kinds[kind]++
		if fmt.Sprint(err) != wantText {
			t.Fatalf("seed %d (%d held, %d lines):\ngot  %v\nwant %s", seed, n, len(lines), err, wantText)
		}
		if want != nil {
			rows, err := store.ReadAll(dir, schema.Traces)
			if err != nil || len(rows) != n {
				t.Fatalf("seed %d: a refused import changed the table: %d rows, %v", seed, len(rows), err)
			}
		}
	}
	t.Logf("errors wanted: %v", kinds)
	if len(kinds) < 6 {
		t.Errorf("errors wanted: %v; every kind should be reached", kinds)
	}
}

// maxHeapPerTrace bounds the live heap datg import traces holds per trace
// when it commits, beyond a constant: the Parquet writer's footer and page
// indexes, kept until the file is closed (about 25 KB a row group of 1,024
// traces here: 25 bytes a trace measured, a heap profile's
// writer.writeRowGroup). Keeping every identity's digest and line, and
// the writer's digest of every id, held 47 bytes a trace.
const maxHeapPerTrace = 35

// TestImportHeapFlat imports files of n traces into a new run and
// measures the live heap when the table is committed.
func TestImportHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 70,000 traces")
	}
	measure := func(n int) int64 {
		var b strings.Builder
		for i := range n {
			b.WriteString(traceLine(i, "", false))
			b.WriteByte('\n')
		}
		in := write(t, b.String())
		b = strings.Builder{}
		dir := runDir(t)
		held, err := storetest.HeapHeldAt("finish traces", func() error {
			_, err := Run(context.Background(), Config{Kind: "traces", In: in, Data: dir})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return held
	}
	// The first run also makes what every run shares: it is run again.
	// Both sizes fill the last row group (1,024 traces) alike.
	measure(10_240)
	per := testenv.HeapPer(t, "trace", 10_240, 51_200, measure)
	if per > maxHeapPerTrace {
		t.Errorf("datg import traces holds %d bytes of live heap per trace until its commit (at most %d): its memory grows with the run", per, maxHeapPerTrace)
	}
}

// maxHeapPerHeldTrace bounds the heap an import holds at its peak per
// trace the run already holds, beyond a constant. The table's ids and
// identities are read in sorted runs, none held; what grows is the merge's
// rewrite of the table (the footers of the file read and of the file
// written, about 20 KB each a row group of 1,024 traces: 40 bytes a
// trace) and the collector's noise: 60-75 bytes a trace measured. Loading
// the table's index (traceids.Load: three maps of every trace's id,
// identity and source) while the file was read held 400 bytes a trace at
// the peak, 150 MB at ten times the paper's scale.
const maxHeapPerHeldTrace = 100

// TestImportIntoARunHeapFlat imports a file of 3,000 traces into runs that
// already hold n traces and measures the largest heap it holds: it may
// not grow with n.
func TestImportIntoARunHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes runs of 110,000 traces")
	}
	var b strings.Builder
	for i := range 3_000 {
		b.WriteString(traceLine(1_000_000+i, "", false))
		b.WriteByte('\n')
	}
	in := write(t, b.String())
	measure := func(n int) int64 {
		dir := runDir(t)
		held := make([]schema.Trace, n)
		for i := range held {
			held[i] = schema.Trace{Model: "Qwen/Qwen3-4B", InputLang: "en", ReasoningLang: "sw", Direction: "en-x", Level: "low",
				ProblemID: "low-3", Seed: int64(i), Method: "base", Text: fmt.Sprint(i), Source: "import:held.jsonl"}
			held[i].TraceID = traceids.KeyOf(&held[i])
		}
		if err := store.WriteAll(dir, schema.Traces, store.Meta{}, held); err != nil {
			t.Fatal(err)
		}
		held = nil
		return storetest.PeakHeap(func() {
			if _, err := Run(context.Background(), Config{Kind: "traces", In: in, Data: dir}); err != nil {
				t.Fatal(err)
			}
		})
	}
	measure(10_000)
	per := testenv.HeapPer(t, "trace held", 10_000, 110_000, measure)
	if per > maxHeapPerHeldTrace {
		t.Errorf("datg import traces holds %d bytes of heap per trace the run held (at most %d): its memory grows with the run", per, maxHeapPerHeldTrace)
	}
}
