// Package langcheck checks that each trace reasons in the requested
// language (paper, appendix A.3). It reads DIR/traces.parquet and rewrites,
// in one commit, DIR/compliance.parquet (one row per trace: the decision
// of the chosen detector) and DIR/detections.parquet (one row per trace
// and detector: every detector's decision, which datg tables compares in
// compliance_agreement). Each row records the trace's text_hash as the
// traces table holds it, which the views and tables compare it with to
// tell a check made on an older text.
//
// Both detectors read the reasoning without the direct-first prefix datg
// wrote and the answer after </think>, with math spans removed.
//
//   - langdetect (the default) is the paper's rule: langdetect
//     (transforms/langdetect, a Go port of Python langdetect 1.0.9 with
//     its 55 profiles, seeded with 0) on the whole reasoning; compliant iff
//     detect_langs returns exactly one language and it is the requested
//     one, zh as zh-cn, ms and id accepting each other. Like langdetect, it
//     reads the first 10,000 characters.
//   - lingua is datg's segment detector: up to 24 sentence-bounded
//     segments spread over the trace identified by lingua-go restricted to
//     the study's 12 languages (its trigram mode, deterministic); a language
//     is detected when it holds at least 10% of the letters; the same
//     compliance rule otherwise (ms and id accept each other). Empty and
//     very short reasoning gets a status of its own.
package langcheck
