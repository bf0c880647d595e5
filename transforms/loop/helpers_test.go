package loop

import "strings"

// periodicThenFresh is p-periodic tokens (j mod p) for the first periodic
// tokens, then fresh tokens that occur nowhere else. Every n-gram inside
// the periodic part repeats one of p distinct n-grams; every n-gram touching
// the fresh part is unique, and the fresh end rules out a motif. So
// rep_n = (periodic-n+1-p) / (len-n+1) when periodic-n+1 >= p.
func periodicThenFresh(p, periodic, fresh int) []int {
	t := make([]int, 0, periodic+fresh)
	for j := range periodic {
		t = append(t, j%p)
	}
	for j := range fresh {
		t = append(t, 1000+j)
	}
	return t
}

// freshThenUnit is fresh distinct tokens followed by unit repeated reps
// times.
func freshThenUnit(fresh int, unit []int, reps int) []int {
	t := make([]int, 0, fresh+reps*len(unit))
	for j := range fresh {
		t = append(t, 5000+j)
	}
	for range reps {
		t = append(t, unit...)
	}
	return t
}

// seq returns the tokens from..from+n-1.
func seq(from, n int) []int {
	t := make([]int, n)
	for j := range t {
		t[j] = from + j
	}
	return t
}

// loopTokens is n tokens of a 6-token unit, as a model stuck on one
// sentence produces.
func loopTokens(n int) []int {
	t := make([]int, n)
	for j := range t {
		t[j] = 7 + j%6
	}
	return t
}

// swahiliLines is the paper's Trial 1 continuation: one derivation, then
// the same sentence over and over, two to a line (about 3.5 KB, so the first
// occurrences lie in the prefix of the math-progress guard).
var swahiliLines = "Kwanza tunahesabu mayai yanayobaki kila siku.\n16 - 3 - 4 = 9.\n" +
	strings.Repeat("Mayai yaliyobaki ni 9. Mayai yaliyobaki ni 9.\n", 75)

// swahiliLoop is swahiliLines read at a checkpoint that fell mid-word.
var swahiliLoop = swahiliLines + "Mayai yaliyobaki ni 9. Mayai yali"

// swahiliProgress continues the derivation after the loop instead of
// repeating it (Trial 2 of the paper).
var swahiliProgress = swahiliLines + "Kwa siku 7:\n9 \\times 7 = 63.\n"

// swahiliBoxed states the answer first and then loops.
var swahiliBoxed = "\\boxed{9}\n" + swahiliLoop
