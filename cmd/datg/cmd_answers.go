package main

import (
	"context"
	"os"
	"runtime/debug"
	"strings"

	"github.com/datg/datg/pipelines/verify"
)

var cmdAnswers = &Command{
	CustomFlags: true,
	UsageLine:   "answers check [--grader math-verify|multilingual] < IN.jsonl > OUT.jsonl",
	Short:       "grade (gold, prediction) pairs from stdin with one of datg's graders",
	Long: `Answers check reads one JSON object a line from stdin, {"gold": "...",
"pred": "..."}, and writes one line per input line, in order, to stdout:
{"correct": true|false, "extracted": "...", "reason": "...", "where": "..."}.
The prediction may be a bare answer ("x = 5", "18 dollars", "\frac{1}{2}")
or a whole generation (the final \boxed{} or answer marker is used). A line
that is not such an object gets {"correct": false, "error": "..."}.
--grader picks the grader: math-verify (the default) grades as the paper's
Math-Verify does; multilingual is datg's grader (answer markers in the 12
languages, decimal commas, native digits). It runs Go's collector at
GOGC=400 (about 15 MB more memory, a fifth less CPU on short answers)
unless GOGC is set in the environment.`,
}

var answersGrader = cmdAnswers.Flag.String("grader", verify.DefaultGrader(), "the grader: "+strings.Join(verify.Graders(), " or "))

func init() { cmdAnswers.Run = runAnswers }

func runAnswers(ctx context.Context, cmd *Command, args []string) error {
	if _, err := actionThenFlags(cmd, args, []string{"check"}, "the only subcommand is check: datg answers check < IN.jsonl"); err != nil {
		return err
	}
	// Checking allocates much and keeps little (the graders' compiled
	// patterns, a few MB), so the collector's default target, twice the
	// live heap, ran it every few hundred pairs: a fifth of the CPU on
	// short answers. A target of five times costs ~15 MB more heap. A
	// GOGC the user set wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	_, err := verify.CheckLines(ctx, *answersGrader, stdin, stdout)
	return err
}
