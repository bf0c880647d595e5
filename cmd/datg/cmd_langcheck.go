package main

import (
	"context"
	"fmt"
	"sort"

	"github.com/datg/datg/pipelines/langcheck"
)

var cmdLangcheck = &Command{
	UsageLine: "langcheck [--workers N]",
	Short:     "check that every trace reasons in the requested language",
	Long: `Langcheck identifies the language of every trace's reasoning (appendix A.3):
without the direct-first prefix and the final answer, math spans removed,
with lingua-go restricted to the study's 12 languages. A language is
detected when it holds 10% of the reasoning or more; a trace is compliant
when exactly one language is detected and it is the requested one (Malay and
Indonesian accept each other). Empty or very short reasoning gets its own
status. It rewrites DIR/compliance.parquet.`,
}

var (
	langcheckData    = dataFlag(&cmdLangcheck.Flag)
	langcheckWorkers = cmdLangcheck.Flag.Int("workers", 0, "traces checked at once (default: the number of CPUs)")
)

func init() { cmdLangcheck.Run = runLangcheck }

func runLangcheck(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	sum, err := langcheck.Run(ctx, langcheck.Config{Data: *langcheckData, Workers: *langcheckWorkers, Stderr: stderr})
	if err != nil {
		return err
	}
	var statuses []string
	for s, n := range sum.ByStatus {
		statuses = append(statuses, fmt.Sprintf("%s %d", s, n))
	}
	sort.Strings(statuses)
	pct := 0.0
	if sum.Traces > 0 {
		pct = 100 * float64(sum.Compliant) / float64(sum.Traces)
	}
	fmt.Fprintf(stdout, "langcheck: %d traces, %d compliant (%.1f%%); %v -> %s/compliance.parquet\n",
		sum.Traces, sum.Compliant, pct, statuses, *langcheckData)
	return nil
}
