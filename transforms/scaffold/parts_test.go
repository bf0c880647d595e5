package scaffold

import (
	"reflect"
	"testing"
)

// predicateCase is an input and whether a predicate holds for it.
type predicateCase struct {
	in   string
	want bool
}

// checkPredicate checks a predicate on every case.
func checkPredicate(t *testing.T, name string, holds func(string) bool, cases []predicateCase) {
	t.Helper()
	for _, c := range cases {
		if got := holds(c.in); got != c.want {
			t.Errorf("%s(%q) = %v, want %v", name, c.in, got, c.want)
		}
	}
}

func TestIsAnswerLine(t *testing.T) {
	checkPredicate(t, "isAnswerLine", isAnswerLine, []predicateCase{
		{"Final answer: 63", true},
		{"final: 63", true},
		{"  - FINAL = 63", true},
		{"## Answer", true},
		{"**Answer:** 63", true},
		{"Answers: 63, 64", true},
		{"The answer is 63.", true},
		{"The final count is 63", true},
		{"So the answer is 63", true},
		{"Therefore the answer = 63", true},
		{"Ans: 63", true},
		{"ans : 63", true},
		{"Result: 63", true},
		{"**Result**: 63", true},
		{"2) Result: 63", true},
		{"• answer 63", true},
		{"We get the final answer next", true},
		{"- final_answer = total = ?", true},
		{"- result = a * b = ?", false},
		{"- results = ?", false},
		{"- final_total = a * 7 = ?", false},
		{"Finally multiply by days = ?", false},
		{"- answer_total = ?", false},
		{"- remaining_per_day = 16 - 3 - 4 = ?", false},
		{"Known:", false},
		{"Plan:", false},
		{"16 - 3 = ?", false},
		{"1.5 final", false},
		{"", false},
	})
}

func TestIsComputational(t *testing.T) {
	checkPredicate(t, "isComputational", isComputational, []predicateCase{
		{" 16 - 3 - 4 ", true},
		{"16-3", true},
		{" remaining * 7 ", true},
		{" a/b ", true},
		{" 9 × 7 ", true},
		{" 63 ÷ 9 ", true},
		{" 9 · 7 ", true},
		{" x^2 ", true},
		{` \frac{16}{4} `, true},
		{` 9 \cdot 7 `, true},
		{` 9 \times 7 `, true},
		{` 63 \div 9 `, true},
		{" 5 - -3 ", true},
		{" 3 − 8 ", true},
		{" -3 ", false},
		{" −3 ", false},
		{" $-3$ ", false},
		{"- eggs_per_day ", false},
		{"* days ", false},
		{" eggs-per-day ", false},
		{" **days** ", false},
		{" 63 eggs ", false},
		{" ? ", false},
		{"", false},
		{" - ", false},
	})
}

func TestMaskResults(t *testing.T) {
	cases := []struct {
		line, want string
		masked     []string
	}{
		{"- a = 16 - 3 - 4 = 9", "- a = 16 - 3 - 4 = ?", []string{"9"}},
		{"a=16-7=9", "a=16-7=?", []string{"9"}},
		{"9 * 7 = 63 = 63", "9 * 7 = ? = ?", []string{"63", "63"}},
		{"x = 9 * 7", "x = 9 * 7", nil},
		{"t = -3", "t = -3", nil},
		{"x = 2 + 3 = +5", "x = 2 + 3 = ?", []string{"+5"}},
		{"x = 2 - 5 = −3", "x = 2 - 5 = ?", []string{"−3"}},
		{"p = 1 / 4 = 25%", "p = 1 / 4 = ?%", []string{"25"}},
		{"p = 1 / 4 = .25", "p = 1 / 4 = ?", []string{".25"}},
		{"p = 1 / 4 = 0,25", "p = 1 / 4 = ?", []string{"0,25"}},
		{`cost = 3 * 2 = \$6`, `cost = 3 * 2 = \$?`, []string{"6"}},
		{"cost = 3 * 2 = $ 6", "cost = 3 * 2 = $ ?", []string{"6"}},
		// One line is one chain, so a given after a computation on the same
		// line is masked too: over-masking a given costs phase 2 nothing it
		// cannot reread in the problem, a leaked result costs the control.
		{"c = 3 + 4 = 7, d = 2", "c = 3 + 4 = ?, d = ?", []string{"7", "2"}},
		{"y = x + x = 2x", "y = x + x = 2x", nil},
		{"y = 2 + 3 = 5!", "y = 2 + 3 = 5!", nil},
		{"y = 2 + 3 = 63 - 58", "y = 2 + 3 = 63 - 58", nil},
		{"y = 2 + 3 = 63 - 58 = 5", "y = 2 + 3 = 63 - 58 = ?", []string{"5"}},
		{"x + 1 == 3 = 2", "x + 1 == 3 = ?", []string{"2"}},
		{"a = 1 + 1 => 2", "a = 1 + 1 => 2", nil},
		{"a = 1 + 1 = 2 => a * 3 = ?", "a = 1 + 1 = ? => a * 3 = ?", []string{"2"}},
		{"x = 3 + 4 = 7 <= 2 * 4", "x = 3 + 4 = ? <= 2 * 4", []string{"7"}},
		{"x = 3 + 4 = 7 ≤ 2 * 4", "x = 3 + 4 = ? ≤ 2 * 4", []string{"7"}},
		{"x = 3 + 4 = 7 - 1 < 9", "x = 3 + 4 = 7 - 1 < 9", nil},
		{"x := 1 + 1 = 2", "x := 1 + 1 = ?", []string{"2"}},
		{"total = 16 eggs", "total = 16 eggs", nil},
		{"= 1 + 1 = 2", "= 1 + 1 = ?", []string{"2"}},
		{"1 + 1 =", "1 + 1 =", nil},
		{"1 + 1 = ", "1 + 1 = ", nil},
	}
	for _, c := range cases {
		got, masked := maskResults(c.line)
		if got != c.want {
			t.Errorf("maskResults(%q) = %q, want %q", c.line, got, c.want)
		}
		if !reflect.DeepEqual(masked, c.masked) {
			t.Errorf("maskResults(%q) masked %q, want %q", c.line, masked, c.masked)
		}
	}
}
