package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/pipelines/verify"
)

var cmdVerify = &Command{
	UsageLine: "verify",
	Short:     "grade every trace's final answer into the answers table",
	Long: `Verify extracts the final answer of every trace (the last \boxed{} after the
reasoning, else inside it) and compares it with the problem's gold answer:
equal after normalization, or equal as numbers and fractions. It rewrites
DIR/answers.parquet with one row per trace.`,
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
