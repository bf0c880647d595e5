// Package loop is the Loop-Retry repetition detector of the paper (appendix
// "Loop-Retry Trigger and Example", app:loop-retry). At the checkpoint
// C = B/4 of a generation budget B it looks at the partial reasoning trace
// and decides whether the continuation should be discarded and resampled.
//
// A trace is a surface loop when, over its last 256 tokens, the repeated
// 16-gram rate is at least 0.65, or the repeated 32-gram rate is at least
// 0.30, or a suffix unit of 4-32 tokens repeats three times at the very end,
// or (the softer joint test) rep16 >= 0.50 while the type-token ratio is at
// most 0.16. The retry fires only for a surface loop that makes no
// mathematical progress in its last 1600 characters (no equation, formula,
// assignment or number-in-context there that the prefix did not already
// hold), has no boxed answer yet, and is not shorter than 0.8C tokens (such
// a trace ended before the checkpoint it is judged at).
//
// Everything here is a pure function of its arguments, so the control
// pipeline and the `datg loop detect` CLI get identical answers, and every
// statistic is reported even when a guard suppresses the trigger, so a
// suppressed loop can still be audited.
package loop
