package schema

import (
	"flag"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the schema reference in README.md")

const (
	beginMarker = "<!-- BEGIN schema: generated from schema/ by `go test ./schema -update` -->\n"
	endMarker   = "<!-- END schema -->"
)

// The README's schema reference is generated from the declarations; this
// test keeps the two from drifting apart.
func TestReadmeSchemaIsCurrent(t *testing.T) {
	testenv.DocSection(t, "docs/schema.md", beginMarker, endMarker, Markdown(), *update, "go test ./schema -update")
}

func TestEveryContractColumnIsDeclared(t *testing.T) {
	contract := map[string]string{
		"problems":         "problem_id level lang question answer",
		"traces":           "trace_id model input_lang reasoning_lang direction level problem_id seed method text completion_tokens finish_reason temperature top_p repetition_penalty max_tokens",
		"answers":          "trace_id extracted correct grader",
		"compliance":       "trace_id detected compliant detector",
		"dags":             "dag_id problem_id ref_index final_node_id valid reason",
		"nodes":            "dag_id node_id anchor description",
		"edges":            "dag_id parent_id child_id",
		"alignment_events": "trace_id dag_id node_id seq status evidence evidence_span start_char end_char commit_progress block_id",
		"harmful_actions":  "trace_id dag_id category evidence evidence_span",
		"scores":           "trace_id dag_id car pmf har best",
		"trials":           "trace_id trial completion_tokens aborted forced_accept",
	}
	for name, cols := range contract {
		tbl, ok := Lookup(name)
		if !ok {
			t.Errorf("table %s is not declared", name)
			continue
		}
		for _, c := range strings.Fields(cols) {
			if _, ok := tbl.Column(c); !ok {
				t.Errorf("%s.%s is not declared", name, c)
			}
		}
	}
}

func TestKeyOf(t *testing.T) {
	p := Problem{ProblemID: "low-1", Lang: "sw"}
	if got := Problems.KeyOf(&p); got != "low-1\x00sw" {
		t.Fatalf("KeyOf = %q", got)
	}
	if got := Traces.EmptySelect(); !strings.HasPrefix(got, "SELECT CAST(NULL AS VARCHAR) AS trace_id") || !strings.HasSuffix(got, "WHERE false") {
		t.Fatalf("EmptySelect = %s", got)
	}
}
