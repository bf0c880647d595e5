package datg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/datg/datg/transforms/answer"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// sameAsAnswer checks that a side readSimpleSide reads reads as answer
// reads it.
func sameAsAnswer(t *testing.T, s string) bool {
	t.Helper()
	f, ok := readSimpleSide(s)
	if !ok {
		return false
	}
	v, vok := answer.Evaluate(s)
	if !vok {
		v = math.NaN()
	}
	want := partFacts{text: s, val: v, nums: answer.Numbers(s), vars: answer.Variables(s), haveVal: true, haveNums: true, haveVars: true}
	if diff := cmp.Diff(want, f, cmp.AllowUnexported(partFacts{}), cmpopts.EquateNaNs(), cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("side %q (-answer +fast):\n%s", s, diff)
	}
	return true
}

func TestSimpleSidesAgreeWithAnswer(t *testing.T) {
	read := 0
	for _, s := range []string{
		"0", "7", "42", "007", "0 + 5", "0 - 5", "5 - 9", "72 - 57", "6 \\times 12", "6 \\cdot 12", "6 × 12", "6 * 12",
		"999999999999999", "9999999999999999", "99999999 \\times 99999999", "94906265 \\times 94906265", "94906267 \\times 94906265",
		"1.5", "1,000", "1,000 + 2", "3 + 4.5", "3 +4", "3+4", "3 + 4 + 5", "3 + x", "x", "3 / 4", "3 \\div 4", "-3", "3 - -4", "3  + 4", "3 + 4 ",
		"12a", "3 + 4a", "0 \\times 0", "1e5", "٣ + ٤",
	} {
		if sameAsAnswer(t, s) {
			read++
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ops := []string{" + ", " - ", ` \times `, ` \cdot `, " × ", " * ", "+", " / ", ", "}
	num := func() string {
		switch rng.IntN(4) {
		case 0:
			return fmt.Sprint(rng.IntN(10))
		case 1:
			return fmt.Sprint(rng.Int64N(1 << 53))
		case 2:
			return fmt.Sprint(rng.IntN(1000))
		}
		return fmt.Sprint(rng.Int64N(1e8))
	}
	for i := 0; i < 20000; i++ {
		s := num()
		if rng.IntN(4) > 0 {
			s += ops[rng.IntN(len(ops))] + num()
		}
		if sameAsAnswer(t, s) {
			read++
		}
	}
	if read < 5000 {
		t.Fatalf("only %d sides read the fast way", read)
	}
}

func FuzzSimpleSide(f *testing.F) {
	for _, s := range []string{"42", "72 - 57", "6 \\times 12", "0 - 5", "1,000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) < 64 {
			sameAsAnswer(t, s)
		}
	})
}
