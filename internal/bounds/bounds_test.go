package bounds

import (
	"errors"
	"math"
	"testing"
)

func TestRanges(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	cases := []struct {
		name string
		err  error
		ok   bool
	}{
		{"budget 1", Budget(1), true},
		{"budget 2^20", Budget(MaxBudget), true},
		{"budget 0", Budget(0), false},
		{"budget 2^20+1", Budget(MaxBudget + 1), false},
		{"budget 3e9", Budget(3_000_000_000), false},
		{"count 0", TokenCount(0), true},
		{"count max", TokenCount(MaxTokenCount), true},
		{"count -1", TokenCount(-1), false},
		{"count 3e9", TokenCount(3_000_000_000), false},
		{"seed 0", Seed(0), true},
		{"seed 2^53-1", Seed(MaxSeed), true},
		{"seed 2^53", Seed(MaxSeed + 1), false},
		{"seed -1", Seed(-1), false},
		{"temperature 0", Temperature(0), true},
		{"temperature 0.6", Temperature(0.6), true},
		{"temperature 2", Temperature(2), true},
		{"temperature 2.01", Temperature(2.01), false},
		{"temperature -0.1", Temperature(-0.1), false},
		{"temperature 1e300", Temperature(1e300), false},
		{"temperature inf", Temperature(inf), false},
		{"temperature nan", Temperature(nan), false},
		{"top_p 1", TopP(1), true},
		{"top_p 0.95", TopP(0.95), true},
		{"top_p 0", TopP(0), false},
		{"top_p -5", TopP(-5), false},
		{"top_p 1.5", TopP(1.5), false},
		{"top_p nan", TopP(nan), false},
		{"top_k -1", TopK(-1), true},
		{"top_k 0", TopK(0), false},
		{"top_k 20", TopK(20), true},
		{"top_k -2", TopK(-2), false},
		{"penalty 1", RepetitionPenalty(1), true},
		{"penalty 1.13", RepetitionPenalty(1.13), true},
		{"penalty 0", RepetitionPenalty(0), false},
		{"penalty -1", RepetitionPenalty(-1), false},
		{"penalty inf", RepetitionPenalty(inf), false},
		{"penalty nan", RepetitionPenalty(nan), false},
	}
	for _, c := range cases {
		if c.ok && c.err != nil {
			t.Errorf("%s: %v, want it in range", c.name, c.err)
		}
		if !c.ok && !errors.Is(c.err, ErrOutOfRange) {
			t.Errorf("%s: %v, want ErrOutOfRange", c.name, c.err)
		}
	}
}
