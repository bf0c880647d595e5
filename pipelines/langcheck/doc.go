// Package langcheck checks that each trace reasons in the requested
// language (paper, appendix A.3). It reads DIR/traces.parquet and rewrites
// DIR/compliance.parquet, one row per trace.
//
// The reasoning (without the direct-first prefix datg wrote and the answer
// after </think>) is stripped of math spans, cut into sentence-bounded
// segments (at most 24, spread over the trace), and each segment's language
// is identified with lingua-go restricted to the study's 12 languages (its
// trigram mode, deterministic). A language is detected when it holds at
// least 10% of the letters, as langdetect's detect_langs reports languages
// above 0.1 in the paper's protocol; a trace is compliant when exactly one language is
// detected and it is the requested one, Malay and Indonesian accepting each
// other. Empty and very short reasoning gets a status of its own.
package langcheck
