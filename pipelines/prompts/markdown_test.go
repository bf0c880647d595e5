package prompts

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite README.md's list of prompt files")

const (
	beginMarker = "<!-- BEGIN prompts: generated from pipelines/prompts by `go test ./pipelines/prompts -update` -->\n"
	endMarker   = "<!-- END prompts -->"
)

// TestReadmePromptsAreCurrent keeps README.md's list of prompt files and
// variables equal to Files and the input types' doc tags.
func TestReadmePromptsAreCurrent(t *testing.T) {
	const path = "../../README.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, beginMarker), strings.Index(readme, endMarker)
	if i < 0 || j < i {
		t.Fatalf("README.md has no prompt list between %q and %q", beginMarker, endMarker)
	}
	want := Markdown()
	if readme[i+len(beginMarker):j] == want {
		return
	}
	if *update {
		readme = readme[:i+len(beginMarker)] + want + readme[j:]
		if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("README.md's list of prompt files is stale; run go test ./pipelines/prompts -update")
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
