package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/pipelines/imports"
)

var cmdImport = &Command{
	UsageLine: "import traces --in FILE.jsonl",
	Short:     "add traces produced elsewhere (CONTRACT format)",
	Long: `Import traces reads one JSON object a line:

  {"model", "input_lang", "reasoning_lang", "level", "problem_id", "seed",
   "method", "text", "completion_tokens"}

and optionally trace_id (derived deterministically when absent),
finish_reason, direction (checked), prompt_tokens, max_tokens, temperature,
top_p and repetition_penalty. Traces are merged into DIR/traces.parquet by
trace_id, replacing traces with the same id. A bad line is an error naming
the file, line and field; nothing is written then.`,
}

var (
	importData = dataFlag(&cmdImport.Flag)
	importIn   = cmdImport.Flag.String("in", "", "JSONL file to import")
)

func init() { cmdImport.Run = runImport }

func runImport(ctx context.Context, cmd *Command, args []string) error {
	if len(args) == 0 || args[0] != "traces" {
		return usageError{cmd, "say what to import: datg import traces --in FILE.jsonl"}
	}
	if err := parseFlags(cmd, args[1:]); err != nil {
		return err
	}
	if err := noArgs(cmd, cmd.Flag.Args()); err != nil {
		return err
	}
	if *importIn == "" {
		return usageError{cmd, "--in FILE is required"}
	}
	sum, err := imports.Run(ctx, imports.Config{Kind: args[0], In: *importIn, Data: *importData})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "import: %d %s (%d replaced) -> %s/%s.parquet\n", sum.Records, args[0], sum.Replaced, *importData, args[0])
	return nil
}
