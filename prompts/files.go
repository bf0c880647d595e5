package prompts

import "reflect"

// File is one file of a prompt set.
type File struct {
	Name string
	// What the file is, for `datg prompts export` and the README.
	Doc string
	// Input is the type whose fields are the template's variables (nil for
	// plain text, which is sent as written).
	Input reflect.Type
	// Required are the variables the request cannot do without: a template
	// leaving any of them out is refused.
	Required []string
}

// Files are the files of every prompt set, in the order the README lists
// them. A set read from a directory must hold each of them.
var Files = []File{
	{Name: "reference_system.txt", Doc: "system message of the reference-derivation requests (datg references)"},
	{Name: "reference_user.tmpl", Doc: "user message of the reference-derivation requests", Input: reflect.TypeFor[ReferenceInput](), Required: []string{"Question"}},
	{Name: "dag_system.txt", Doc: "system message of the DAG-construction requests (datg dags)"},
	{Name: "dag_user.tmpl", Doc: "user message of the DAG-construction requests", Input: reflect.TypeFor[DAGInput](), Required: []string{"Derivation"}},
	{Name: "dag_repair.tmpl", Doc: "user message sent after a DAG reply that fails validation (the first reply stays in the conversation)", Input: reflect.TypeFor[DAGRepairInput](), Required: []string{"Error"}},
	{Name: "align_system.txt", Doc: "system message of the closed-set alignment requests (datg align)"},
	{Name: "align_user.tmpl", Doc: "user message of the closed-set alignment requests", Input: reflect.TypeFor[AlignInput](), Required: []string{"DAG", "Trace"}},
	{Name: "scaffold_system.tmpl", Doc: "system message of Formula-Retry (datg control --method formula-retry)", Input: reflect.TypeFor[ScaffoldInput](), Required: []string{"Language"}},
	{Name: languagesFile, Doc: "per language (the study's 12): name, the solver system message of datg generate and datg control, written in that language, and the direct-first prefix that opens the reasoning"},
}

const languagesFile = "languages.json"
