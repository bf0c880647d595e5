package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/datg/datg/pipelines/langcheck"
	"github.com/datg/datg/study"
)

var cmdLangcheck = &Command{
	UsageLine: "langcheck [--detector langdetect|lingua] [--workers N]",
	Short:     "check that every trace reasons in the requested language",
	Long: `Langcheck identifies the language of every trace's reasoning (appendix A.3),
without the direct-first prefix and the final answer, math spans removed,
with two detectors:

  langdetect  the paper's rule (the default): langdetect (a Go port of
              Python langdetect 1.0.9 and its 55 language profiles, seed 0)
              on the whole reasoning (its first 10,000 characters, as
              langdetect reads); compliant iff exactly one language is
              detected (probability above 0.1) and it is the requested one,
              zh as zh-cn, ms and id accepting each other.
  lingua      datg's segment detector: lingua-go restricted to the study's
              12 languages on up to 24 segments; a language is detected when
              it holds 10% of the reasoning or more; the same rule; very
              short reasoning is too-short (under 40 letters of an
              English-like alphabet: a Han character counts 3, a kana 2, a
              Hangul syllable its jamo, a vowel sign 1; compliance.length).

Both run on every trace. --detector chooses the one that decides
DIR/compliance.parquet (its detector column says which by name, the
settings column how it was set); DIR/detections.parquet holds both decisions (datg tables
compares them in compliance_agreement). The two tables are written in one
commit. The paper's langdetect was unseeded, so near a decision boundary
its runs could differ; datg's seed makes every run decide the same way.`,
}

var (
	langcheckData     = dataFlag(&cmdLangcheck.Flag)
	langcheckDetector = cmdLangcheck.Flag.String("detector", string(study.Langdetect), "the detector that decides compliance: "+strings.Join(study.Strings(study.Detectors...), " or "))
	langcheckWorkers  = cmdLangcheck.Flag.Int("workers", 0, "traces checked at once (default: the number of CPUs)")
)

func init() { cmdLangcheck.Run = runLangcheck }

func runLangcheck(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg := langcheck.DefaultConfig()
	cfg.Data, cfg.Detector, cfg.Workers, cfg.Stderr = *langcheckData, *langcheckDetector, *langcheckWorkers, stderr
	if err := needRun(cfg, cfg.Data); err != nil {
		return err
	}
	sum, err := langcheck.Run(ctx, cfg)
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
	fmt.Fprintf(stdout, "langcheck (%s): %d traces, %d compliant (%.1f%%); %v; the detectors disagree on %d -> %s/compliance.parquet, detections.parquet\n",
		sum.Detector, sum.Traces, sum.Compliant, pct, statuses, sum.Disagree, cfg.Data)
	return nil
}
