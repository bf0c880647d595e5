// Package answer is datg's multilingual grader (study.Multilingual,
// --grader multilingual): it grades a model's final answer against a gold answer
// the way a careful human grader would, reading the answer styles of the
// study's 12 languages, with no computer-algebra system that could hang a
// run. It keeps datg's extensions to what the paper's Math-Verify reads
// (decimal commas, digits of any script, answer markers in the 12
// languages, the truncation rule) and settles the other ways the two read
// answers differently (issue 11, kinds 1-7) as described below.
//
// Grading has three steps, each a pure function:
//
//   - Extract finds the final answer in a generation, after the reasoning
//     block, then inside it. (1) The last \boxed{} or \fbox{}; when the
//     gold is a list (or a tuple or point), the boxes just before it
//     joined only by separators (commas, conjunctions of the 12 languages,
//     math delimiters, "x_2 =" labels) are one list answer: "\boxed{2},
//     \boxed{3}" and "$x = \boxed{2}$ et $x = \boxed{3}$" answer {2, 3},
//     but a box the text moved on from ("\boxed{5}. Wait, ...") is not
//     part of it. (2) Else the last final-answer marker in any of the 12
//     languages ("Answer:", "Jibu:", "答案：", "উত্তর:", "Jawapan
//     muktamad:", ...), read for the first value of its sentence: a math
//     expression, or a run of text between prose words, that is more than
//     a name ("The largest $n$ is 34." gives 34; "18 dollars per week for
//     4 weeks" gives 18). (3) Else the last math expression ($…$, $$…$$,
//     \(…\), \[…\], a matrix over lines included) or number, whichever
//     ends last, passing over a name ("34 is the largest value of $n$").
//     Numbers in prose keep their thousands separators (1,234; 1.500.000;
//     1 000) and decimal commas (1,22). After a marker or at the end, math
//     expressions joined only by separators are one answer ("$x = 2$ or $x
//     = 3$": a hedge answers no single gold), and so are numbers when the
//     gold is a list. A trace the token budget cut off with no box has no
//     answer.
//   - Parse reads plain and LaTeX math into a value: numbers (thousands
//     separators, LaTeX thin spaces 11,\!111 and 1{,}000, decimal commas,
//     digits of any script, percent and percent words such as pct, persen,
//     asilimia, процентов, currency and units, also in \text{},
//     \textnormal{}, \mbox{} or \mathrm{}, mixed numbers, degrees),
//     expressions (fractions, roots, powers, pi and e, trigonometric,
//     logarithmic and exponential functions, factorials, binomials, floor
//     and ceiling, finite and convergent infinite sums), equations,
//     relations in LaTeX or plain text (\geq, \ge, >=, \neq, !=, ...) and
//     chains (as intervals), sets, tuples, intervals and their unions,
//     several solutions, and matrices.
//   - Equal compares two values: exact rationals where both are rational,
//     relative tolerance otherwise, identity of expressions in free
//     variables by evaluation at fixed pseudo-random points, and structural
//     comparison of sets, tuples, intervals and matrices. A chain of
//     equations counts by its ends (x = 9 \cdot 2 = 18 is x = 18); an
//     equation against a gold that is not one, by its last side (3 + 15 =
//     18, (p, q) = (3, 2), A^{-1} = M); a gold "names = value" ((p, q) =
//     (3, 2), S_{ABC}:S = 7:32, \frac{NO}{BO} = \frac{3}{4}) by its value
//     against an answer that is not an equation. An inequality is the same
//     rearranged (-x > -1 and x < 1; a > b and a - b > 0) and equals the
//     interval it describes. The gold decides whether order counts: a
//     set's or a list of solutions' elements compare in any order, a
//     tuple's or point's coordinates in the order written, whatever
//     brackets the answer uses. Values are computed with error bounds, in
//     log form beyond the range of floats (approx.go), so a tolerance holds
//     only when the bounds prove it: e^{1000} and e^{1001}, or 100000000!
//     and (10^9)!, differ. Rationals too large to compute compare exactly
//     as products of powers (2^{100000} and 4^{50000}); what the bounds
//     cannot decide (1/0, a pole such as tan(π/2), two unlike huge sums) is
//     not equal, with the reason mismatch-undecided, unless written alike.
//
// What cannot be parsed is compared as normalized text. Every input gets a
// verdict and a reason; nothing panics or runs unbounded (inputs, nesting,
// exponents, sums and the text searched for an answer are bounded), and
// extraction reads a generation in work linear in its length (boxes are
// matched in one pass, gaps read once per level of \text{} nesting, up
// to 8).
package answer
