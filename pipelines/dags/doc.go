// Package dags turns English reference derivations into reference DAGs
// (paper, section 4.1 and appendix C). It reads DIR/derivations.parquet (the
// accepted references) and writes DIR/dags.parquet, DIR/nodes.parquet and
// DIR/edges.parquet, replacing the DAGs it builds (merged by dag_id).
//
// With an LLM builder, each reference is sent with datg's DAG-construction
// prompt (prompts/dag_*.txt); the reply is read leniently (code
// fences and text around the JSON are tolerated) and validated strictly. A
// DAG that fails validation gets one repair request quoting the error; if the
// repair fails too, the DAG is stored with valid = false and the reason. The
// symbolic builder (no LLM) extracts anchors from the derivation's
// equations, assignments and arithmetic instead.
package dags
