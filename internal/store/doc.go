// Package store reads and writes the Parquet tables of a run directory.
//
// A run keeps its tables in generations (see run.go): DIR/current is a
// symlink to DIR/gen/<N>, the committed tables, and DIR/<table>.parquet a
// symlink to current/<table>.parquet for readers outside datg. A stage
// writes through a transaction (Begin, CreateIn, MergeIn, Commit): its new
// tables go to a staging directory, the run's other tables are hard-linked
// beside them, and one rename of current publishes them all, so a failed or
// killed stage leaves every table as it was and a reader never sees some of
// a stage's tables new and others old. Create and NewMerger are the
// one-table case. MergeGroupsIn merges tables whose rows come in groups
// given whole and once (an alignment's rows in align's four tables),
// keeping one digest a group instead of one a row. Readers that read several tables pin one generation
// (Pin), which no commit removes while it is held.
//
// Every file is checked against the table's declaration in schema/ when it
// is opened (check.go): a missing or retyped column is an error naming the
// file and the column. Each file carries key/value metadata: the datg
// version, the writing stage, a hash of the stage's configuration, the
// creation time and the commit it belongs to. A directory of tables without
// generations (a run from before them, a fixture) is read in place and
// becomes generation 1 at its first commit.
package store
