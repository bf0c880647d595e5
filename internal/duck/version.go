package duck

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/duckdb/duckdb-go/v2"
)

// Version is the embedded DuckDB's version and source id, as its
// pragma_version() gives them ("v1.3.2 (0b83e5d2f6)"). It asks an
// in-memory database that reads nothing; duckdb_library_version, which
// needs none, is not used because the bindings datg builds with free the
// static string it returns (duckdb-go-bindings#45).
func Version(ctx context.Context) (string, error) {
	connector, err := duckdb.NewConnector("", nil)
	if err != nil {
		return "", err
	}
	db := sql.OpenDB(connector)
	defer db.Close()
	var version, source string
	if err := db.QueryRowContext(ctx, "SELECT library_version, source_id FROM pragma_version()").Scan(&version, &source); err != nil {
		return "", fmt.Errorf("asking DuckDB its version: %w", err)
	}
	return version + " (" + source + ")", nil
}
