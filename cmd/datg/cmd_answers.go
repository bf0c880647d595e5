package main

import (
	"context"

	"github.com/datg/datg/pipelines/verify"
)

var cmdAnswers = &Command{
	UsageLine: "answers check < IN.jsonl > OUT.jsonl",
	Short:     "grade (gold, prediction) pairs from stdin with datg's answer grader",
	Long: `Answers check reads one JSON object a line from stdin, {"gold": "...",
"pred": "..."}, and writes one line per input line, in order, to stdout:
{"correct": true|false, "extracted": "...", "reason": "...", "where": "..."}.
The prediction may be a bare answer ("x = 5", "18 dollars", "\frac{1}{2}")
or a whole generation (the final \boxed{} or answer marker is used). A line
that is not such an object gets {"correct": false, "error": "..."}.`,
}

func init() { cmdAnswers.Run = runAnswers }

func runAnswers(ctx context.Context, cmd *Command, args []string) error {
	if len(args) != 1 || args[0] != "check" {
		return usageError{cmd, "the only subcommand is check: datg answers check < IN.jsonl"}
	}
	_, err := verify.CheckLines(ctx, stdin, stdout)
	return err
}
