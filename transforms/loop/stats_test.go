package loop

import "testing"

func TestRepRate(t *testing.T) {
	cases := []struct {
		name string
		w    []int
		n    int
		want float64
	}{
		{"empty", nil, 16, 0},
		{"shorter than n", seq(0, 15), 16, 0},
		{"one n-gram", seq(0, 16), 16, 0},
		{"all equal", make([]int, 20), 16, 4.0 / 5},
		{"all distinct", seq(0, 100), 16, 0},
		{"unigrams", []int{1, 2, 1, 3, 1, 2}, 1, 3.0 / 6}, // 1 thrice, 2 twice
		{"bigrams", []int{1, 2, 1, 2, 3}, 2, 1.0 / 4},     // 12 21 12 23
		{"13 of 20", periodicThenFresh(4, 32, 3), 16, 0.65},
		{"30 of 100", periodicThenFresh(4, 65, 66), 32, 0.30},
		{"n = 0", seq(0, 5), 0, 0},
		{"larger than the window buffer", make([]int, 1000), 16, 984.0 / 985},
	}
	for _, c := range cases {
		if got := RepRate(c.w, c.n); got != c.want {
			t.Errorf("%s: RepRate = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestTTR(t *testing.T) {
	cases := []struct {
		w    []int
		want float64
	}{
		{nil, 0},
		{[]int{5}, 1},
		{[]int{5, 5, 5, 5}, 0.25},
		{periodicThenFresh(4, 25, 0), 0.16},
		{append(periodicThenFresh(4, 24, 0), 9), 0.2},
		{seq(0, 256), 1},
		{make([]int, 512), 1.0 / 512},
	}
	for _, c := range cases {
		if got := TTR(c.w); got != c.want {
			t.Errorf("TTR(%v) = %v, want %v", c.w, got, c.want)
		}
	}
}

func TestSuffixMotif(t *testing.T) {
	abc := []int{1, 2, 3}
	cases := []struct {
		name   string
		tokens []int
		want   int
	}{
		{"empty", nil, 0},
		{"unit 4 three times", freshThenUnit(10, []int{1, 2, 3, 4}, 3), 4},
		{"unit 4 three times, nothing before", freshThenUnit(0, []int{1, 2, 3, 4}, 3), 4},
		{"unit 4 twice", freshThenUnit(10, []int{1, 2, 3, 4}, 2), 0},
		{"unit 32 three times", freshThenUnit(10, seq(100, 32), 3), 32},
		{"unit 33 three times", freshThenUnit(10, seq(100, 33), 3), 0},
		{"unit 5 three times", freshThenUnit(3, seq(100, 5), 3), 5},
		// A 3-token unit is caught through its multiple 6, which needs 18
		// tokens: 6 repeats are a motif, 5 are not.
		{"unit 3 six times", freshThenUnit(10, abc, 6), 6},
		{"unit 3 five times", freshThenUnit(10, abc, 5), 0},
		{"unit 3 many times", freshThenUnit(10, abc, 40), 6},
		{"unit 2 six times", freshThenUnit(10, []int{1, 2}, 6), 4},
		{"unit 2 five times", freshThenUnit(10, []int{1, 2}, 5), 0},
		{"one token 12 times", make([]int, 12), 4},
		{"one token 11 times", make([]int, 11), 0},
		{"repeat not at the end", append(freshThenUnit(0, seq(1, 4), 5), 99), 0},
		{"unit 4 repeated, unit 8 also qualifies", freshThenUnit(0, seq(1, 4), 6), 4},
	}
	for _, c := range cases {
		if got := SuffixMotif(c.tokens); got != c.want {
			t.Errorf("%s: SuffixMotif = %d, want %d", c.name, got, c.want)
		}
	}
}
