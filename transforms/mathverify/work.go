package mathverify

// workUnits counts the work of extraction, when a test points it at a
// counter (it is nil otherwise): pattern-matching steps, and the runes
// read by the passes over matched text (normalization, the lexer, box
// contents). Tests compare it on texts of n and 4n runes to check that
// extraction stays linear in the text, which a timed assertion could not.
var workUnits *int

// counted adds n units of work to the count, if one is kept.
func counted(n int) {
	if workUnits != nil {
		*workUnits += n
	}
}
