package loop

import (
	"slices"
)

const (
	Window             = 256   // tokens inspected at the checkpoint
	ProgressChars      = 1600  // characters of tail the math-progress guard reads
	MinMotif, MaxMotif = 4, 32 // suffix unit lengths, in tokens
	MotifRepeats       = 3     // consecutive repeats that make a motif
)

// Thresholds of the surface-loop test (paper appendix "Loop-Retry Trigger
// and Example", app:loop-retry; it is appendix I.1 in the compiled paper).
const (
	Rep16Loop = 0.65
	Rep32Loop = 0.30
	Rep16Soft = 0.50
	TTRSoft   = 0.16
)

// Stats is everything Detect computed. The JSON tags are the output contract
// of `datg loop detect`.
type Stats struct {
	Budget       int     `json:"budget"`
	Checkpoint   int     `json:"checkpoint"` // C = budget/4 (integer division)
	Tokens       int     `json:"tokens"`     // len(tokens) of the partial trace
	Rep16        float64 `json:"rep16"`
	Rep32        float64 `json:"rep32"`
	TTR256       float64 `json:"ttr256"`
	Motif        bool    `json:"motif"`
	MotifLen     int     `json:"motif_len"` // the shortest unit length found, 0 when none
	SurfaceLoop  bool    `json:"surface_loop"`
	MathProgress bool    `json:"math_progress"`
	Boxed        bool    `json:"boxed"` // the text already holds \boxed{
	Short        bool    `json:"short"` // fewer than 0.8C tokens
	Trigger      bool    `json:"trigger"`
	Reason       string  `json:"reason"` // one short human phrase
}

// RepRate is the repeated n-gram rate of the paper:
// sum over distinct n-grams g of max(0, count(g)-1), over the number N of
// n-grams observed in window. It is 0 when the window holds no n-gram
// (N <= 0) and for n < 1, where the rate is meaningless.
//
// The sum equals N minus the number of distinct n-grams, which is what is
// counted. The division is done on the two integers so an exact ratio such
// as 13/20 compares equal to the literal threshold 0.65.
func RepRate(window []int, n int) float64 {
	if n < 1 {
		return 0
	}
	N := len(window) - n + 1
	if N <= 0 {
		return 0
	}
	return float64(N-distinctGrams(window, n)) / float64(N)
}

// gram is one n-gram of a window: its hash and where it starts.
type gram struct {
	h  uint64
	at int
}

// distinctGrams counts the distinct n-grams of w (len(w) >= n >= 1).
// N-grams are hashed with a rolling polynomial hash and sorted by hash;
// n-grams sharing a hash are then compared token by token, so a hash
// collision can never merge two different n-grams: the count is exact.
// This is O(N log N) and, for windows of up to Window tokens, allocation
// free.
func distinctGrams(w []int, n int) int {
	N := len(w) - n + 1
	var buf [Window]gram
	grams := buf[:0]
	if N > len(buf) {
		grams = make([]gram, 0, N)
	}
	const base = 0x100000001b3 // odd, so multiplication by it is invertible mod 2^64
	pow := uint64(1)           // base^(n-1)
	for range n - 1 {
		pow *= base
	}
	var h uint64
	for i := range n {
		h = h*base + mix(w[i])
	}
	grams = append(grams, gram{h, 0})
	for i := 1; i < N; i++ {
		h = (h-mix(w[i-1])*pow)*base + mix(w[i+n-1])
		grams = append(grams, gram{h, i})
	}
	slices.SortFunc(grams, func(a, b gram) int {
		switch {
		case a.h < b.h:
			return -1
		case a.h > b.h:
			return 1
		}
		return a.at - b.at
	})

	distinct := 0
	var repBuf [8]int // representatives of the distinct n-grams in one hash group
	for lo := 0; lo < len(grams); {
		hi := lo + 1
		for hi < len(grams) && grams[hi].h == grams[lo].h {
			hi++
		}
		reps := repBuf[:0]
		for _, g := range grams[lo:hi] {
			seen := false
			for _, r := range reps {
				if slices.Equal(w[r:r+n], w[g.at:g.at+n]) {
					seen = true
					break
				}
			}
			if !seen {
				reps = append(reps, g.at)
			}
		}
		distinct += len(reps)
		lo = hi
	}
	return distinct
}

// mix spreads a token id over 64 bits (splitmix64 finaliser) so that small,
// structured ids do not make the polynomial hash collide systematically.
func mix(t int) uint64 {
	x := uint64(t) + 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// TTR is the type-token ratio: distinct tokens over len(window), 0 for an
// empty window. The paper divides by 256 because its window always holds
// 256 tokens at the checkpoint; dividing by the window length gives the same
// value there and keeps the ratio meaningful (within [0,1] and comparable to
// TTRSoft) for a partial trace shorter than the window.
func TTR(window []int) float64 {
	if len(window) == 0 {
		return 0
	}
	var buf [Window]int
	s := buf[:0]
	if len(window) > len(buf) {
		s = make([]int, 0, len(window))
	}
	s = append(s, window...)
	slices.Sort(s)
	return float64(len(slices.Compact(s))) / float64(len(window))
}
