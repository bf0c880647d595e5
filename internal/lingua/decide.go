package lingua

import (
	"math"
	"math/bits"

	"github.com/shopspring/decimal"
)

// The bounds of the sums where the best one's softmax is not decided by
// its size alone: from exp's subnormal results (below about -708.4, down to
// about -745.1 where it gives 0 and lingua-go turns to decimals) and where
// lingua-go's decimal exponent loses digits (exp(s/1000) to 25 places).
const (
	subnormalAbove = -746.0
	subnormalBelow = -708.0
	decimalsLimit  = -20000.0
)

// decide returns the language lingua-go's softmax over the trigram sums of
// the languages in set ranks first (-1: Unknown, when none has a sum below
// zero or the two best have equal confidences).
//
// lingua-go computes exp of each sum (as a decimal, with a Taylor series
// and a 1000th power when exp underflows), divides each by their total to
// 16 decimal places, converts to float64 and returns the first unless it
// equals the second. The best sum's confidence is at least 1/12, and when
// the best sum exceeds the second by more than tol the two confidences
// differ by far more than their rounding, so the best sum wins; tol is the
// most by which summing the same terms in another order (lingua-go sums in
// random map order) can move the two sums, plus the rounding of s/1000 in
// the decimal path. Otherwise, or when the best exponent is subnormal (its
// float64 then holds few digits) or beyond the decimals' precision, the
// softmax is computed as lingua-go computes it (exactDecision).
// ambiguous says lingua-go's own answer may differ from run to run.
func decide(sums *[numLanguages]float64, set uint16, count int) (lang int, ambiguous bool) {
	var candidates uint16
	for m := set; m != 0; m &= m - 1 {
		if l := bits.TrailingZeros16(m); sums[l] < 0 {
			candidates |= 1 << l
		}
	}
	switch bits.OnesCount16(candidates) {
	case 0:
		return -1, false
	case 1:
		return bits.TrailingZeros16(candidates), false
	}
	first, second := -1, -1
	for m := candidates; m != 0; m &= m - 1 {
		l := bits.TrailingZeros16(m)
		switch {
		case first < 0 || sums[l] > sums[first]:
			first, second = l, first
		case second < 0 || sums[l] > sums[second]:
			second = l
		}
	}
	s1, s2 := sums[first], sums[second]
	tol := 1e-12 + float64(count+4)*0x1p-52*(-s1-s2)
	clear := s1-s2 > tol
	if clear && s1 > decimalsLimit && (s1 > subnormalBelow || s1 < subnormalAbove) {
		return first, false
	}
	lang = exactDecision(sums, candidates)
	return lang, !clear || lang != first
}

// exactDecision is lingua-go's computeConfidenceValues and
// DetectLanguageOf for the languages of candidates (sums below zero).
func exactDecision(sums *[numLanguages]float64, candidates uint16) int {
	var exps [numLanguages]decimal.Decimal
	total := decimal.Zero
	for m := candidates; m != 0; m &= m - 1 {
		l := bits.TrailingZeros16(m)
		exps[l] = computeExponent(sums[l])
		total = total.Add(exps[l])
	}
	var confidences [numLanguages]float64
	if total.IsZero() {
		// lingua-go: the largest sum gets 1 (a tie is broken at random).
		best := -1
		for m := candidates; m != 0; m &= m - 1 {
			if l := bits.TrailingZeros16(m); best < 0 || sums[l] > sums[best] {
				best = l
			}
		}
		return best
	}
	for m := candidates; m != 0; m &= m - 1 {
		l := bits.TrailingZeros16(m)
		confidences[l], _ = exps[l].Div(total).Float64()
	}
	best, second := -1, -1
	for l, c := range confidences {
		switch {
		case best < 0 || c > confidences[best]:
			best, second = l, best
		case second < 0 || c > confidences[second]:
			second = l
		}
	}
	if confidences[best] == confidences[second] {
		return -1
	}
	return best
}

// computeExponent is lingua-go's: exp(value) as a decimal, through
// exp(value/1000)^1000 when the float64 underflows.
func computeExponent(value float64) decimal.Decimal {
	exponent := math.Exp(value)
	if exponent > 0 {
		return decimal.NewFromFloat(exponent)
	}
	d := decimal.NewFromFloat(value / 1000)
	e, _ := d.ExpTaylor(25)
	return e.Pow(decimal.NewFromInt(1000))
}
