// Package view is datg view: a local, read-only web server over a run's
// tables, for reading traces the way the paper diagnoses them. It reads
// every table of the run (through internal/duck) and writes nothing.
//
// It serves an index of every trace (paginated and sorted in DuckDB, with
// facets and their counts, a search in the trace text and a summary of
// the current filter), a page per trace (the problem, both graders' and
// both detectors' decisions, the text with math marked for rendering,
// repeats folded and evidence linked both ways to the DAG nodes, every
// reference DAG, both aligners), and the paper's tables from sql/tables
// with each cell linked to its traces. Every state is a URL.
//
// The server reads one generation of the run at a time (duck.Open pins
// it) and moves to a newer commit on the next request after it, saying so
// on the page. Every query is parameterized: a URL's values reach DuckDB
// as parameters, never as SQL, and names (sort keys, facets) are looked up
// in fixed lists. Every piece of model text goes through html/template or
// internal/texmath's escape. Pages load only the viewer's own assets
// (/static/), under a Content-Security-Policy that forbids everything else.
package view
