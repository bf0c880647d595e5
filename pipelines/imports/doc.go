// Package imports adds outputs produced outside datg to a run, in the
// formats of CONTRACT.md. It reads one JSONL file (one record a line) and
// writes, merged into the run in one commit:
//
//   - traces: traces sampled elsewhere, checked field by field, into
//     DIR/traces.parquet by trace_id;
//   - dags: reference DAGs, validated, into dags, nodes and edges by dag_id;
//   - alignments: closed-set alignments of traces to valid DAGs, their spans
//     located in the traces, into alignments, alignment_events,
//     harmful_actions and alignment_errors;
//   - annotations: human judgments of (trace, DAG) instances, checked
//     against the DAG and the trace, into DIR/annotations.parquet.
//
// A bad line is an error naming the file, line and field, and nothing is
// written.
package imports
