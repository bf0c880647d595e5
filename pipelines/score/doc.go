// Package score computes CAR, PMF and HAR of every alignment and each
// trace's best DAG, with the DuckDB query in sql/derive/scores.sql (the
// contract's definitions). It reads dags, nodes, edges, alignments,
// alignment_events, harmful_actions and traces, and rewrites
// DIR/scores.parquet. A large run is scored in parts of consecutive traces
// (parts.go), one query each, so its memory follows a part, not the run;
// in 2 parts or more its inputs are first written as files of a part
// each (partfiles.go), so that each part reads its own traces' rows only.
package score
