package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/pipelines/dags"
)

var cmdDAGs = &Command{
	UsageLine: "dags (--model M --base-url URL | --builder symbolic) [--reference-model M]",
	Short:     "turn each accepted reference derivation into a reference DAG",
	Long: `DAGs converts every accepted reference derivation into a DAG of mathematical
anchors with datg's DAG-construction prompt (pipelines/prompts/dag_*.txt),
reading the reply leniently and validating it strictly: unique node ids,
parents that come earlier, no cycle, a final node that is a sink and that
every node leads to. An invalid DAG gets one repair request quoting the
problem; if it is still invalid it is stored with valid = false and the
reason. --builder symbolic extracts the DAG from the derivation's equations
without an LLM. Writes DIR/dags.parquet, nodes.parquet and edges.parquet.`,
}

var (
	dagsData     = dataFlag(&cmdDAGs.Flag)
	dagsLLM      = addLLMFlags(&cmdDAGs.Flag, "chat", 8, true)
	dagsBuilder  = cmdDAGs.Flag.String("builder", "llm", "llm (the --model) or symbolic (no LLM)")
	dagsRefModel = cmdDAGs.Flag.String("reference-model", "", "use the references of this model (needed when several wrote some)")
	dagsMaxTok   = cmdDAGs.Flag.Int("max-tokens", dags.DefaultConfig().MaxTokens, "token budget of a reply")
)

func init() { cmdDAGs.Run = runDAGs }

func runDAGs(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg := dags.DefaultConfig()
	if err := dagsLLM.targetOrSymbolic(cmd, "builder", *dagsBuilder, &cfg.Symbolic, &cfg.Target); err != nil {
		return err
	}
	cfg.Data, cfg.ReferenceModel, cfg.MaxTokens, cfg.Stderr = *dagsData, *dagsRefModel, *dagsMaxTok, stderr
	set, err := dagsLLM.promptSet()
	if err != nil {
		return err
	}
	cfg.Prompts = set
	sum, err := dags.Run(ctx, cfg)
	if err != nil {
		return err
	}
	changed := ""
	if sum.Changed > 0 {
		changed = fmt.Sprintf("; %d replaced DAGs of other content, whose alignments are stale until aligned again", sum.Changed)
	}
	fmt.Fprintf(stdout, "dags: %d DAGs, %d valid, %d repaired%s -> %s/dags.parquet\n", sum.DAGs, sum.Valid, sum.Repaired, changed, cfg.Data)
	return nil
}
