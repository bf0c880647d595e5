// Package store reads and writes the Parquet tables of a run directory.
//
// A table lives at DIR/<name>.parquet, or as a folder of Parquet files
// DIR/<name>/*.parquet (a layout users may produce with other tools; datg
// reads it and replaces it with a single file when it rewrites the table).
// Every write goes to a temporary file in DIR that is renamed over the table
// only once it is complete and synced, so a reader never sees a half-written
// file and a failed stage leaves the previous version in place. Each file
// carries key/value metadata: the datg version, the writing stage, a hash of
// the stage's configuration and the creation time.
package store
