package view

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

// scanSearch is searchRows by a scan of every text: before the search
// index is open (a search right after a start), and for a query the index
// does not take. It reads the traces' ids and texts from the generation's
// Parquet in Go, a row group a core at a time, 64 rows at a time, and
// folds and matches each text as the index does (fold.go, searchfind.go),
// so it finds what the index finds. It was DuckDB's regexp_matches over
// every text, which at 38,250 texts of real length failed for want of
// memory under the viewer's 256 MiB cap (a page of 500); this holds a
// batch of rows and one folded text a core, whatever the run's size.
//
// A query with a NUL is searched for whole, NUL included, as DuckDB 1.4.5
// binds it (1.4.1 took it up to its first NUL, and so did this scan); one
// that is not UTF-8 is refused (DuckDB binds no such parameter).
func (r *runDB) scanSearch(ctx context.Context, q string) (bitmap, error) {
	if !utf8.ValidString(q) {
		return nil, fmt.Errorf("searching the traces for %q: %w", q, ErrBadParam)
	}
	fq := appendFolded(nil, q)
	tf, err := store.Inspect(r.db.SnapshotDir(), schema.Traces.Table)
	if err != nil {
		return nil, fmt.Errorf("searching the traces: %w", err)
	}
	found := newBitmap(r.rows.N)
	for _, path := range tf.Paths {
		if err := r.scanFile(ctx, path, fq, found); err != nil {
			return nil, fmt.Errorf("searching the traces: %s: %w", path, err)
		}
	}
	return found, nil
}

// scanFile sets in found the rows of the traces of one Parquet file whose
// text holds fq, its row groups shared among the cores.
func (r *runDB) scanFile(ctx context.Context, path string, fq []byte, found bitmap) error {
	pf, f, err := store.OpenFile(path, true)
	if err != nil {
		return err
	}
	defer f.Close()
	groups := pf.RowGroups()
	workers := min(runtime.GOMAXPROCS(0), len(groups))
	founds := make([]bitmap, workers)
	errs := make([]error, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		founds[w] = newBitmap(r.rows.N)
		wg.Go(func() {
			for g := int(next.Add(1)) - 1; g < len(groups) && errs[w] == nil; g = int(next.Add(1)) - 1 {
				errs[w] = r.scanGroup(ctx, groups[g], fq, founds[w])
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, b := range founds {
		for k := range found {
			found[k] |= b[k]
		}
	}
	return nil
}

// scanGroup sets in found the rows of the traces of one row group whose
// text holds fq.
func (r *runDB) scanGroup(ctx context.Context, g parquet.RowGroup, fq []byte, found bitmap) error {
	type idText struct {
		TraceID string `parquet:"trace_id"`
		Text    string `parquet:"text"`
	}
	var counts byteCounts // none: the finder takes fq's last byte
	find := newFinder(fq, &counts)
	rd := parquet.NewGenericRowGroupReader[idText](g)
	defer rd.Close()
	buf := make([]idText, 64)
	var folded []byte
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := rd.Read(buf)
		for _, t := range buf[:n] {
			folded = appendFolded(folded[:0], t.Text)
			if find.in(folded) {
				if j, ok := r.rows.find(t.TraceID); ok {
					found.set(j)
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
