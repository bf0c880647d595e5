// Package explain renders a trace as an HTML page: the trace text with the
// aligner's evidence spans highlighted by node status, the DAG it was
// scored against (its best DAG) drawn by internal/dagdraw with nodes
// colored COMMIT, ATTEMPT, ERROR or MISSING and edges marked ordered or
// violated, the harmful actions, the grader's verdict and the language
// check; and an index page over the run linking every aligned trace. Math
// (internal/texmath) is rendered by the KaTeX of internal/viewassets,
// whose files a directory of pages holds beside them (StaticFiles) and a
// single page named by the user holds inline (InlineHead).
//
// It reads DIR/traces, answers, compliance, scores, dags, nodes, edges,
// alignment_events and harmful_actions, and writes HTML and the assets
// only. Model text is data: html/template and texmath escape every piece
// of it.
package explain
