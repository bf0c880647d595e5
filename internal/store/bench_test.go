package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/datg/datg/schema"
)

// BenchmarkCommit measures what a commit adds to writing a table: linking
// the run's other tables into the new generation, the syncs and the swap.
// The run holds a 47,250-trace table (the paper's direction probe, 2 KB of
// text each) and eight other tables; each commit rewrites the small
// compliance table. "write" is the same table written and synced without a
// commit, for comparison.
func BenchmarkCommit(b *testing.B) {
	dir := b.TempDir()
	traces := make([]schema.Trace, 47_250)
	text := strings.Repeat("Kwanza, tunahesabu 3 + 4 = 7. ", 70)
	for i := range traces {
		traces[i] = schema.Trace{TraceID: fmt.Sprintf("t%05d", i), Text: text}
	}
	if err := WriteAll(dir, schema.Traces, Meta{}, traces); err != nil {
		b.Fatal(err)
	}
	for _, def := range []func() error{
		func() error { return WriteAll(dir, schema.Answers, Meta{}, []schema.Answer{{TraceID: "a"}}) },
		func() error { return WriteAll(dir, schema.Problems, Meta{}, []schema.Problem{{ProblemID: "p"}}) },
		func() error { return WriteAll(dir, schema.DAGs, Meta{}, []schema.DAG{{DagID: "d"}}) },
		func() error { return WriteAll(dir, schema.Nodes, Meta{}, []schema.Node{{DagID: "d"}}) },
		func() error { return WriteAll(dir, schema.Edges, Meta{}, []schema.Edge{{DagID: "d"}}) },
		func() error { return WriteAll(dir, schema.Alignments, Meta{}, []schema.Alignment{{TraceID: "a"}}) },
		func() error { return WriteAll(dir, schema.Scores, Meta{}, []schema.Score{{TraceID: "a"}}) },
		func() error { return WriteAll(dir, schema.Trials, Meta{}, []schema.Trial{{TraceID: "a"}}) },
	} {
		if err := def(); err != nil {
			b.Fatal(err)
		}
	}
	rows := make([]schema.Compliance, 1000)
	for i := range rows {
		rows[i] = schema.Compliance{TraceID: fmt.Sprintf("t%05d", i), Detected: "sw", Compliant: true}
	}
	b.Run("commit", func(b *testing.B) {
		for b.Loop() {
			if err := WriteAll(dir, schema.Compliances, Meta{}, rows); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("write", func(b *testing.B) {
		for b.Loop() {
			tx, err := Begin(dir, Meta{})
			if err != nil {
				b.Fatal(err)
			}
			w, err := CreateIn(tx, schema.Compliances)
			if err != nil {
				b.Fatal(err)
			}
			if err := w.Write(rows...); err != nil {
				b.Fatal(err)
			}
			if err := w.finish(); err != nil {
				b.Fatal(err)
			}
			tx.Abort()
		}
	})
}

// BenchmarkManifestChecks measures what the manifest costs at real trace
// lengths: a traces table of 5,000 traces of 30 KB of varied text (the
// length of a Qwen3 reasoning trace at a 16k budget). "write" is the table
// written and committed (hashed as it is written); "read check" is what
// every reader pays before reading it (the file's size and time against
// the manifest); "rehash" is what a reader pays once the file's time
// moved, and what datg doctor pays per file (the whole file hashed);
// "carry" is a commit of another table carrying it over.
func BenchmarkManifestChecks(b *testing.B) {
	dir := b.TempDir()
	traces := realisticTraces(5_000, 30_000)
	b.Run("write", func(b *testing.B) {
		for b.Loop() {
			if err := WriteAll(dir, schema.Traces, Meta{}, traces); err != nil {
				b.Fatal(err)
			}
		}
	})
	paths, err := Paths(dir, schema.Traces.Table)
	if err != nil {
		b.Fatal(err)
	}
	if fi, err := os.Stat(paths[0]); err == nil {
		b.Logf("traces.parquet: %.1f MB", float64(fi.Size())/1e6)
	}
	b.Run("read check", func(b *testing.B) {
		for b.Loop() {
			if _, err := Paths(dir, schema.Traces.Table); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rehash", func(b *testing.B) {
		for b.Loop() {
			if _, err := hashFile(paths[0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("carry", func(b *testing.B) {
		for b.Loop() {
			if err := WriteAll(dir, schema.Answers, Meta{}, []schema.Answer{{TraceID: "a"}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// realisticTraces makes n traces of about size bytes of text that
// compresses as prose does (words drawn from a vocabulary, numbers).
func realisticTraces(n, size int) []schema.Trace {
	rnd := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("we have so the answer is let us compute first then check again wait but sum product " +
		"equation solve value total each per number Kwanza tunahesabu jumla nombre donc alors réponse calculons")
	out := make([]schema.Trace, n)
	var sb strings.Builder
	for i := range out {
		sb.Reset()
		for sb.Len() < size {
			if rnd.IntN(6) == 0 {
				fmt.Fprintf(&sb, "%d ", rnd.IntN(100000))
			} else {
				sb.WriteString(words[rnd.IntN(len(words))])
				sb.WriteByte(' ')
			}
		}
		out[i] = schema.Trace{TraceID: fmt.Sprintf("t%05d", i), Text: sb.String()}
	}
	return out
}
