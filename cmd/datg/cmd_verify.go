package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/datg/datg/pipelines/verify"
)

var cmdVerify = &Command{
	UsageLine: "verify [--grader math-verify|multilingual]",
	Short:     "grade every trace's final answer into the answers table",
	Long: `Verify extracts the final answer of every trace and compares it with the
problem's gold answer, with every grader datg has, and writes the chosen
grader's verdicts to DIR/answers.parquet (one row per trace; answers.grader
names it) and every grader's to DIR/verdicts.parquet, in one commit.

--grader math-verify (the default) grades as the paper's Math-Verify does
(transforms/mathverify): the answer is what Math-Verify extracts (the last
\boxed{}, else the last LaTeX expression or number) and it is compared with
Math-Verify's normalization and precision. A gold answer it cannot read gives
the reason gold-unparsed.

--grader multilingual is datg's own grader (transforms/answer): the last
\boxed{} after the reasoning, else an answer marker in any of the 12
languages, else the last number; decimal commas and native digits; a trace
the budget cut off without an answer has none. Answers are compared as exact
rationals, numbers, expressions in variables, equations, intervals and
inequalities, sets, tuples and matrices.

datg tables' grader_agreement compares the two per model, level and
language.`,
}

var (
	verifyData   = dataFlag(&cmdVerify.Flag)
	verifyGrader = cmdVerify.Flag.String("grader", verify.DefaultGrader(), "the grader answers holds: "+strings.Join(verify.Graders(), " or "))
)

func init() { cmdVerify.Run = runVerify }

func runVerify(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg := verify.Config{Data: *verifyData, Grader: *verifyGrader, Stderr: stderr}
	if err := needRun(cfg, cfg.Data); err != nil {
		return err
	}
	sum, err := verify.Run(ctx, cfg)
	if err != nil {
		return err
	}
	pct := 0.0
	if sum.Traces > 0 {
		pct = 100 * float64(sum.Correct) / float64(sum.Traces)
	}
	unparsed := ""
	if sum.GoldUnparsed > 0 {
		unparsed = fmt.Sprintf(", %d whose gold the grader cannot read", sum.GoldUnparsed)
	}
	fmt.Fprintf(stdout, "verify: %d traces graded by %s, %d correct (%.1f%%), %d without an answer%s; the graders disagree on %d -> %s/answers.parquet\n",
		sum.Traces, *verifyGrader, sum.Correct, pct, sum.NoAnswer, unparsed, sum.Disagree, *verifyData)
	return nil
}
