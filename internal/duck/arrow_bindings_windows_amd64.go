//go:build !duckdb_use_lib && !duckdb_use_static_lib

package duck

import bindings "github.com/duckdb/duckdb-go-bindings/windows-amd64"

// DuckDB's Arrow C functions, which go-duckdb's mapping package leaves
// out: the bindings go-duckdb links on this platform (as its mapping and
// arrowmapping packages choose them).
type (
	duckArrow       = bindings.Arrow
	duckArrowSchema = bindings.ArrowSchema
	duckArrowArray  = bindings.ArrowArray
)

var (
	executePreparedArrow = bindings.ExecutePreparedArrow
	queryArrowSchema     = bindings.QueryArrowSchema
	queryArrowArray      = bindings.QueryArrowArray
	queryArrowError      = bindings.QueryArrowError
	arrowRowCount        = bindings.ArrowRowCount
	destroyArrow         = bindings.DestroyArrow
)
