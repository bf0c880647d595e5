// Package study declares the study's vocabulary, once: its languages (with
// their resource groups and scripts), levels, directions, trace methods,
// alignment and node statuses, trial phases, graders and detectors, as typed
// constants with their parsing.
//
// It lives at the top of the tree, beside schema and transforms, because
// every layer speaks this vocabulary: the pure transforms, the Parquet
// schema's column domains, internal/duck's reference tables, every stage and
// the command. A package that everyone imports must import nothing of datg,
// so study is a leaf (only the standard library), and a low layer that needs
// the study's languages takes them from here rather than from a stage. It is
// not inside schema because the vocabulary is the study's design, not a
// storage layout: a direction's (input, reasoning) pair, a language's script
// or a method's meaning hold whether or not a table stores them.
//
// Values arrive as strings (flags, JSONL, Parquet columns); the Parse
// functions turn one into its type or name what is known. Prompt texts in
// each language stay prompt data (prompts); the language's code,
// names and group are here, and the builtin prompt set is checked against
// them.
package study
