// Package transforms holds datg's pure functions: no I/O, no clocks, no
// randomness that is not seeded by the input. Answer grading, identifiers,
// directions and prompt rendering live here so they can be table-tested and
// fuzzed in isolation. The study's vocabulary (levels, directions,
// languages) is in package study.
package transforms
