package prompts

import (
	"flag"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite README.md's list of prompt files")

const (
	beginMarker = "<!-- BEGIN prompts: generated from prompts by `go test ./prompts -update` -->\n"
	endMarker   = "<!-- END prompts -->"
)

// TestReadmePromptsAreCurrent keeps README.md's list of prompt files and
// variables equal to Files and the input types' doc tags.
func TestReadmePromptsAreCurrent(t *testing.T) {
	testenv.DocSection(t, "docs/reproducing.md", beginMarker, endMarker, Markdown(), *update, "go test ./prompts -update")
}

// Every variable of every input is documented.
func TestEveryVariableIsDocumented(t *testing.T) {
	for _, f := range Files {
		if f.Input == nil {
			continue
		}
		for i := 0; i < f.Input.NumField(); i++ {
			if f.Input.Field(i).Tag.Get("doc") == "" {
				t.Errorf("%s: {{.%s}} has no doc tag", f.Name, f.Input.Field(i).Name)
			}
		}
	}
}
