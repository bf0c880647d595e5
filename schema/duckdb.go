package schema

import (
	"fmt"
	"strings"
)

// EmptySelect is a DuckDB query with the table's columns and no rows, used as
// the view of a table a run has not written yet, so queries over a partial run
// fail only when they need the missing rows.
func (t *Table) EmptySelect() string {
	cols := make([]string, len(t.columns))
	for i, c := range t.columns {
		cols[i] = fmt.Sprintf("CAST(NULL AS %s) AS %s", c.Type, c.Name)
	}
	return "SELECT " + strings.Join(cols, ", ") + " WHERE false"
}
