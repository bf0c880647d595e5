package store

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

// noise is n bytes of letters that compress little, so that a trace of
// them makes pages of its own.
func noise(rnd *rand.Rand, n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ."
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[rnd.IntN(len(letters))]
	}
	return string(b)
}

// A writer's page encoder holds a history of about twice its window: with
// parquet-go's codec (an 8 MiB window) each encoder made took 16 MiB, and
// one was made after every collection (which empties the pool), for any
// page. Writing a row group of 20,000 scores right after a collection
// allocated 48-50 MB (two encoders, one a page written on each of the two
// Ps' pools); it now allocates about 20 MB, nearly all of it the rows'
// keys, their digests and the column pages. (The long texts' columns go
// through the same codec: TestLongTextPageEncodersAreSmall.)
func TestWriterPageEncodersAreSmall(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	w, err := Create(t.TempDir(), schema.Scores, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	rows := sortedScores(rnd, 6*schema.Scores.RowsPerGroup)
	var worst uint64
	for first := true; len(rows) > 0; first = false {
		group := rows[:schema.Scores.RowsPerGroup]
		rows = rows[len(group):]
		runtime.GC()
		runtime.GC() // empties the encoders' pool: the group's first page makes one
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := w.Write(group...); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if !first { // the first also makes the writer's column buffers
			worst = max(worst, after.TotalAlloc-before.TotalAlloc)
		}
	}
	t.Logf("at most %d KB allocated writing a row group of %d scores after a collection", worst>>10, schema.Scores.RowsPerGroup)
	if worst > 32<<20 {
		t.Errorf("writing a row group of scores after a collection allocated %d MB: its page encoder is the size of a large window", worst>>20)
	}
}

// FuzzPageCodec: what the writers' codec compresses, parquet-go's zstd
// codec (which reads every file) decompresses to the same bytes, pages of
// more than the window included.
func FuzzPageCodec(f *testing.F) {
	rnd := rand.New(rand.NewPCG(7, 8))
	f.Add([]byte{})
	f.Add([]byte("a"))
	f.Add(bytes.Repeat([]byte("so 72 - 57 = 15. "), 10_000))
	long := []byte(noise(rnd, 3*zstdWindow/2))
	f.Add(append(append(long[:zstdWindow/2:zstdWindow/2], long...), long[:zstdWindow/2]...)) // repeats farther back than the window
	f.Fuzz(func(t *testing.T, page []byte) {
		packed, err := writerCodec.Encode(nil, page)
		if err != nil {
			t.Fatal(err)
		}
		got, err := parquet.Zstd.Decode(nil, packed)
		if err != nil {
			t.Fatalf("a page of %d bytes: %v", len(page), err)
		}
		if !bytes.Equal(got, page) {
			t.Fatalf("a page of %d bytes came back as %d different bytes", len(page), len(got))
		}
	})
}
