package prompts

import (
	"bytes"
	"embed"
	"strings"
	"text/template"
)

//go:embed *.txt *.tmpl
var files embed.FS

func text(name string) string {
	b, err := files.ReadFile(name)
	if err != nil {
		panic("prompts: " + err.Error())
	}
	return strings.TrimSpace(string(b))
}

func tmpl(name string) *template.Template {
	return template.Must(template.New(name).Option("missingkey=error").Parse(text(name)))
}

// System messages of the LLM stages (datg's own wording, written to the
// paper's specification in appendices B and C).
var (
	ReferenceSystem = text("reference_system.txt")
	DAGSystem       = text("dag_system.txt")
	AlignSystem     = text("align_system.txt")
)

var (
	referenceUser = tmpl("reference_user.tmpl")
	dagUser       = tmpl("dag_user.tmpl")
	dagRepair     = tmpl("dag_repair.tmpl")
	alignUser     = tmpl("align_user.tmpl")
	scaffold      = tmpl("scaffold_system.tmpl")
)

// Fields of the user templates.
type (
	ReferenceInput struct{ Question string }
	DAGInput       struct {
		Derivation, Tail, Final            string
		MaxNodes, MaxDescChars, MaxParents int
	}
	DAGRepairInput struct{ Error string }
	AlignInput     struct{ Language, DAG, Trace string }
	ScaffoldInput  struct{ Language string }
)

func render(t *template.Template, data any) string {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		panic("prompts: " + err.Error()) // the fields are fixed, so this is a bug
	}
	return b.String()
}

// ReferenceUser renders the reference request.
func ReferenceUser(in ReferenceInput) string { return render(referenceUser, in) }

// DAGUser renders the DAG-construction request.
func DAGUser(in DAGInput) string { return render(dagUser, in) }

// DAGRepairUser renders the repair request sent after an invalid DAG.
func DAGRepairUser(in DAGRepairInput) string { return render(dagRepair, in) }

// AlignUser renders the closed-set alignment request.
func AlignUser(in AlignInput) string { return render(alignUser, in) }

// Between returns the text between the lines "<<<NAME" and "NAME>>>" of a
// rendered request (what the simulator reads back).
func Between(s, name string) (string, bool) {
	open, close := "<<<"+name+"\n", "\n"+name+">>>"
	i := strings.Index(s, open)
	if i < 0 {
		return "", false
	}
	rest := s[i+len(open):]
	j := strings.LastIndex(rest, close)
	if j < 0 {
		return "", false
	}
	return rest[:j], true
}

// ScaffoldSystem renders Formula-Retry's two-phase system message (paper,
// appendix G): an English/symbolic execution state whose computed values are
// masked, then the solution in the target language.
func ScaffoldSystem(in ScaffoldInput) string { return render(scaffold, in) }
