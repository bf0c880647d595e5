package tables

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/datg/datg/study"
)

// The paper's row sets and orders (shared/paper/datg-paper.tex), each
// table's own. A language of the run outside a table's list comes after
// the listed ones, in the study's order, except in Table 1, whose rows are
// a subset by design (the full set is the appendix's datg_full).
var (
	// Table 1 (tab:datg_main): English as the reference row, then two
	// languages of each resource group.
	table1Langs = []string{"en", "fr", "th", "bn", "te", "sw"}
	// The appendix's "Full DATG results" and correctness-stratified tables
	// (tab:app_datg_full, tab:app_datg_correctness_full): pair blocks.
	appendixDATGLangs = []string{"en", "fr", "zh", "ja", "ru", "ko", "id", "ms", "th", "bn", "sw", "te"}
	// The appendix's compliance table (tab:app_cot_compliance).
	complianceLangs = []string{"fr", "ru", "zh", "ja", "th", "sw", "bn", "te", "ko", "id", "ms"}
	// The human evaluation (tab:app_human_eval): the audited languages.
	humanEvalLangs = []string{"fr", "sw", "bn", "te"}
	// Table 3 (tab:control_main): the methods' rows.
	table3Methods = []study.Method{study.ControlBase, study.LoopRetry, study.FormulaRetry}
)

// paperOrder sorts langs as order lists them, then the others in the
// study's order (unknown codes last, as they come).
func paperOrder(langs, order []string) []string {
	rank := func(l string) int {
		if i := slices.Index(order, l); i >= 0 {
			return i
		}
		if i := slices.Index(study.LanguageCodes(), l); i >= 0 {
			return len(order) + i
		}
		return len(order) + len(study.LanguageCodes())
	}
	out := slices.Clone(langs)
	slices.SortStableFunc(out, func(a, b string) int { return rank(a) - rank(b) })
	return out
}

// paperSubset keeps the langs order lists, in its order; when none is
// listed, every lang in the study's order (a run of other languages still
// gets a table).
func paperSubset(langs, order []string) (kept, left []string) {
	for _, l := range order {
		if slices.Contains(langs, l) {
			kept = append(kept, l)
		}
	}
	if len(kept) == 0 {
		return studyOrder(langs), nil
	}
	for _, l := range studyOrder(langs) {
		if !slices.Contains(kept, l) {
			left = append(left, l)
		}
	}
	return kept, left
}

// levelStyle is how a table of the paper names levels.
type levelStyle int

const (
	// levelShort: Low, Med., High (Tables 1 and 3, the compliance table and
	// the correctness-stratified one).
	levelShort levelStyle = iota
	// levelFull: Low, Medium, High (Table 2, datg_full, reference
	// diversity).
	levelFull
	// levelLower: low, medium, high (the direction accuracy table).
	levelLower
)

var levelNames = map[levelStyle]map[study.Level]string{
	levelShort: {study.Low: "Low", study.Medium: "Med.", study.High: "High", study.Top: "Top"},
	levelFull:  {study.Low: "Low", study.Medium: "Medium", study.High: "High", study.Top: "Top"},
	levelLower: {study.Low: "low", study.Medium: "medium", study.High: "high", study.Top: "top"},
}

// levelName is how style names level l; a level outside the study (the
// pooled row's "all") is capitalized.
func (style levelStyle) name(l string) string {
	if name, ok := levelNames[style][study.Level(l)]; ok {
		return name
	}
	if l == "" || style == levelLower {
		return l
	}
	r, n := utf8.DecodeRuneInString(l)
	return string(unicode.ToUpper(r)) + l[n:]
}

// levelLabel names a level as Table 1's columns do (Low, Med., High).
func levelLabel(l string) string { return levelShort.name(l) }
