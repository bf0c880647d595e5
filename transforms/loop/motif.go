package loop

import "slices"

// SuffixMotif returns the shortest unit length L in [MinMotif, MaxMotif]
// such that the last L tokens occur MotifRepeats times back to back at the
// very end of tokens, or 0 when there is none. Only the end matters: a loop
// the model has already left is not a reason to abort it.
//
// A shorter period is found through its multiples: a 3-token unit repeated
// six times is reported as L = 6, a 1- or 2-token unit repeated enough as
// L = 4.
func SuffixMotif(tokens []int) int {
	n := len(tokens)
	for L := MinMotif; L <= MaxMotif; L++ {
		if n < MotifRepeats*L {
			break // longer units need even more tokens
		}
		unit := tokens[n-L:]
		ok := true
		for k := 2; k <= MotifRepeats; k++ {
			if !slices.Equal(unit, tokens[n-k*L:n-(k-1)*L]) {
				ok = false
				break
			}
		}
		if ok {
			return L
		}
	}
	return 0
}
