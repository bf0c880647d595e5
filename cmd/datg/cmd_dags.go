package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/pipelines/dags"
)

var cmdDAGs = &Command{
	UsageLine: "dags (--model M --base-url URL [--batch] | --builder symbolic) [--reference-model M] [--budget LEVEL=NODES/CHARS/PARENTS,..] [--prompts DIR]",
	Short:     "turn each accepted reference derivation into a reference DAG",
	Long: `DAGs converts every accepted reference derivation into a DAG of mathematical
anchors with datg's DAG-construction prompt (prompts/dag_*, or
the set --prompts DIR names),
reading the reply leniently and validating it strictly: unique node ids,
parents that come earlier, no cycle, a final node that is a sink and that
every node leads to. An invalid DAG gets one repair request quoting the
problem; if it is still invalid it is stored with valid = false and the
reason. --builder symbolic extracts the DAG from the derivation's equations
without an LLM. Writes DIR/dags.parquet, nodes.parquet and edges.parquet.

The prompt gives each level's size guidance (--budget: about how many
nodes, how long a description, how many parents; by default 8, 12, 16 and
20 nodes for low, medium, high and top) as a target, never a limit: no
reply is checked against it. The only limits are the safety caps of a
valid DAG (200 nodes, 32 parents per node).`,
}

var (
	dagsData     = dataFlag(&cmdDAGs.Flag)
	dagsLLM      = addLLMFlags(&cmdDAGs.Flag, "chat", 8, true).withBatch(&cmdDAGs.Flag)
	dagsBuilder  = cmdDAGs.Flag.String("builder", "llm", "llm (the --model) or symbolic (no LLM)")
	dagsRefModel = cmdDAGs.Flag.String("reference-model", "", "use the references of this model (needed when several wrote some)")
	dagsMaxTok   = cmdDAGs.Flag.Int("max-tokens", 0, fmt.Sprintf("token budget of a reply (0: %d, or %d for a reasoning model whose budget counts its reasoning: o-series, gpt-5 on a server that is not vLLM)", dags.DefaultMaxTokens, llm.ReasoningBudget))
	dagsBudget   = func() budgetFlag {
		f := budgetFlag{}
		cmdDAGs.Flag.Var(f, "budget", "DAG size guidance by level, LEVEL=NODES/CHARS/PARENTS,... (default "+budgetFlag(dags.DefaultConfig().Budgets).String()+"): written into the prompt as \"aim for about\", never checked")
		return f
	}()
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
	for level, b := range dagsBudget {
		cfg.Budgets[level] = b
	}
	if err := needRun(cfg, cfg.Data); err != nil {
		return err
	}
	sum, err := dags.Run(ctx, cfg)
	if done, err := dagsLLM.finish("dags", stdout, err); done {
		return err
	}
	changed := ""
	if sum.Changed > 0 {
		changed = fmt.Sprintf("; %d replaced DAGs of other content, whose alignments are stale until aligned again", sum.Changed)
	}
	fmt.Fprintf(stdout, "dags: %d DAGs, %d valid, %d repaired%s%s -> %s/dags.parquet\n", sum.DAGs, sum.Valid, sum.Repaired,
		spentText(sum.Grown, sum.Spent, "invalid, the reason saying so"), changed, cfg.Data)
	return nil
}
