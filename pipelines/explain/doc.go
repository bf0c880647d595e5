// Package explain renders a trace as a self-contained HTML page: the trace
// text with the aligner's evidence spans highlighted by node status, the
// DAG it was scored against (its best DAG) drawn with nodes colored COMMIT,
// ATTEMPT, ERROR or MISSING and edges marked ordered or violated, the
// harmful actions, the grader's verdict and the language check; and an
// index page over the run linking every aligned trace.
//
// It reads DIR/traces, answers, compliance, scores, dags, nodes, edges,
// alignment_events and harmful_actions, and writes HTML only. Model text is
// data: html/template escapes every piece of it.
package explain
