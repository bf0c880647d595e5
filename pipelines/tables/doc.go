// Package tables regenerates the paper's tables from a run's Parquet tables.
// Every number comes from a query in sql/tables/; this package runs each
// query in an embedded DuckDB over the run and writes the result as
// <name>.csv (tidy, one row per cell), <name>.md and <name>.tex (laid out as
// the paper lays the table out: render.go and latex.go, a complete float
// fitted to the text block) into DIR/tables or --out, with paper.tex, which
// inputs them all, and index.md (wrapper.go), all of a run's outputs at
// once (internal/outdir). Layouts place cells by model and
// show its label; every rendered text goes through its format's escape
// (escape.go).
//
// registry.go declares every output table in one list, in the paper's
// order: its name (the query's file name), the tables derived from traces
// it needs (inputs.go says who writes each and when it is stale), its
// layout and, optionally, its figure. It is Go, not a header line in each
// query, because layouts and figures are Go: one entry holds all there is
// to know about a table. Tests check that the list and sql/tables name the
// same tables, and that each entry declares its needs.
//
// To add a paper table:
//  1. Write sql/tables/<name>.sql: a header comment saying what it computes
//     (and which table of the paper it is), then one SELECT, tidy (one row
//     per cell), ordered as the table reads. Use the staging views
//     (sql/staging) and macros (sql/macros) rather than repeating them.
//  2. Add an entry to registry.go where the table stands in the paper:
//     {Name: "<name>", Needs: []string{"answers", ...}, Layout: <layout>,
//     Paper: paperRef{"Table N", "tab:<its label in the paper>"}} (no Paper
//     for a table beyond the paper; add a line to contents in wrapper.go).
//     Needs lists every derived table the query reads ([]string{} for
//     none); a new derived table also needs its entry in inputs.go.
//     Layout is long until the table has the paper's arrangement.
//  3. For the paper's arrangement, write the layout
//     func(*result, layoutOpts) grid in a file named for the table (as
//     control_layout.go), showing intervals when layoutOpts.CI (always for
//     a table beyond the paper), and a test of it; go test
//     ./pipelines/tables -run TestLayoutsGolden -update adds its golden
//     .md and .tex.
//  4. sql's TestTablesGolden runs every query over sql/testdata/fixture:
//     add fixture rows the query needs, run go test ./sql -run
//     TestTablesGolden -update once to write sql/testdata/golden/<name>.csv,
//     and check that file by hand before committing it.
package tables
