package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/prompts"
)

var cmdPrompts = &Command{
	UsageLine: "prompts export --out DIR | prompts check DIR",
	Short:     "write datg's built-in prompt set to a directory, or check one",
	Long: `Prompts handles the prompt sets that --prompts DIR gives the stages that send
a prompt (generate, control, references, dags, align).

prompts export --out DIR writes the built-in set, one file per prompt
(system messages, user templates, languages.json with the per-language
solver system messages and direct-first prefixes), so it can be edited. It
refuses to overwrite a file.

prompts check DIR loads a set as the stages do and prints its hash (the
prompt_set column of the rows made from it); a missing file, a template that
does not parse, names an unknown variable or leaves out a required one is a
usage error naming the file. README.md lists every file and its variables.`,
}

var promptsOut = cmdPrompts.Flag.String("out", "", "directory to export into (made if absent; existing files are not overwritten)")

func init() { cmdPrompts.Run = runPrompts }

func runPrompts(ctx context.Context, cmd *Command, args []string) error {
	if len(args) == 0 || (args[0] != "export" && args[0] != "check") {
		return usageError{cmd, "say what to do: datg prompts export --out DIR, or datg prompts check DIR"}
	}
	if err := parseFlags(cmd, args[1:]); err != nil {
		return err
	}
	rest := cmd.Flag.Args()
	if args[0] == "check" {
		if len(rest) != 1 {
			return usageError{cmd, "datg prompts check DIR takes one directory"}
		}
		set, err := prompts.Load(rest[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "prompts: %s: %d files, prompt_set %s\n", rest[0], len(prompts.Files), set.Hash())
		return nil
	}
	if err := noArgs(cmd, rest); err != nil {
		return err
	}
	if *promptsOut == "" {
		return usageError{cmd, "--out DIR is required"}
	}
	paths, err := prompts.Export(*promptsOut)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "prompts: wrote %d files of the built-in set (prompt_set %s) to %s\n", len(paths), prompts.Builtin().Hash(), *promptsOut)
	return nil
}
