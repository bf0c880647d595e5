package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/pipelines/verify"
)

var cmdVerify = &Command{
	UsageLine: "verify",
	Short:     "grade every trace's final answer into the answers table",
	Long: `Verify extracts the final answer of every trace and compares it with the
problem's gold answer, as a careful grader would (transforms/answer): the last
\boxed{} after the reasoning (several boxes for a list answer), else an answer
marker in any of the 12 languages, else the last number, then the same inside
the reasoning; a trace the budget cut off without an answer has none. Answers
are compared as exact rationals, numbers, expressions in variables (at fixed
sample points), equations, intervals and inequalities, sets, tuples and
matrices. It rewrites DIR/answers.parquet with one row per trace.`,
}

var verifyData = dataFlag(&cmdVerify.Flag)

func init() { cmdVerify.Run = runVerify }

func runVerify(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	sum, err := verify.Run(ctx, verify.Config{Data: *verifyData, Stderr: stderr})
	if err != nil {
		return err
	}
	pct := 0.0
	if sum.Traces > 0 {
		pct = 100 * float64(sum.Correct) / float64(sum.Traces)
	}
	fmt.Fprintf(stdout, "verify: %d traces, %d correct (%.1f%%), %d without an answer -> %s/answers.parquet\n",
		sum.Traces, sum.Correct, pct, sum.NoAnswer, *verifyData)
	return nil
}
