// Package sql holds datg's DuckDB SQL, dbt style: macros, staging views over
// the run's tables, and one query per paper table. Every number datg reports
// comes from these files; Go code only runs them and lays the results out.
//
//   - macros/*.sql   CREATE MACRO statements (wilson_low, wilson_high, ...)
//   - staging/*.sql  CREATE VIEW statements over the raw tables; a view that
//     names another runs after it (as dbt orders models by ref)
//   - tables/*.sql   one SELECT per output table, tidy (one row per cell);
//     pipelines/tables/registry.go declares each one's inputs and layout
//   - derive/*.sql   one SELECT per table a stage derives by SQL (scores)
//
// Each file starts with a header comment saying what it computes.
package sql

import (
	"embed"
	"io/fs"
	"path"
	"regexp"
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

// Staging are the CREATE VIEW files, in the order they must run: a file
// that mentions another staging view's name comes after that view's file.
func Staging() []File { return dependencyOrder(dir("staging")) }

// dependencyOrder sorts files so each comes after the files whose names its
// text mentions as a whole word, keeping name order otherwise. A cycle is a
// bug in this package's own files, caught by its tests.
func dependencyOrder(in []File) []File {
	var out []File
	done := map[string]bool{}
	visiting := map[string]bool{}
	var visit func(f File)
	visit = func(f File) {
		if done[f.Name] {
			return
		}
		if visiting[f.Name] {
			panic("sql: staging views depend on each other in a cycle through " + f.Name)
		}
		visiting[f.Name] = true
		for _, g := range in {
			if g.Name != f.Name && mentions(f.Text, g.Name) {
				visit(g)
			}
		}
		visiting[f.Name] = false
		done[f.Name] = true
		out = append(out, f)
	}
	for _, f := range in {
		visit(f)
	}
	return out
}

// mentions reports whether text holds name as a whole identifier.
func mentions(text, name string) bool {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(text)
}

// Tables are the result queries, one per output table.
func Tables() []File { return dir("tables") }

// Derive returns the query that derives the named table.
func Derive(name string) (File, bool) { return file("derive", name) }

// Table returns the named result query.
func Table(name string) (File, bool) { return file("tables", name) }

// file is one SQL file of a folder by name.
func file(folder, name string) (File, bool) {
	b, err := fs.ReadFile(files, path.Join(folder, name+".sql"))
	if err != nil {
		return File{}, false
	}
	return File{Name: name, Text: string(b)}, true
}
