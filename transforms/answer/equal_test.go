package answer

import "testing"

func TestEqual(t *testing.T) {
	cases := []struct {
		gold, pred string
		want       bool
	}{
		// numbers, separators, units, currency, percent
		{"18", "18", true},
		{"18", `\$18`, true},
		{"18", "18 dollars", true},
		{"18", `18 \text{ dollars}`, true},
		{"18", "$18.00", true},
		{"18", "19", false},
		{"18", "-18", false},
		{"-3", "−3", true},
		{"18", "১৮", true},
		{"18", "１８", true},
		{"18", "๑๘", true},
		{"70000", "70,000", true},
		{"70000", "70 000", true},
		{"7425000", `7{,}425{,}000`, true},
		{"1000", `1\,000`, true},
		{"3.5", "3,5", true},
		{"0.65", `\frac{13}{20}`, true},
		{"50", `50\%`, true},
		{"0.5", `50\%`, true},
		{"45", `45^\circ`, true},
		{"45", `45°`, true},
		{"30", `30^{\circ}`, true},
		{"18", "18.", true},
		{"18", "x = 18", true},
		{"5", `\text{5 cm}^2`, true},
		{`$\frac{3}{4}$`, `\frac{3}{4}\text{ cm}^2`, true},
		{"25", `25\text{ km/h}`, true},
		{"1500000", "Rp1.500.000", true},
		{"3.5", "3,50 €", true},
		{`$\frac{1}{9}$`, `0.\overline{1}`, true},
		{`$\frac{1}{6}$`, `0.1\overline{6}`, true},
		// fractions and mixed numbers
		{`$\frac{1}{9}$`, `\dfrac{1}{9}`, true},
		{`$\frac{1}{9}$`, `1/9`, true},
		{`$\frac{1}{9}$`, `\frac19`, true},
		{`$\frac{1}{9}$`, `0.111`, false},
		{`$\frac{1}{3}$`, `0.333333`, true},
		{`$\frac{1}{3}$`, `0.33`, false},
		{`$\frac{5}{2}$`, `2\frac{1}{2}`, true},
		{`$\frac{5}{2}$`, `2 1/2`, true},
		{`$-\frac{1}{2}$`, `\frac{-1}{2}`, true},
		{`$-\frac{1}{2}$`, `\frac{1}{2}`, false},
		// roots, pi, e, logs, trig
		{`$2\sqrt{2}$`, `\sqrt{8}`, true},
		{`$2\sqrt{2}$`, `2.828427`, true},
		{`$2\sqrt{2}$`, `2.83`, false},
		{`$\frac{\sqrt{3}}{2}$`, `\sin\frac{\pi}{3}`, true},
		{`$\frac{1}{2}$`, `\cos 60^\circ`, true},
		{`$\frac{1}{2}$`, `\cos 60`, false}, // radians
		{`$\frac{\pi}{3}$`, `60^\circ`, false},
		{`$e-1$`, `e - 1`, true},
		{`$\ln2$`, `\ln 2`, true},
		{`$\ln2$`, `\log_2 e`, false},
		{`2`, `\sqrt[3]{8}`, true},
		{`$2^{99} - 1$`, `2^{99}-1`, true},
		{`$2^{99} - 1$`, `2^{99}+1`, false},
		{`$\frac{2^{98}}{99!}$`, `2^{98}/99!`, true},
		// expressions in variables
		{`$\frac{(n-1)^3(n+2)}{4}$`, `(n+2)(n-1)^3/4`, true},
		{`$\frac{(n-1)^3(n+2)}{4}$`, `(n+1)(n-1)^3/4`, false},
		{`$2n(n-1)$`, `2n^2-2n`, true},
		{`$m(n-1)$`, `mn - m`, true},
		{`$m(n-1)$`, `mn - n`, false},
		{`$\frac{r}{2(r+1)}$`, `\frac{r}{2r+2}`, true},
		{`$2^n + 2\cdot(-1)^n$`, `2^n+2(-1)^n`, true},
		{`$2^n + 2\cdot(-1)^n$`, `2^n-2(-1)^n`, false},
		{`$\left \lfloor \frac{2p+1}{3} \right \rfloor$`, `\lfloor (2p+1)/3 \rfloor`, true},
		{`$x / 4-\left(x \cos ^{2} x\right) / 2+(\cos x \sin x) / 4 + C$`, `\frac{x}{4} - \frac{x\cos^2 x}{2} + \frac{\sin 2x}{8}`, true},
		{`$\sum_{n=0}^{\infty} (n+1)(n+2) x^{n}$`, `\frac{2}{(1-x)^3}`, true},
		{`$\frac{4\pi}{5} \sum_{i=1}^{6}a_i$`, `\frac{4\pi(a_1+a_2+a_3+a_4+a_5+a_6)}{5}`, true},
		// equations and assignments
		{`$\frac{x^{2}}{2} - \frac{y^{2}}{4}=1$`, `2x^2 - y^2 = 4`, true},
		{`$\frac{x^{2}}{2} - \frac{y^{2}}{4}=1$`, `x^2 - y^2 = 4`, false},
		{`$\frac{x^{2}}{2} - \frac{y^{2}}{4}=1$`, `\frac{x^{2}}{2} - \frac{y^{2}}{4}`, false},
		{`$k_3 = \frac{23}{12}k_2 - \frac{11}{12}k_1$`, `\frac{23k_2 - 11k_1}{12}`, true},
		{`$\hat{\theta}=\alpha_{0} / \bar{x}$`, `\alpha_0/\bar{x}`, true},
		{"5", "x = 5", true},
		{"5", "5 = x", false},
		// intervals, inequalities, unions
		{`$[2,3)$`, `[2, 3)`, true},
		{`$[2,3)$`, `[2, 3]`, false},
		{`$[2,3)$`, `2 \le x < 3`, true},
		{`$b \geq $-\frac{2}{3}$`, `[-\frac{2}{3}, \infty)`, true},
		{`$b \geq $-\frac{2}{3}$`, `b > -\frac{2}{3}`, false},
		{`$0 < \lambda < 1$`, `(0,1)`, true},
		{`$0 < \lambda < 1$`, `\lambda \in (0, 1)`, true},
		{`$(-\infty, 0)\cup(0,1)\cup(1,+\infty)$`, `(-\infty,0) \cup (0,1) \cup (1, \infty)`, true},
		{`$(-\infty, 0)\cup(0,1)\cup(1,+\infty)$`, `(-\infty,0) \cup (1, \infty)`, false},
		{`$t \in [\frac{3}{2}, 2]$`, `[1.5, 2]`, true},
		{`$(3,6]$`, `(3,6)`, false},
		{`$(3,6]$`, `]3, 6]`, true},
		{`$[2,3)$`, `[2,3[`, true},
		{`$[-1, 5]$`, `[-1; 5]`, true},
		{`$(-\infty, -3] \cup [3, +\infty)$`, `|x| \geq 3`, true},
		{`$(-\infty, -3] \cup [3, +\infty)$`, `x \le -3 \text{ or } x \ge 3`, true},
		{`$(-\infty, 0)\cup(0,1)$`, `x<1 \text{ and } x \neq 0`, true},
		{`$(2, \infty)$`, `\{x \mid x > 2\}`, true},
		{`$(2, \infty)$`, `\{x \mid x \ge 2\}`, false},
		{`$c < a < b$`, `b > a > c`, true},
		{`$c < a < b$`, `a < c < b`, false},
		// sets, lists, tuples
		{`${2, -2, \frac{1}{2}, -\frac{1}{2}}$`, `\{-2, 2, -0.5, 0.5\}`, true},
		{`${2, -2, \frac{1}{2}, -\frac{1}{2}}$`, `\{-2, 2, 0.5\}`, false},
		{`$k=-4,-2,-1,1$`, `-4, -2, -1, 1`, true},
		{`$k=-4,-2,-1,1$`, `1, -1, -2, -4`, true},
		{`$m=3, 9, 11, 33, 99$`, `3, 9, 11, 33`, false},
		{`(1,4,4), (2,4,4), (4,5,6), (4,6,5)`, `(4,6,5), (1,4,4), (2,4,4), (4,5,6)`, true},
		{`(1,4,4), (2,4,4), (4,5,6), (4,6,5)`, `(4,4,1), (2,4,4), (4,5,6), (4,6,5)`, false},
		{`$( -\frac{25}{16}, 6)$`, `(-1.5625, 6)`, true},
		{`$( -\frac{25}{16}, 6)$`, `(6, -\frac{25}{16})`, false},
		{`$P(x)=-1,1$`, `\pm 1`, true},
		{`$\frac{n}{2}; 2n-2$`, `\frac{n}{2}, 2n-2`, true},
		{"2, 3", "x = 2 or x = 3", true},
		{"2, 3", `2 \text{ and } 3`, true},
		{"2, 3", "2", false},
		// matrices
		{`$\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}$`, `\begin{bmatrix}1&2\\3&4\end{bmatrix}`, true},
		{`$\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}$`, `\begin{bmatrix}1&2\\4&3\end{bmatrix}`, false},
		// text answers
		{`$n\equiv 0,1 \pmod{4}$`, `n \equiv 0, 1 \pmod 4`, true},
		{"Yes", "yes", false},
		{`$\frac{1}{23}$`, `\frac{12}{3}`, false},
	}
	for _, c := range cases {
		got, reason := Equal(Parse(c.gold), Parse(c.pred))
		if got != c.want {
			g, p := Parse(c.gold), Parse(c.pred)
			t.Errorf("Equal(%q, %q) = %v (%s), want %v [gold %s %v; pred %s %v]", c.gold, c.pred, got, reason, c.want, g.Kind(), g.Err, p.Kind(), p.Err)
		}
	}
}
