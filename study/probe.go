package study

// ProbeSeed is the seed of the direction probe (paper section 3: every
// cell sampled once; the study's seeds, pipelines/generate/study.json, are
// [42]). The probe tables (direction accuracy, compliance, the DATG
// tables, ...) read the base traces of this seed only, one per (model,
// level, problem, direction, language) and en-en once: base traces of
// other seeds (datg generate --seeds 42,215,316, imports) and the
// controls' traces are in the run but never in those tables. datg tables
// --probe-seed reads a probe sampled at another seed.
const ProbeSeed int64 = 42
