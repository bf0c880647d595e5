package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/pipelines/score"
)

var cmdScore = &Command{
	UsageLine: "score",
	Short:     "compute CAR, PMF and HAR of every alignment and each trace's best DAG (SQL)",
	Long: `Score runs sql/derive/scores.sql over the run: node statuses from the events,
CAR = committed nodes / nodes, PMF = ordered edges / edges, HAR = harmful /
max(1, judgeable), and each trace's best DAG per aligner (highest CAR, then
PMF, then lowest HAR, then lowest ref_index), as CONTRACT.md defines them.
Only usable alignments of valid DAGs made on the trace's current text are
scored. Rewrites DIR/scores.parquet.`,
}

var scoreData = dataFlag(&cmdScore.Flag)

func init() { cmdScore.Run = runScore }

func runScore(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg := score.DefaultConfig()
	cfg.Data = *scoreData
	if err := needRun(cfg, cfg.Data); err != nil {
		return err
	}
	sum, err := score.Run(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "score: %d alignments scored for %d (trace, aligner) pairs; left out: %d stale (trace text changed), %d stale (DAG changed), %d unusable -> %s/scores.parquet\n",
		sum.Scored, sum.Traces, sum.StaleText, sum.StaleDAG, sum.Unusable, cfg.Data)
	return nil
}
