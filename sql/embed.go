// Package sql holds datg's DuckDB SQL, dbt style: macros, staging views over
// the run's tables, and one query per paper table. Every number datg reports
// comes from these files; Go code only runs them and lays the results out.
//
//   - macros/*.sql   CREATE MACRO statements (wilson_low, wilson_high, ...)
//   - staging/*.sql  CREATE VIEW statements over the raw tables, run in name order
//   - tables/*.sql   one SELECT per output table, tidy (one row per cell)
//   - derive/*.sql   one SELECT per table a stage derives by SQL (scores)
//
// Each file starts with a header comment saying what it computes.
package sql

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed macros/*.sql staging/*.sql tables/*.sql derive/*.sql
var files embed.FS

// File is one SQL file.
type File struct {
	Name string // base name without .sql
	Text string
}

func dir(name string) []File {
	entries, err := fs.ReadDir(files, name)
	if err != nil {
		panic("sql: " + err.Error())
	}
	var out []File
	for _, e := range entries {
		b, err := fs.ReadFile(files, path.Join(name, e.Name()))
		if err != nil {
			panic("sql: " + err.Error())
		}
		out = append(out, File{Name: strings.TrimSuffix(e.Name(), ".sql"), Text: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Macros are the CREATE MACRO files.
func Macros() []File { return dir("macros") }

// Staging are the CREATE VIEW files, in the order they must run.
func Staging() []File { return dir("staging") }

// Tables are the result queries, one per output table.
func Tables() []File { return dir("tables") }

// Derive returns the query that derives the named table.
func Derive(name string) (File, bool) {
	for _, f := range dir("derive") {
		if f.Name == name {
			return f, true
		}
	}
	return File{}, false
}

// Table returns the named result query.
func Table(name string) (File, bool) {
	for _, f := range Tables() {
		if f.Name == name {
			return f, true
		}
	}
	return File{}, false
}
