package align_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/pipelines/align"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// scaleResult is the i-th alignment of a generated run, shaped as the
// symbolic aligner's at the paper's scale (3,982,994 events and 1,620,770
// harmful actions for 669,600 alignments): six events, two or three
// harmful actions, an error every fourth, quotes of prose and numbers.
func scaleResult(i int, rnd *rand.Rand) align.Result {
	words := strings.Fields("we have so the answer is let us compute first then check again wait but sum product " +
		"equation solve value total each per number Kwanza tunahesabu jumla nombre donc alors réponse calculons")
	quote := func(n int) string {
		var b strings.Builder
		for b.Len() < n {
			if rnd.IntN(6) == 0 {
				fmt.Fprintf(&b, "%d ", rnd.IntN(100000))
			} else {
				b.WriteString(words[rnd.IntN(len(words))])
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	traceID, dagID := fmt.Sprintf("%016x", rnd.Uint64()), fmt.Sprintf("mid-%d-ref%d", i/5%4000, i%5)
	a := schema.Alignment{TraceID: traceID, DagID: dagID, Aligner: "symbolic", Status: string(study.AlignmentOK),
		Raw: quote(1200), TextHash: fmt.Sprintf("%064x", rnd.Uint64()), DagHash: fmt.Sprintf("%064x", rnd.Uint64()), CreatedAt: time.Unix(int64(i), 0)}
	r := align.Result{Alignment: a}
	for n := range 6 {
		start, end, block, progress := int32(n*100), int32(n*100+60), int32(n), float64(n)/6
		r.Events = append(r.Events, schema.AlignmentEvent{TraceID: traceID, DagID: dagID, Aligner: "symbolic", NodeID: fmt.Sprintf("n%d", n),
			Status: "COMMIT", Evidence: quote(40), EvidenceSpan: quote(60), StartChar: &start, EndChar: &end, BlockID: &block, CommitProgress: &progress, Match: "exact"})
	}
	for n := range 2 + i%2 {
		r.Actions = append(r.Actions, schema.HarmfulAction{TraceID: traceID, DagID: dagID, Aligner: "symbolic", Category: "harmful_loop",
			Seq: int32(n), Evidence: quote(40), EvidenceSpan: quote(60)})
	}
	if i%4 == 0 {
		r.Errors = append(r.Errors, schema.AlignmentError{TraceID: traceID, DagID: dagID, Aligner: "symbolic", Kind: "unknown-node", Detail: quote(50)})
	}
	return r
}

// maxHeapPerAlignment bounds the live heap the alignment tables' writer
// may hold per alignment written, beyond a constant: a digest of its
// (trace, DAG, aligner) and its share of the files' footers. One that kept
// a digest of every row's key (ten rows an alignment) and the alignment's
// key three times as a string, to replace current rows at commit, held
// about 600 bytes an alignment: 400 MB at 10x the paper's scale.
const maxHeapPerAlignment = 128

// TestWriterHeapFlat writes n alignments with their rows and measures the
// live heap before the commit: it may grow with n only by a few bytes an
// alignment.
func TestWriterHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 40,000 alignments")
	}
	measure := func(n int) int64 {
		w, err := align.NewWriter(t.TempDir(), store.Meta{Stage: "align"})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		rnd := rand.New(rand.NewPCG(5, 6))
		before := testenv.LiveHeap()
		for i := range n {
			if err := w.Add(scaleResult(i, rnd)); err != nil {
				t.Fatal(err)
			}
		}
		held := testenv.LiveHeap() - before
		runtime.KeepAlive(w)
		return held
	}
	n1, n2 := 8_000, 48_000
	per := testenv.HeapPer(t, "alignment", n1, n2, measure)
	if per > maxHeapPerAlignment {
		t.Errorf("the writer holds %d bytes of live heap per alignment written (at most %d): its memory grows with the run", per, maxHeapPerAlignment)
	}
}

// The writer keeps no key of an alignment's rows past the alignment, yet
// still refuses an alignment given twice and two events with one key.
func TestWriterRefusesDuplicates(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		name    string
		results func() []align.Result
	}{
		{"alignment twice", func() []align.Result {
			r := scaleResult(0, rnd)
			return []align.Result{r, scaleResult(1, rnd), r}
		}},
		{"event key twice in an alignment", func() []align.Result {
			r := scaleResult(0, rnd)
			r.Events[3].NodeID, r.Events[3].Seq = r.Events[1].NodeID, r.Events[1].Seq
			return []align.Result{scaleResult(1, rnd), r}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := t.TempDir()
			w, err := align.NewWriter(data, store.Meta{Stage: "align"})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Abort()
			for _, r := range c.results() {
				if err = w.Add(r); err != nil {
					break
				}
			}
			if !errors.Is(err, store.ErrDuplicateKey) {
				t.Fatalf("got %v, want %v", err, store.ErrDuplicateKey)
			}
			w.Abort()
			if store.Exists(data, schema.Alignments.Table) || store.Exists(data, schema.AlignmentEvents.Table) {
				t.Fatal("a refused write left a table")
			}
		})
	}
}
