// Package verify grades the final answer of every trace against its
// problem's gold answer. It reads DIR/traces.parquet and DIR/problems.parquet
// and rewrites DIR/answers.parquet (one row per trace). Grading is the pure
// function answer.Grade (transforms/answer). CheckLines grades (gold,
// prediction) pairs from JSONL for `datg answers check`.
package verify
