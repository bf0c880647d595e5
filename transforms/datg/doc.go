// Package datg holds the pure parts of the Directed Acyclic Trace Graph
// diagnosis (paper, section 4 and appendices C-E): reading the DAG and
// alignment JSON a model returns (leniently: code fences and prose around
// the object are tolerated), validating DAGs strictly, locating a quoted
// evidence span in a trace (exactly, then after whitespace and Unicode
// normalization, then by a fuzzy match, within caps on the work: see
// Locator), and the LLM-free symbolic
// DAG extractor and aligner used offline.
package datg
