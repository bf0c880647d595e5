// Package align aligns traces to reference DAGs in a closed set (paper,
// section 4.2 and appendix C). It reads traces and the valid DAGs
// (dags, nodes, edges) and writes alignments, alignment_events,
// harmful_actions and alignment_errors, replacing the rows of every
// (trace, DAG, aligner) it aligns.
//
// With an LLM aligner there is one call per (trace, DAG), with datg's
// closed-set alignment prompt (prompts/align_*.txt); calls are
// journaled and resumable like generation. The symbolic aligner (no LLM)
// commits a node when the trace establishes the anchor's value. Either way,
// events and harmful actions are stored as returned; each evidence span is
// located in the trace (exactly, normalized, or fuzzily), giving start_char,
// end_char, commit_progress and block_id; an unlocated span is kept with
// match = none. Locating is capped (datg.Locator: one budget of work per
// alignment, proportional to the trace); a span a cap stops is unlocated
// and recorded. Unknown node ids, bad statuses, unusable replies and
// capped spans are recorded in alignment_errors.
package align
