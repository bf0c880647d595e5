package duck

// #include <stdlib.h>
// #include <stdint.h>
// // Arrow's C data interface (arrow/c/abi.h): the sizes calloc needs.
// struct datgArrowSchema { const char* format; const char* name; const char* metadata; int64_t flags; int64_t n_children; void** children; void* dictionary; void (*release)(void*); void* private_data; };
// struct datgArrowArray { int64_t length; int64_t null_count; int64_t offset; int64_t n_buffers; int64_t n_children; const void** buffers; void** children; void* dictionary; void (*release)(void*); void* private_data; };
import "C"

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/cdata"
	"github.com/duckdb/duckdb-go/v2/mapping"
)

// The DuckDB driver (duckdb-go, formerly go-duckdb) compiles its Arrow
// interface (duckdb.NewArrowFromConn) only under the build tag
// duckdb_arrow, so a plain `go build ./...` or `go install
// .../cmd/datg@latest` of a datg that used it stopped. datg calls DuckDB's
// Arrow C functions itself (arrow_c.go), as the driver's arrow.go does, so
// it builds and prints query results the same with or without the tag.

// arrowQuerier runs queries on one go-duckdb connection through DuckDB's
// Arrow C interface.
type arrowQuerier struct {
	conn mapping.Connection
}

// newArrowFromConn is duckdb.NewArrowFromConn without the build tag.
func newArrowFromConn(dc driver.Conn) (*arrowQuerier, error) {
	conn, err := rawConnection(dc)
	if err != nil {
		return nil, fmt.Errorf("querying DuckDB through Arrow: %w", err)
	}
	return &arrowQuerier{conn: conn}, nil
}

// QueryContext runs every statement of query and returns the last one's
// result as Arrow record batches. The caller interrupts the connection
// when ctx ends (interruptOnDone); ctx also stops reading batches.
func (a *arrowQuerier) QueryContext(ctx context.Context, query string) (array.RecordReader, error) {
	var stmts mapping.ExtractedStatements
	n := mapping.ExtractStatements(a.conn, query, &stmts)
	defer mapping.DestroyExtracted(&stmts)
	if n == 0 {
		if msg := mapping.ExtractStatementsError(stmts); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, errors.New("empty query")
	}
	for i := mapping.IdxT(0); i < n; i++ {
		var stmt mapping.PreparedStatement
		if mapping.PrepareExtractedStatement(a.conn, stmts, i, &stmt) == mapping.StateError {
			msg := mapping.PrepareError(stmt)
			mapping.DestroyPrepare(&stmt)
			return nil, errors.New(msg)
		}
		if i < n-1 {
			err := execDiscard(stmt)
			mapping.DestroyPrepare(&stmt)
			if err != nil {
				return nil, err
			}
			continue
		}
		var res duckArrow
		state := executePreparedArrow(stmt, &res)
		mapping.DestroyPrepare(&stmt)
		if state == mapping.StateError {
			msg := queryArrowError(res)
			destroyArrow(&res)
			// go-duckdb's words, which queryError takes off.
			return nil, fmt.Errorf("failed to execute the prepared arrow: %v", msg)
		}
		schema, err := arrowSchema(res)
		if err != nil {
			destroyArrow(&res)
			return nil, err
		}
		return &arrowReader{ctx: ctx, res: res, schema: schema, rows: arrowRowCount(res), refs: 1}, nil
	}
	panic("unreachable")
}

// execDiscard runs a statement before the last and drops its result.
func execDiscard(stmt mapping.PreparedStatement) error {
	var res mapping.Result
	defer mapping.DestroyResult(&res)
	if mapping.ExecutePrepared(stmt, &res) == mapping.StateError {
		return errors.New(mapping.ResultError(&res))
	}
	return nil
}

func arrowSchema(res duckArrow) (*arrow.Schema, error) {
	schema := C.calloc(1, C.sizeof_struct_datgArrowSchema)
	defer func() {
		cdata.ReleaseCArrowSchema((*cdata.CArrowSchema)(schema))
		C.free(schema)
	}()
	// DuckDB writes the schema through a pointer to the struct's address.
	if queryArrowSchema(res, schema) == mapping.StateError {
		return nil, errors.New("duckdb_query_arrow_schema failed")
	}
	sc, err := cdata.ImportCArrowSchema((*cdata.CArrowSchema)(schema))
	if err != nil {
		return nil, fmt.Errorf("reading DuckDB's Arrow schema: %w", err)
	}
	return sc, nil
}

func arrowBatch(res duckArrow, sc *arrow.Schema) (arrow.RecordBatch, error) {
	arr := C.calloc(1, C.sizeof_struct_datgArrowArray)
	defer func() {
		cdata.ReleaseCArrowArray((*cdata.CArrowArray)(arr))
		C.free(arr)
	}()
	if queryArrowArray(res, arr) == mapping.StateError {
		return nil, errors.New("duckdb_query_arrow_array failed")
	}
	rec, err := cdata.ImportCRecordBatchWithSchema((*cdata.CArrowArray)(arr), sc)
	if err != nil {
		return nil, fmt.Errorf("reading DuckDB's Arrow batch: %w", err)
	}
	return rec, nil
}

// arrowReader is an array.RecordReader over one DuckDB Arrow result. One
// goroutine reads it (WriteQuery), so it takes no lock.
type arrowReader struct {
	ctx    context.Context
	res    duckArrow
	schema *arrow.Schema
	rows   uint64 // the result's rows, all of which DuckDB holds
	read   uint64
	refs   int64
	cur    arrow.RecordBatch
	err    error
}

var _ array.RecordReader = (*arrowReader)(nil)

func (r *arrowReader) Retain() { r.refs++ }

func (r *arrowReader) Release() {
	if r.refs <= 0 {
		return
	}
	if r.refs--; r.refs > 0 {
		return
	}
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	destroyArrow(&r.res)
}

func (r *arrowReader) Schema() *arrow.Schema { return r.schema }

func (r *arrowReader) Next() bool {
	if r.err != nil || r.read >= r.rows || r.refs <= 0 {
		return false
	}
	if err := r.ctx.Err(); err != nil {
		r.err = err
		return false
	}
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	rec, err := arrowBatch(r.res, r.schema)
	if err != nil {
		r.err = err
		return false
	}
	if rec.NumRows() == 0 { // DuckDB has no more, whatever its count said
		rec.Release()
		return false
	}
	r.cur = rec
	r.read += uint64(rec.NumRows())
	return true
}

func (r *arrowReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch under its deprecated name, which array.RecordReader still has.
func (r *arrowReader) Record() arrow.RecordBatch { return r.cur }

func (r *arrowReader) Err() error { return r.err }
