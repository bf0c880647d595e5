// Package explain exports datg view's trace pages (pipelines/view) as
// static HTML to share: one trace's page, or a set (the traces of a view
// filter, a list of ids, or every aligned trace) with an index page, the
// links between them relative. A set is written into its directory with
// the assets its pages load (view.StaticFiles) as one managed output set
// (internal/outdir: a user's files are never replaced); a single page
// named by the user carries its assets inline.
//
// It reads the run through datg view's index (DuckDB over one
// generation) and writes HTML and the assets only. Model text is data:
// html/template and internal/texmath escape every piece of it.
package explain
