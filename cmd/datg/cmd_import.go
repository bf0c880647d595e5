package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/pipelines/imports"
)

var cmdImport = &Command{
	CustomFlags: true,
	UsageLine:   "import traces|dags|alignments|annotations --in FILE.jsonl [--aligner NAME]",
	Short:       "add traces, DAGs, alignments or human annotations produced elsewhere",
	Long: `Import adds outputs produced elsewhere, one JSON object a line.

import traces: {"model", "input_lang", "reasoning_lang", "level",
"problem_id", "seed", "method", "text", "completion_tokens"}, optionally
trace_id (derived deterministically when absent), finish_reason, direction
(checked), prompt_tokens, max_tokens, temperature, top_p and
repetition_penalty. Merged into DIR/traces.parquet by trace_id; one row per
trace key is kept.

import dags: {"problem_id", "ref_index", "dag"}, where dag is the DAG JSON of
the paper's appendix ({"final_node_id", "nodes": [{"node_id", "anchor",
"description", "parents"}]}) or a string holding it as an LLM returned it.
Each DAG is validated; an invalid one is stored with valid = false and the
reason. Merged into dags, nodes and edges by dag_id ({problem_id}/r{ref_index}).

import alignments: {"trace_id", "problem_id", "ref_index", "alignment"},
where alignment is the closed-set alignment JSON ({"audit_results",
"contradictory_steps", "harmful_loop_steps", "degenerate_steps"}) or a
string holding it. The trace and a valid DAG must exist. Spans are located
in the trace; unknown node ids and bad statuses go to alignment_errors.
Recorded under --aligner (default import:<file>).

import annotations: the human audit of DATG, one annotator's judgments of one
(trace, reference DAG) instance a line (datg annotations sample writes the
paper's audit in this format, judgments null): {"annotator", "trace_id",
"ref_index", "nodes": {node_id: valid?}, "edges": {"parent>child": valid?}
(a ">" or "\" inside a node id written "\>" or "\\"),
"statuses": {node_id: {"status": COMMIT|ATTEMPT|ERROR|MISSING,
"evidence_span": the trace text that shows it}} (or node_id: "COMMIT"),
"harmful": {quote of an automatic candidate (its evidence_span, or its
evidence when it has none): confirmed?}, "car",
"pmf" (typed-in scores of older files; the scores computed from complete
statuses win), "context" (not read)}; every part but the first three is
optional. Node and edge ids are checked against the DAG; evidence spans are
located in the trace (one not found is refused); a null judgment is refused
as not made yet. Merged into annotations; a re-imported (annotator, trace,
DAG) replaces its rows. datg tables then writes human_eval and
human_agreement.

A malformed line is an error naming the file, line and field; nothing is
written then.`,
}

var (
	importData    = dataFlag(&cmdImport.Flag)
	importIn      = cmdImport.Flag.String("in", "", "JSONL file to import")
	importAligner = cmdImport.Flag.String("aligner", "", "name recorded for imported alignments (default import:<file>)")
)

func init() { cmdImport.Run = runImport }

func runImport(ctx context.Context, cmd *Command, args []string) error {
	kind, err := actionThenFlags(cmd, args, imports.Kinds, "say what to import: datg import traces|dags|alignments|annotations --in FILE.jsonl")
	if err != nil {
		return err
	}
	cfg := imports.DefaultConfig()
	cfg.Kind, cfg.In, cfg.Data, cfg.Aligner = kind, *importIn, *importData, *importAligner
	sum, err := imports.Run(ctx, cfg)
	if err != nil {
		return err
	}
	extra := ""
	if sum.Changed > 0 {
		extra = fmt.Sprintf(", %d of them changed: their alignments are stale until aligned again", sum.Changed)
	}
	if sum.Invalid > 0 {
		extra += fmt.Sprintf(", %d invalid (kept with the reason)", sum.Invalid)
	}
	if sum.Capped > 0 {
		extra += fmt.Sprintf(", %d evidence spans not searched in full (alignment_errors kind locate-capped)", sum.Capped)
	}
	fmt.Fprintf(stdout, "import: %d %s (%d replaced%s) -> %s\n", sum.Records, args[0], sum.Replaced, extra, *importData)
	return nil
}
