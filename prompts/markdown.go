package prompts

import (
	"fmt"
	"strings"
)

// Markdown lists the files of a prompt set and each template's variables,
// from Files and the doc tags of the input types: the README's list
// (TestReadmePromptsAreCurrent keeps it current).
func Markdown() string {
	var b strings.Builder
	b.WriteString("\n| file | what it is | variables |\n| --- | --- | --- |\n")
	for _, f := range Files {
		vars := "none: sent as written (leading and trailing white space dropped)"
		if f.Name == languagesFile {
			vars = "none: JSON, `{\"languages\": [{\"code\", \"name\", \"native_name\", \"resource\", \"system\", \"prefix\"}]}`; the codes and resource groups are the study's and must stay"
		}
		if f.Input != nil {
			var vs []string
			for i := 0; i < f.Input.NumField(); i++ {
				fl := f.Input.Field(i)
				req := ""
				for _, r := range f.Required {
					if r == fl.Name {
						req = " (required)"
					}
				}
				vs = append(vs, fmt.Sprintf("`{{.%s}}`%s: %s", fl.Name, req, escapeCell(fl.Tag.Get("doc"))))
			}
			vars = strings.Join(vs, "<br>")
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.Name, escapeCell(f.Doc), vars)
	}
	b.WriteString("\n")
	return b.String()
}

// escapeCell keeps a doc string literal in a Markdown table cell.
func escapeCell(s string) string {
	return strings.NewReplacer("|", "\\|", "<", "&lt;", ">", "&gt;").Replace(s)
}
