// Package pipelines holds datg's stages, one package each, and nothing else.
// Every stage has a doc.go saying what it reads and writes, and one entry
// point, Run(ctx, Config) (Summary, error), with DefaultConfig and
// Validate. The command (cmd/datg) runs them; a study runs them in this
// order, each reading the run directory's Parquet tables (schema/) and
// writing its own:
//
//	stage        reads                                    writes
//	ingest       PolyMath ({lang}/{level}.jsonl|.parquet)  problems
//	generate     problems, study.json                     traces (journal/llm)
//	imports      JSONL made elsewhere                     traces | dags, nodes, edges | alignments,
//	                                                      alignment_events, harmful_actions,
//	                                                      alignment_errors | annotations
//	verify       traces, problems                         answers, verdicts
//	langcheck    traces                                   compliance, detections
//	references   problems                                 derivations, traces (method reference)
//	dags         derivations                              dags, nodes, edges
//	align        traces, dags, nodes, edges               alignments, alignment_events,
//	                                                      harmful_actions, alignment_errors
//	score        alignments and their events, DAGs        scores
//	annotations  traces, scores, DAGs, alignments         a JSONL file for human annotators
//	control      problems                                 traces (loop-retry, formula-retry), trials
//	tables       every table above                        tables/*.csv, .md, .tex, the figure
//	explain      traces and everything scored about them  HTML pages
//	view         every table above                        nothing (a local web server)
//
// What is not a stage lives elsewhere: the study's vocabulary (languages,
// levels, directions, methods, statuses) in study/, table declarations in
// schema/, every metric's SQL in sql/ (a new paper table: a query in
// sql/tables/ and an entry in pipelines/tables' registry), prompt data in
// prompts/, pure functions in transforms/, and the simulated server, the
// LLM client and the Parquet store in internal/.
package pipelines
