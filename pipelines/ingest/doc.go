// Package ingest reads the PolyMath benchmark into the problems table.
//
// It reads either layout of the benchmark from a source directory: the
// GitHub release's {lang}/{level}.jsonl or the Hugging Face release's
// {lang}/{level}.parquet, one problem a line or row with id, question and
// answer. It checks what the study relies on: every (language, level) has
// the expected number of problems, ids are {level}-{lang}-{k}, and problem k
// has one gold answer in every language. Any problem is an error naming the
// file and line, and nothing is written. It writes DIR/problems.parquet,
// merging by (problem_id, lang).
package ingest
