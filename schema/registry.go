package schema

import (
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Table describes one table of a run: its name, what writes it and its
// columns, all derived from a row struct.
type Table struct {
	Name  string   // file name without extension: DIR/<Name>.parquet
	Doc   string   // one line
	Stage string   // the command that writes it
	Key   []string // columns that identify a row
	// RowsPerGroup bounds the rows a writer buffers before flushing a row
	// group (the writer also ends a group once it holds 16 MiB, so long
	// texts keep its memory flat); every group costs its writer and
	// readers a footer entry until the file is closed.
	RowsPerGroup int

	row     reflect.Type
	columns []Column
	keyIdx  [][]int
}

// Column is one column of a table.
type Column struct {
	Name     string
	Type     string // DuckDB type
	Doc      string
	Nullable bool
	// Blob marks long free text (a trace, a question): writers record no
	// min/max bounds for it, which would be meaningless and would copy whole
	// texts into the file footer for every row group.
	Blob bool
	// Since is the datg version that added the column (its "since" tag);
	// files written before it lack the column and read as its zero value,
	// NULL in SQL. A column without it is required in every file.
	Since string
	field []int
}

// Def is a typed handle on a table whose rows are T.
type Def[T any] struct{ *Table }

// Columns returns the table's columns in declaration order.
func (t *Table) Columns() []Column { return t.columns }

// RowType is the Go type of the table's rows.
func (t *Table) RowType() reflect.Type { return t.row }

// Column returns the named column.
func (t *Table) Column(name string) (Column, bool) {
	for _, c := range t.columns {
		if c.Name == name {
			return c, true
		}
	}
	return Column{}, false
}

// KeyOf returns the identity of a row: its key columns joined by NUL.
func (d Def[T]) KeyOf(row *T) string {
	v := reflect.ValueOf(row).Elem()
	parts := make([]string, len(d.keyIdx))
	for i, idx := range d.keyIdx {
		parts[i] = fmt.Sprint(v.FieldByIndex(idx).Interface())
	}
	return strings.Join(parts, "\x00")
}

func declare[T any](name, stage, doc string, rowsPerGroup int, key ...string) Def[T] {
	var zero T
	t := &Table{Name: name, Doc: doc, Stage: stage, Key: key, RowsPerGroup: rowsPerGroup, row: reflect.TypeOf(zero)}
	for i := 0; i < t.row.NumField(); i++ {
		f := t.row.Field(i)
		tag := f.Tag.Get("parquet")
		if tag == "" || tag == "-" {
			continue
		}
		opts := strings.Split(tag, ",")
		doc := f.Tag.Get("doc")
		if doc == "" {
			panic(fmt.Sprintf("schema: %s.%s has no doc tag", name, opts[0]))
		}
		t.columns = append(t.columns, Column{
			Name:     opts[0],
			Type:     duckType(f.Type),
			Doc:      doc,
			Nullable: f.Type.Kind() == reflect.Pointer,
			Blob:     f.Tag.Get("blob") == "true",
			Since:    f.Tag.Get("since"),
			field:    f.Index,
		})
	}
	for _, k := range key {
		c, ok := t.Column(k)
		if !ok {
			panic(fmt.Sprintf("schema: %s key %q is not a column", name, k))
		}
		t.keyIdx = append(t.keyIdx, c.field)
	}
	registry = append(registry, t)
	return Def[T]{t}
}

func duckType(t reflect.Type) string {
	if t == reflect.TypeOf(time.Time{}) {
		return "TIMESTAMPTZ"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return duckType(t.Elem())
	case reflect.String:
		return "VARCHAR"
	case reflect.Bool:
		return "BOOLEAN"
	case reflect.Int32:
		return "INTEGER"
	case reflect.Int64:
		return "BIGINT"
	case reflect.Float64:
		return "DOUBLE"
	case reflect.Slice:
		return duckType(t.Elem()) + "[]"
	}
	panic(fmt.Sprintf("schema: no DuckDB type for %s", t))
}

var registry []*Table

// All lists every table, in the order of the pipeline.
func All() []*Table { return registry }

// Lookup returns the named table.
func Lookup(name string) (*Table, bool) {
	for _, t := range registry {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// The tables of a run, in pipeline order. Alignments hold the aligner's
// raw reply, which the writer's byte bound keeps in check: groups of 1,000
// of them made 670 groups at ten times the paper's design, whose footer
// DuckDB holds in memory (about 9 MB) in every stage that opens the run
// (BENCHMARKS.md, "score part by part: what DuckDB keeps").
var (
	Problems        = declare[Problem]("problems", "ingest", "benchmark problems, one row per (problem, language)", 5000, "problem_id", "lang")
	Traces          = declare[Trace]("traces", "generate, import traces, control", "reasoning traces, one row per (model, input_lang, reasoning_lang, level, problem, seed, method)", 1024, "trace_id")
	Answers         = declare[Answer]("answers", "verify", "the final answer of every trace, graded against the gold answer", 20000, "trace_id")
	Verdicts        = declare[Verdict]("verdicts", "verify", "every grader's verdict on every trace (answers holds the chosen grader's); grader_agreement compares them", 20000, "trace_id", "grader")
	Compliances     = declare[Compliance]("compliance", "langcheck", "reasoning-language compliance of every trace", 20000, "trace_id")
	Detections      = declare[Detection]("detections", "langcheck", "every language detector's decision on every trace (langdetect and lingua)", 20000, "trace_id", "detector")
	References      = declare[Reference]("derivations", "references", "English reference derivations (every attempt, accepted or not)", 256, "problem_id", "model", "attempt")
	DAGs            = declare[DAG]("dags", "dags, import dags", "reference DAGs, one per (problem, reference derivation)", 2000, "dag_id")
	Nodes           = declare[Node]("nodes", "dags, import dags", "anchors of the reference DAGs", 20000, "dag_id", "node_id")
	Edges           = declare[Edge]("edges", "dags, import dags", "dependency edges of the reference DAGs (parent before child)", 20000, "dag_id", "parent_id", "child_id")
	Alignments      = declare[Alignment]("alignments", "align, import alignments", "closed-set alignments, one per (trace, DAG, aligner)", 20000, "trace_id", "dag_id", "aligner")
	AlignmentEvents = declare[AlignmentEvent]("alignment_events", "align, import alignments", "node evidence of the alignments, one row per event", 20000, "trace_id", "dag_id", "aligner", "node_id", "seq")
	HarmfulActions  = declare[HarmfulAction]("harmful_actions", "align, import alignments", "harmful actions reported by the aligner", 20000, "trace_id", "dag_id", "aligner", "category", "seq")
	AlignmentErrors = declare[AlignmentError]("alignment_errors", "align, import alignments", "what was wrong in alignments: unknown node ids, bad statuses, unusable replies, evidence spans a cap of the locator stopped", 20000, "trace_id", "dag_id", "aligner", "seq")
	Scores          = declare[Score]("scores", "score", "CAR, PMF and HAR of every alignment, and each trace's best DAG", 20000, "trace_id", "dag_id", "aligner")
	Trials          = declare[Trial]("trials", "control", "every generation attempt of a controlled run", 20000, "trace_id", "phase", "trial")
	Annotations     = declare[Annotation]("annotations", "import annotations", "human judgments of the DATG audit: DAG validity, human alignments, harmful-action candidates", 20000, "trace_id", "dag_id", "annotator", "layer", "item")
)
