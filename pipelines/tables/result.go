package tables

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strconv"

	"github.com/datg/datg/internal/duck"
	"github.com/duckdb/duckdb-go/v2"
)

// result is a query's output with values as Go scalars (string, int64,
// float64, bool or nil).
type result struct {
	Columns []string
	Rows    [][]any
}

// query runs one table's query and reads its rows. The pages DuckDB's
// allocator keeps from the queries before it (the input checks, the
// shared inputs, the table before) are returned first, and its own after
// it (duck.ReleaseMemory): else each query ran on top of the last ones'.
func query(ctx context.Context, db *sql.DB, text string) (*result, error) {
	duck.ReleaseMemory()
	defer duck.ReleaseMemory()
	rows, err := db.QueryContext(ctx, text)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	res := &result{Columns: cols}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, v := range vals {
			vals[i] = scalar(v)
		}
		res.Rows = append(res.Rows, vals)
	}
	return res, rows.Err()
}

func scalar(v any) any {
	switch x := v.(type) {
	case int32:
		return int64(x)
	case int:
		return int64(x)
	case float32:
		return float64(x)
	case duckdb.Decimal:
		return x.Float64()
	case []byte:
		return string(x)
	}
	return v
}

// col returns the index of a column, which the layout relies on.
func (r *result) col(name string) int {
	for i, c := range r.Columns {
		if c == name {
			return i
		}
	}
	panic(fmt.Sprintf("tables: result has no column %q (columns %v)", name, r.Columns))
}

// colOK is the index of a column the result may lack.
func (r *result) colOK(name string) (int, bool) {
	for i, c := range r.Columns {
		if c == name {
			return i, true
		}
	}
	return 0, false
}

// plain formats a value for CSV: numbers as short as they are exact.
func plain(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return ""
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// fixed formats a number with two decimals, as the paper's tables do.
func fixed(v any) string { return fixedN(v, 2) }

// fixedN formats a number with d decimals ("--" for none).
func fixedN(v any, d int) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', d, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	case nil:
		return "--"
	}
	return plain(v)
}
