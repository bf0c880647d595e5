package schema

import (
	"fmt"
	"strings"
)

// Markdown renders the schema reference of every table: what writes it, what
// identifies a row, and each column's DuckDB type and meaning.
func Markdown() string {
	var b strings.Builder
	for _, t := range All() {
		fmt.Fprintf(&b, "## `%s`\n\n%s. Written by `datg %s`. Key: (%s).\n\n",
			t.Name, capitalize(t.Doc), t.Stage, strings.Join(t.Key, ", "))
		b.WriteString("| column | type | meaning |\n| --- | --- | --- |\n")
		for _, c := range t.Columns() {
			typ := c.Type
			if c.Nullable {
				typ += " (nullable)"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.Name, typ, strings.ReplaceAll(c.Doc, "|", `\|`))
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
