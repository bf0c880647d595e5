// Package score computes CAR, PMF and HAR of every alignment and each
// trace's best DAG, with the DuckDB query in sql/derive/scores.sql (the
// contract's definitions). It reads dags, nodes, edges, alignments,
// alignment_events, harmful_actions and traces, and rewrites
// DIR/scores.parquet.
package score
