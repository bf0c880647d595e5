package texmath

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Anchors of the demo run's DAGs (datg sql "select anchor from nodes")
// and of models' DAGs.
func TestSplitAnchor(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"d(144) = (4 + 1)(2 + 1) = 15", []string{"m:d(144) = (4 + 1)(2 + 1) = 15"}},
		{`a + 2b = \sqrt{2} + 2 \times \frac{\sqrt{2}}{2} = 2\sqrt{2}`, []string{`m:a + 2b = \sqrt{2} + 2 \times \frac{\sqrt{2}}{2} = 2\sqrt{2}`}},
		{`\lfloor (1000 - 4)/7 \rfloor + 1 = 143`, []string{`m:\lfloor (1000 - 4)/7 \rfloor + 1 = 143`}},
		{"F_(F_1) = 3", []string{"m:F_(F_1) = 3"}},
		{"gcd(12, 18) = 6", []string{"m:gcd(12, 18) = 6"}},
		{`\text{total} = 3 \cdot 4`, []string{`m:\text{total} = 3 \cdot 4`}},
		{"total apples = 12", []string{"t:total apples = 12"}},
		{"মোট = 12", []string{"t:মোট = 12"}},
		{"合計 = 12", []string{"t:合計 = 12"}},
		{"x", []string{"t:x"}},
		{"the sum $a+b$ is even", []string{"t:the sum ", "m:a+b", "t: is even"}},
		// TeX among words, without delimiters: the formulas are math.
		{`part 1 = 1 \times 3`, []string{"t:part ", `m:1 = 1 \times 3`}},
		{`the number of boxes is \lceil 900 / 20 \rceil = 45 in all`, []string{"t:the number of boxes is ", `m:\lceil 900 / 20 \rceil = 45`, "t: in all"}},
		{`মোট \frac{1}{2} ভাগ`, []string{"t:মোট ", `m:\frac{1}{2}`, "t: ভাগ"}},
		{`x = 3 then y = 4 \cdot x`, []string{"t:x = 3 then ", `m:y = 4 \cdot x`}},
		{`use \emph{this} word`, []string{`t:use \emph{this} word`}},
		{`total apples = 12 and $5`, []string{"t:total apples = 12 and $5"}},
		{"", []string{}},
	} {
		if diff := cmp.Diff(c.want, pieces(SplitAnchor(c.in))); diff != "" {
			t.Errorf("SplitAnchor(%q) (-want +got):\n%s", c.in, diff)
		}
	}
}
