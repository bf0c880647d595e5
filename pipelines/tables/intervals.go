package tables

// Intervals are shown in one compact form in every table: the value, then
// its 95% interval in brackets with the value's own decimals
// (52.8 [48.4, 57.1]; .469 [.45, .49]). The paper's tables show them with
// datg tables --ci; the tables beyond the paper always.

// layoutOpts are what a run asks of every layout.
type layoutOpts struct {
	// CI adds each cell's 95% interval (Wilson for proportions, bootstrap
	// for DATG means) where the query computes one, and n where the
	// caption cannot say it once.
	CI bool
}

// interval appends "[lo, hi]" to a cell formatted by format, when both
// bounds are numbers; a cell without a value ("--") stays as it is.
func interval(cell string, lo, hi any, format func(any) string) string {
	if cell == "--" || !isNumber(lo) || !isNumber(hi) {
		return cell
	}
	return cell + " [" + format(lo) + ", " + format(hi) + "]"
}

func isNumber(v any) bool {
	switch v.(type) {
	case float64, int64:
		return true
	}
	return false
}

// pct formats a percentage with d decimals; fracOf a score without its
// leading zero (.469), as the paper does.
func pct(d int) func(any) string    { return func(v any) string { return fixedN(v, d) } }
func fracOf(d int) func(any) string { return func(v any) string { return frac(v, d) } }
