package imports

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/store/storetest"
	"github.com/datg/datg/internal/testenv"
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
