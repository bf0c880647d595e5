package duck

// DuckDB's Arrow C functions, declared here and called directly. The
// DuckDB bindings under the driver (duckdb-go-bindings) wrap them only
// under the build tag duckdb_arrow, and a plain `go build ./...` or `go
// install .../cmd/datg@latest` passes no tag. The functions are in every
// DuckDB library the bindings link (the static libraries of the
// bindings' lib/<platform> modules, or the system's with
// duckdb_use_lib), so the linker finds them with no tag. Their DuckDB
// types are all pointers (duckdb_prepared_statement, duckdb_arrow, ...),
// declared as void* so that duckdb.h is not needed; duckdb_state is an
// int-sized enum, idx_t a uint64_t.

/*
#include <stdint.h>
extern int duckdb_execute_prepared_arrow(void *prepared_statement, void **out_result);
extern int duckdb_query_arrow_schema(void *result, void **out_schema);
extern int duckdb_query_arrow_array(void *result, void **out_array);
extern const char *duckdb_query_arrow_error(void *result);
extern uint64_t duckdb_arrow_row_count(void *result);
extern void duckdb_destroy_arrow(void **result);
*/
import "C"

import (
	"unsafe"

	"github.com/duckdb/duckdb-go/v2/mapping"
)

// duckArrow is one DuckDB Arrow result (duckdb_arrow).
type duckArrow struct{ ptr unsafe.Pointer }

// executePreparedArrow runs stmt into *out, which destroyArrow frees
// whatever the state.
func executePreparedArrow(stmt mapping.PreparedStatement, out *duckArrow) mapping.State {
	var res unsafe.Pointer
	state := C.duckdb_execute_prepared_arrow(stmt.Ptr, &res)
	out.ptr = res
	return mapping.State(state)
}

// queryArrowSchema writes the result's schema into the ArrowSchema at
// schema (C memory the caller allocated).
func queryArrowSchema(res duckArrow, schema unsafe.Pointer) mapping.State {
	return mapping.State(C.duckdb_query_arrow_schema(res.ptr, &schema))
}

// queryArrowArray writes the result's next batch into the ArrowArray at
// arr (C memory the caller allocated).
func queryArrowArray(res duckArrow, arr unsafe.Pointer) mapping.State {
	return mapping.State(C.duckdb_query_arrow_array(res.ptr, &arr))
}

func queryArrowError(res duckArrow) string {
	return C.GoString(C.duckdb_query_arrow_error(res.ptr))
}

func arrowRowCount(res duckArrow) uint64 {
	return uint64(C.duckdb_arrow_row_count(res.ptr))
}

func destroyArrow(res *duckArrow) {
	if res.ptr == nil {
		return
	}
	C.duckdb_destroy_arrow(&res.ptr)
	res.ptr = nil
}
