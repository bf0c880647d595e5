package mathverify

import "strings"

// A plain number: a text that is only an ASCII integer or decimal, "-"
// before it or not (a gold answer most often is). Math-Verify's parse
// finds one match in it, the number pattern's, from its first character
// to its last: no LaTeX pattern can begin (no "$", "\", "answer" or " ["),
// the expression pattern needs an operator after a digit, and the number
// pattern's alternatives before the one that matches need a "," or " "
// between digits. extract_expr then reads the number from the pattern's
// groups. extractAnswer gives that result without running the patterns;
// TestPlainNumbersExtractAsBefore and FuzzPlainNumbersExtractAsBefore
// compare it with extract.

// maxPlainNumber bounds the texts taken as plain numbers, in bytes: the
// differential tests cover numbers to this length.
const maxPlainNumber = 100

// extractAnswer is extract(text), without running the patterns where the
// text is a plain number.
func extractAnswer(text string) extraction {
	if ex, ok := extractPlainNumber(text); ok {
		return ex
	}
	return extract(text)
}

// extractPlainNumber is extract(text) where text is a plain number, else
// false.
func extractPlainNumber(text string) (extraction, bool) {
	if len(text) == 0 || len(text) > maxPlainNumber {
		return extraction{}, false
	}
	digits := strings.TrimPrefix(text, "-")
	integer, decimal, hasPoint := strings.Cut(digits, ".")
	if !allASCIIDigits(integer) || (hasPoint && !allASCIIDigits(decimal)) {
		return extraction{}, false
	}
	counted(len(text))
	// As extractExpr: the integer group ("-" included) without its
	// leading zeros, or "0"; the decimal group with its point.
	numStr := strings.TrimLeft(text[:len(text)-len(digits)+len(integer)], "0")
	if numStr == "" {
		numStr = "0"
	}
	if hasPoint {
		numStr += "." + decimal
	}
	v, err := numberFromString(numStr)
	if err != nil {
		return extraction{aborted: true}, true
	}
	return extraction{value: v, valueStr: numStr, where: "number", fallback: numStr, hasFB: true}, true
}

// allASCIIDigits reports whether s is one or more ASCII digits.
func allASCIIDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
