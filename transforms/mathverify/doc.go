// Package mathverify grades a generation against a gold answer the way
// Hugging Face's Math-Verify does with its default options:
// verify(parse(gold), parse(prediction)), both parsed with
// [LatexExtractionConfig(), ExprExtractionConfig()], fallback_mode
// "first_match", extraction_mode "any_match", and verify with
// float_rounding=6, numeric_precision=15, strict=True,
// allow_set_relation_comp=False. It is the grader the paper used (§3.4);
// datg's own multilingual grader (transforms/answer) is independent of it.
//
// No sympy here: extraction, LaTeX normalization and the LaTeX grammar are
// re-implemented, and sympy's equality is replaced by exact rational
// arithmetic plus numeric identity testing.
//
// # Rules, and where in Math-Verify each comes from
//
// Extraction (math_verify/parser.py: lazy_latex_regex, lazy_expr_regex,
// make_latex_env_pattern, extract_target_from_pred, extract_latex,
// extract_expr; reproduced in extract.go over a matcher, pattern.go and
// vm.go, that follows Python's re semantics including lookbehind,
// lookahead and lazy repetition, on code points and Unicode \d and \s,
// in work linear in the text):
//
//   - Patterns carry priorities; lower goes first: 0 "final answer is X.
//     I hope"; 50 "final answer ... is X", a $…$/\[…\]/\(…\) holding
//     \boxed{…}, and the bare \boxed{…} (first box to the last closing
//     brace); 100 "answer: X"; 200 "answer ... X"; 300 any $$…$$, \[…\],
//     $…$, \(…\), " […] ", \frac{n}{m}, and plain expressions and numbers
//     preceded by start, a space or "=". Only English anchors exist.
//   - Within a priority, all matches of LaTeX and expression patterns are
//     tried from the one ending last (ties: the one starting first); the
//     first that parses wins, else the next priority. A LaTeX match that
//     fails to parse blocks plain numbers overlapping it.
//   - parse() also keeps the string of the first match tried; verify
//     compares those strings too (equal non-empty strings match), which is
//     how a gold that parses only to a string can still match.
//   - Up to five LaTeX environments joined by ",", "and" or "or" make one
//     set when all parse.
//   - One sentence-ending "." or "," written inside the delimiters
//     ("$\frac{1}{3}.$", "\[(1,2).\]") is dropped before normalization; an
//     ellipsis and the spacing commands \, and \. are kept (the
//     trailing-punctuation regression cases of Math-Verify's test_all.py).
//   - Numbers: thousands separated by "," or " " (1,234,567 and 1 234),
//     a decimal comma ("1,22" is 1.22) and a leading "." in plain text;
//     currency signs before a number; % / percent / pct make a percent. A
//     number written in non-ASCII digits makes sympy's Number() raise and
//     parse() return nothing.
//   - Plain expressions (digits, spaces and + - * / ^ ( )) are read as
//     Python arithmetic (sympy parse_expr); × ÷ or juxtaposition fail.
//
// Normalization (latex2sympy2_extended/math_normalization.py:
// normalize_latex with basic_latex, units, malformed_operators, nits on;
// normalize.go):
//
//   - \boxed / \fbox contents: "all" joins every box with commas; the bare
//     \boxed pattern uses "last": the last box, plus earlier ones under 10
//     characters away, or under 70 with a separator and other content.
//   - \left \right dropped; \mathrm{th}, \!, empty \text{}, $ and quotes
//     removed; \dfrac \tfrac \cfrac → \frac; \textbf \textnormal … →
//     \text; {,} → ","; " and " / " or " → ","; percent words → %;
//     infinity/inf → \infty; \ldots dropped.
//   - A trailing \text{…} / \mbox{…} (with ^2) and trailing unit words
//     (the library's list) are removed; a leading "." gets a 0; "0.5" is
//     \frac{1}{2}; \frac12, \sqrt2, ^(…), sqrt(…) and a/b fixed.
//
// Parsing (latex2sympy2_extended/PS.g4 and latex2sympy2.py; lexer.go,
// parser.go): the grammar's tokens with longest match; "=" chains into
// And(a=b, b=c); ":" divides; \approx keeps the right side after a lone
// symbol; "2 \frac{1}{2}" is a mixed number (so "2 3" is 5); a letter
// followed by (atom) is a function call; (a,b) with a < b is an open
// interval, with b ≤ a a tuple; x \in S and x = 1, 2 are equations with a
// set; a bare comma list is a set, "0,65" included, while 1,000 (groups of
// three) is a number; \pm makes both values; symbols are lowercased; e is
// Euler's number, \pi pi, I the imaginary unit; log without a base is
// base 10; a failed parse is retried on the last side of a chain of
// equations (get_last_eq).
//
// Comparison (math_verify/grader.py: verify, sympy_expr_eq,
// sympy_compare_relational, sympy_compare_sets,
// sympy_deep_compare_set_and_tuple, sympy_numeric_eq, sympy_symbolic_eq,
// sympy_compare_symbols; compare.go):
//
//   - An assignment (symbols = value, or a chain) keeps its first left and
//     last right side. A predicted equation against a non-equation gold
//     becomes its last right side; a gold assignment against a
//     non-equation prediction becomes its value.
//   - Relations: same relation with equal lhs - rhs, or the inverse
//     relation with opposite differences; equations over the same symbols
//     with proportional sides (standing in for solve); chains compare link
//     by link. ≠ has no inverse and fails otherwise.
//   - A gold relation against a predicted set becomes the set it allows
//     (as_set, relset.go): "-3 < x < 5" equals (-3, 5), "|x| >= 1" equals
//     (-oo, -1] ∪ [1, oo), "0 < f(x) < 1" equals (0, 1). A predicted
//     relation against a gold set is not converted
//     (allow_set_relation_comp=False).
//   - Sets and tuples: a scalar is a one-element set; intervals compare
//     ends and openness; sets compare as sets (unions of intervals by
//     their points), else element-wise: numeric elements after sorting by
//     value, symbolic ones each with an equal counterpart; a tuple keeps
//     its order; an open interval equals a 2-tuple or 2-set.
//   - A symbol against an expression compares only by name (strict mode).
//   - Numbers: when one side is a number and one side a decimal (float),
//     both are rounded to 6 decimal places, half to even (Expr.round), and
//     compared; the other side may be any closed form, so sqrt(2) equals
//     1.414214 and 2 pi equals 6.283185. Otherwise values must be equal
//     (exactly for rationals, to 1e-10 relative for irrational ones, at
//     sample points when symbols are free). Matrices compare entry-wise
//     after their sums and products are carried out.
//   - Percent: a percentage is its value over 100 (convert_to_pct), so
//     25% equals 0.25 and a predicted 25% does not equal a gold 25. A gold
//     percentage also accepts its bare number: gold 28% matches 28, as
//     test_all.py's test_percent_notation requires, while gold 0.28 or
//     28/100 against 28 stays wrong.
//   - Any comparison that would raise in sympy counts as unequal.
//
// # Verdicts
//
// Reason is "match", "mismatch", "no-answer" (parse(prediction) found
// nothing) or "gold-unparsed" (parse(gold) gave no value; the strings may
// still match, which Math-Verify counts as correct). Where names the
// pattern that supplied the prediction: boxed, latex-final-answer,
// latex-answer, latex, expr-final-answer, expr-answer, expr, number, or
// string when only the fallback string exists.
//
// # Known divergences
//
//   - sympy's simplify is replaced by numeric identity testing at fixed
//     points: identities sympy cannot prove count as equal here, and two
//     irrational values within 1e-10 relative of each other are equal.
//   - Math-Verify's 5-second timeouts are replaced by bounds on work.
//     Matching is linear in the text (vm.go: Python's backtracking order,
//     with the positions from which the rest of a pattern cannot match
//     remembered), so a long or hostile trace is read to the end where
//     Math-Verify's backtracking regexes may time out and extract nothing;
//     a step budget proportional to the text stays as a backstop no text
//     reaches. Exact arithmetic is bounded (2^16 bits, factorials to
//     3000!, sums of 20,000 terms); beyond it a check is unequal, where
//     sympy might still finish.
//   - The gold-percent and trailing-punctuation rules come from
//     Math-Verify's newest regression cases (test_all.py), whose grader
//     source is not public; they are reproduced from the cases. Math-Verify
//     0.8.0's grader (read) compares 28% with 28 as unequal and fails on
//     "$\frac{1}{3}.$".
//   - Boxes under 10 characters apart join (latex2sympy2_extended 1.10.2+
//     extract_boxed_content), so "$$\boxed{20}$$ \boxed{143}" reads as
//     20,143 = 20143; an older regression case (test_open_thoughts.py)
//     expects 143. The source rule is kept.
//   - Mixed numbers in plain text ("4 4/9" = 40/9), added to Math-Verify's
//     expression extraction after 0.8.0, are not read: "4 4/9" gives 4,
//     as the published parser does.
//   - Set elements that do not evaluate to numbers pair with any equal
//     counterpart; sympy orders them by the structure of their terms
//     (default_sort_key), which pairs equal elements written alike and may
//     misalign ones written differently.
//   - as_set is reproduced for relations piecewise linear in one unknown
//     (a*x + c*|x| + b against 0, rational coefficients); other relations
//     against a set stay relations and compare unequal.
//   - ANTLR's full-context prediction is approximated by trying grammar
//     alternatives in order; odd inputs may parse differently.
//   - Integrals, limits, derivatives, norms, evaluation bars and matrix
//     operators (rank, eigenvalues, …) are not parsed (the match fails),
//     where latex2sympy builds sympy objects for them.
//   - Solving equations is approximated by proportional sides over the
//     same symbols; inequalities compare only directly or flipped.
//
// # Malformed golds
//
// Math-Verify is followed even where it is clearly wrong: a plain gold
// like "n^2 - n + 1" (no $) is read as the number 1 (the last anchored
// number), "\frac{k}{k+1}" or "e" as nothing, and "$b \geq $-\frac{2}{3}$"
// as -2/3. Golds that yield no value grade as gold-unparsed.
//
// Cost: Math-Verify runs sympy per check (milliseconds, with 5-second
// timeouts); BenchmarkCheckNumeric, BenchmarkCheckLatex and
// BenchmarkCheckTrace measure this package.
package mathverify
