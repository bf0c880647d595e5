package view

import (
	"context"
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

// scanTexts calls fn with every trace's id and text, in the order of the
// traces' files and rows (Parquet's, as the generic reader gives them),
// reading the text column page by page and handing each page's buffers
// back to parquet-go once read (parquet.Release): the search index's build
// read 2.1 GB of garbage over a run of the paper's design through the
// generic reader (every page allocated anew, every text copied into a
// string) and its Go heap peaked at 87 MB, 108 MB at ten times the
// design. text is valid only during the call: fn must not keep it.
func scanTexts(ctx context.Context, snapDir string, fn func(id string, text []byte) error) error {
	paths, err := store.Paths(snapDir, schema.Traces.Table)
	if err != nil {
		return err
	}
	for _, p := range paths {
		if err := scanTextsOf(ctx, p, fn); err != nil {
			return fmt.Errorf("reading %s: %w", p, err)
		}
	}
	return nil
}

func scanTextsOf(ctx context.Context, path string, fn func(id string, text []byte) error) (err error) {
	pf, f, err := store.OpenFile(path, true)
	if err != nil {
		return err
	}
	defer f.Close()
	idCol, okID := pf.Schema().Lookup("trace_id")
	textCol, okText := pf.Schema().Lookup("text")
	if !okID || !okText || idCol.Node.Type().Kind() != parquet.ByteArray || textCol.Node.Type().Kind() != parquet.ByteArray {
		return fmt.Errorf("%w: no trace_id and text columns of strings", store.ErrSchemaMismatch)
	}
	// A damaged page parquet-go's decoders panic on is an error, as the
	// ones they report are (readGroup).
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	values := make([]parquet.Value, 64)
	for g, rg := range pf.RowGroups() {
		if err := ctx.Err(); err != nil {
			return err
		}
		chunks := rg.ColumnChunks()
		ids, err := columnStrings(chunks[idCol.ColumnIndex], values)
		if err != nil {
			return fmt.Errorf("row group %d: trace_id: %w", g, err)
		}
		row := 0
		err = eachValue(chunks[textCol.ColumnIndex], values, func(v parquet.Value) error {
			if row >= len(ids) {
				return fmt.Errorf("more texts than ids (%d)", len(ids))
			}
			var text []byte
			if !v.IsNull() {
				text = v.ByteArray()
			}
			row++
			return fn(ids[row-1], text)
		})
		if err != nil {
			return fmt.Errorf("row group %d: text: %w", g, err)
		}
		if row != len(ids) {
			return fmt.Errorf("row group %d: %d texts for %d ids", g, row, len(ids))
		}
	}
	return nil
}

// columnStrings is every value of a column chunk of strings, copied.
func columnStrings(chunk parquet.ColumnChunk, values []parquet.Value) ([]string, error) {
	out := make([]string, 0, chunk.NumValues())
	err := eachValue(chunk, values, func(v parquet.Value) error {
		out = append(out, string(v.ByteArray()))
		return nil
	})
	return out, err
}

// eachValue calls fn with each value of a column chunk, a page at a time,
// each page released once its values are read (a value's bytes are the
// page's: valid only during fn). values is the batch it reads into.
func eachValue(chunk parquet.ColumnChunk, values []parquet.Value, fn func(parquet.Value) error) error {
	pages := chunk.Pages()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		err = eachPageValue(p, values, fn)
		parquet.Release(p)
		if err != nil {
			return err
		}
	}
}

func eachPageValue(p parquet.Page, values []parquet.Value, fn func(parquet.Value) error) error {
	r := p.Values()
	for {
		n, err := r.ReadValues(values)
		for _, v := range values[:n] {
			if ferr := fn(v); ferr != nil {
				return ferr
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

// unsafeString is b as a string without a copy, for a callee that does
// not keep it.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
