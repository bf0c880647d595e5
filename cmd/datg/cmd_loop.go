package main

import (
	"context"

	"github.com/datg/datg/pipelines/control"
)

var cmdLoop = &Command{
	UsageLine: "loop detect < IN.jsonl > OUT.jsonl",
	Short:     "run Loop-Retry's repetition detector on partial traces from stdin",
	Long: `Loop detect reads one JSON object a line from stdin, {"tokens": [int, ...],
"text": "...", "budget": B}: a partial trace's generated token ids and text,
and the level's token budget. It writes one line per input line, in order:
the detector's verdict at the checkpoint C = B/4 (paper, appendix G):

  rep16, rep32   repeated 16- and 32-gram rates of the last 256 tokens
  ttr256         their type-token ratio
  motif          a unit of 4-32 tokens repeated 3 times at the end (motif_len)
  surface_loop   rep16 >= 0.65, rep32 >= 0.30, a motif, or rep16 >= 0.5
                 with ttr256 <= 0.16
  math_progress  the last 1,600 characters hold an equation, formula,
                 assignment or number in context the text before them lacks
  boxed, short   guards: a \boxed{} answer, fewer than 0.8C tokens
  trigger        surface_loop and none of math_progress, boxed, short

A line that is not such an object gets {"error": "line N: ..."} in its place
and the command exits non-zero once all lines are written; blank lines are
skipped.`,
}

func init() { cmdLoop.Run = runLoop }

func runLoop(ctx context.Context, cmd *Command, args []string) error {
	if len(args) != 1 || args[0] != "detect" {
		return usageError{cmd, "the only subcommand is detect: datg loop detect < IN.jsonl"}
	}
	_, err := control.DetectLines(ctx, stdin, stdout)
	return err
}
