// Package imports adds outputs produced outside datg to a run, in the
// formats of CONTRACT.md: traces sampled elsewhere (JSONL, one trace a line)
// are checked field by field and merged into DIR/traces.parquet by trace_id.
// A bad line is an error naming the file, line and field, and nothing is
// written.
package imports
