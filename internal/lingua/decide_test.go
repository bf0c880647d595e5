package lingua

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDecideIsTheSoftmax checks decide's shortcut (the best sum wins when
// clear of the second) against lingua-go's softmax in decimals
// (exactDecision) on sums spread over every range lingua-go's exponent
// treats differently (normal, subnormal, decimal, beyond the decimals'
// digits), with the two best close (down to one unit in the last place)
// or equal.
func TestDecideIsTheSoftmax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shortcuts := 0
	tops := []float64{-0.5, -30, -700, -708.3, -708.5, -720, -744.4, -745.1, -745.2, -746.5, -1500, -4000, -19000, -25000, -45000, -52000, -60000}
	for i := range 800 {
		var sums [numLanguages]float64
		set := uint16(rng.IntN(allLanguages + 1))
		if i%2 == 0 {
			set = allLanguages
		}
		top := tops[i%len(tops)] * (1 + rng.Float64()*1e-3)
		for l := range numLanguages {
			switch rng.IntN(4) {
			case 0:
				sums[l] = top - rng.Float64()*50
			case 1:
				sums[l] = top - math.Pow(10, -16+rng.Float64()*14)*math.Abs(top)
			case 2:
				sums[l] = top
				for range rng.IntN(4) {
					sums[l] = math.Nextafter(sums[l], math.Inf(-1))
				}
			default:
				sums[l] = []float64{0, top, 1e-300, -1e-300}[rng.IntN(4)]
			}
		}
		count := 1 + rng.IntN(400)
		got, ambiguous := decide(&sums, set, count)
		var candidates uint16
		for l := range numLanguages {
			if set&(1<<l) != 0 && sums[l] < 0 {
				candidates |= 1 << l
			}
		}
		want := -1
		if candidates != 0 {
			want = exactDecision(&sums, candidates)
		}
		if ambiguous {
			continue
		}
		shortcuts++
		if got != want {
			t.Fatalf("sums %v (set %b, %d trigrams): decide %s, lingua-go's softmax %s", sums, set, count, name(got), name(want))
		}
	}
	t.Logf("%d of %d decided without ambiguity", shortcuts, 800)
}
