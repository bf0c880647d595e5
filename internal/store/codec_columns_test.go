package store

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
)

// No column of a table names a codec of its own: a column's tag (zstd,
// snappy ...) would take it from the writers' pageCodec, whose encoders
// have a 1 MiB window, back to parquet-go's (8 MiB, 16 MiB of history an
// encoder). The long texts (traces' text, the replies of references, DAGs
// and alignments) were tagged zstd, which every column is anyway.
func TestNoColumnHasItsOwnCodec(t *testing.T) {
	var walk func(table, path string, n parquet.Node)
	walk = func(table, path string, n parquet.Node) {
		if c := n.Compression(); c != nil {
			t.Errorf("%s.%s is compressed by %s of its own, not by the writers' codec: drop its %s tag", table, path, c, strings.ToLower(c.String()))
		}
		for _, f := range n.Fields() {
			walk(table, strings.TrimPrefix(path+"."+f.Name(), "."), f)
		}
	}
	for _, tbl := range schema.All() {
		walk(tbl.Name, "", parquet.SchemaOf(reflect.New(tbl.RowType()).Interface()))
	}
}

// Writing long traces makes no page encoder of parquet-go's window: after
// a collection (which empties the encoders' pool), the next pages of text
// made one of 16 MiB of history for the text column.
func TestLongTextPageEncodersAreSmall(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	w, err := Create(t.TempDir(), schema.Traces, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	// Six batches of 8 traces of 128 KB: four pages of text each (256 KiB
	// pages), compressed as they fill.
	var worst uint64
	for batch := range 6 {
		rows := make([]schema.Trace, 8)
		for i := range rows {
			rows[i] = scaleTrace(batch*len(rows)+i, noise(rnd, 128<<10))
		}
		runtime.GC()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := w.Write(rows...); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if batch > 0 { // the first also makes the writer's column buffers
			worst = max(worst, after.TotalAlloc-before.TotalAlloc)
		}
	}
	t.Logf("at most %d KB allocated writing 1 MB of trace text after a collection", worst>>10)
	if worst > 16<<20 {
		t.Errorf("writing 1 MB of trace text after a collection allocated %d MB: its page encoder is the size of a large window", worst>>20)
	}
}

// BenchmarkLongTextPageCodecs compresses pages of trace text (256 KiB,
// parquet-go's page buffer: 30 KB traces by internal/tracegen in four
// languages) with parquet-go's zstd codec, which the long-text columns
// used, and with the writers' pageCodec: CPU time and size, and the bytes
// a first page allocates after a collection (a new encoder). Run with
// go test -run '^$' -bench LongTextPageCodecs -cpu 1 ./internal/store.
func BenchmarkLongTextPageCodecs(b *testing.B) {
	var page []byte
	for i := 0; len(page) < 256<<10; i++ {
		lang := []string{"sw", "zh", "ru", "bn"}[i%4]
		page = append(page, tracegen.Write(tracegen.Trace{Prose: testenv.DemoQuestions(b, lang),
			English: testenv.DemoQuestions(b, "en"), Bytes: 30_000, Answer: "42", Seed: uint64(i + 1)})...)
	}
	page = page[:256<<10]
	for _, c := range []struct {
		name  string
		codec compress.Codec
	}{{"parquet-go", &parquet.Zstd}, {"store", writerCodec}} {
		b.Run(c.name, func(b *testing.B) {
			packed, err := c.codec.Encode(nil, page)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			start := testenv.CPUTime()
			for b.Loop() {
				if packed, err = c.codec.Encode(packed, page); err != nil {
					b.Fatal(err)
				}
			}
			testenv.ReportCPU(b, start, int64(len(page)))
			b.ReportMetric(float64(len(packed))/float64(len(page)), "ratio")
			runtime.GC()
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if _, err := c.codec.Encode(nil, page); err != nil {
				b.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), "MB-first-page")
		})
	}
}
