package main

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/commands.md from the commands")

const (
	commandsBegin = "<!-- BEGIN commands: generated from cmd/datg by `go test ./cmd/datg -run TestCommandsReference -update` -->\n"
	commandsEnd   = "<!-- END commands -->"
)

// docs/commands.md is every command's help, generated from the Command
// values (usage line, help text, flags with their defaults), so the
// reference cannot drift from what `datg help COMMAND` says.
func TestCommandsReferenceIsCurrent(t *testing.T) {
	testenv.DocSection(t, "docs/commands.md", commandsBegin, commandsEnd, commandsMarkdown(), *updateDocs,
		"go test -tags duckdb_arrow ./cmd/datg -run TestCommandsReference -update")
}

func commandsMarkdown() string {
	var b strings.Builder
	b.WriteString("| command | does |\n| --- | --- |\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "| [`datg %s`](#datg-%s) | %s |\n", c.Name(), c.Name(), c.Short)
	}
	for _, c := range commands {
		fmt.Fprintf(&b, "\n## datg %s\n\n```\ndatg %s\n```\n\n%s\n", c.Name(), c.UsageLine, strings.TrimSpace(c.Long))
		var flags []string
		c.Flag.VisitAll(func(f *flag.Flag) {
			def := f.DefValue
			if f.Name == "data" {
				def = "data/run" // the default without $DATG_DATA
			}
			if def == "" {
				def = " "
			} else {
				def = "`" + def + "`"
			}
			flags = append(flags, fmt.Sprintf("| `--%s` | %s | %s |", f.Name, def, strings.ReplaceAll(f.Usage, "|", `\|`)))
		})
		if len(flags) > 0 {
			b.WriteString("\n| flag | default | meaning |\n| --- | --- | --- |\n")
			b.WriteString(strings.Join(flags, "\n") + "\n")
		}
	}
	return b.String()
}
