// Package schema declares every table datg reads or writes, once.
//
// A table is a Go struct whose fields carry a `parquet` tag (the column name
// and Parquet options) and a `doc` tag (one line of documentation). Parquet
// readers and writers (internal/store), the DuckDB views of a run (internal/duck)
// and the schema reference in the README (Markdown) are all derived from these
// declarations, so a column is added in exactly one place.
package schema
