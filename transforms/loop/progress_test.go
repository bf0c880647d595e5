package loop

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMathProgress(t *testing.T) {
	thaiLoop := "ไข่เหลือ 16 - 3 - 4 = 9 ฟอง\n" + strings.Repeat("ดังนั้นไข่ที่เหลือคือ 9 ฟอง ", 120)
	cases := []struct {
		name string
		text string
		want bool
	}{
		{"Swahili loop, first occurrence in the prefix", swahiliLoop, false},
		{"Swahili loop at a line end", swahiliLines, false},
		{"Swahili loop read right after a number", swahiliLines + "Mayai yaliyobaki ni 9", false},
		{"Swahili loop read inside an equation", swahiliLines + "16 - 3 - 4 =", false},
		{"new equation in the tail", swahiliProgress, true},
		{"new equation, every number already seen", swahiliLines + "16 - 4 - 3 = 9\n", true},
		{"new assignment in the tail", swahiliLines + "x = 9 \n", true},
		{"new number in context in the tail", swahiliLines + "Kwa siku 7 mayai.\n", true},
		{"equation repeated from the prefix", swahiliLines + "16 - 3 - 4 = 9\n", false},
		{"operator spelling is normalized", "9 × 7 = 63.\n" + swahiliLines + "9*7=63\n", false},
		{"case and spacing are normalized", "X = 5\n" + swahiliLines + "x=5\n", false},
		{"short text with math, empty prefix", "Kwanza 16 - 3 - 4 = 9.\n", true},
		{"short text, number only", "Kuna mayai 16 kila siku.\n", true},
		{"tail without math", "Tunaanza: 16 - 3 - 4 = 9.\n" + strings.Repeat("Hatuna hesabu mpya hapa. ", 100), false},
		{"no math at all", "Habari ya asubuhi, tunaanza kufikiri.\n", false},
		{"prose with hyphens", "We re-check the well-known x-axis of a co-op, step-by-step.\n", false},
		{"empty", "", false},
		{"Thai loop", thaiLoop, false},
		{"Thai loop then a new Thai number", thaiLoop + "\nคูณ 7 วัน\n", true},
		{"Chinese text with numbers", "每天剩下9个鸡蛋，7天共63个。\n", true},
		{"LaTeX tail with a new fraction", swahiliLines + "\n\\frac{63}{7} = 9\n", true},
	}
	for _, c := range cases {
		if got := MathProgress(c.text); got != c.want {
			t.Errorf("%s: MathProgress = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestMathProgressBoundary cuts a line that occurs once, inside a number
// a word and an equation, exactly at the tail boundary; the rest of the tail
// is the loop the prefix already holds. The cut piece ("456", "kuu 777",
// "2 + 3 = 16")
// looks new when the tail is read on its own, but the span starts in the
// prefix, so it is not progress.
func TestMathProgressBoundary(t *testing.T) {
	cases := []struct {
		line string
		cut  int // bytes of line before the tail boundary
	}{
		{"Jumla kuu 123456\n", len("Jumla kuu 123")},
		{"Jumlakuu 777\n", len("Jumla")},
		{"Jumla 12 + 3 = 16.\n", len("Jumla 1")},
	}
	loopLine := "Mayai yaliyobaki ni 9.\n"
	prefix := "Kwanza tunahesabu mayai yanayobaki kila siku.\n16 - 3 - 4 = 9.\n" + strings.Repeat(loopLine, 10)
	for _, c := range cases {
		after := ProgressChars - (len(c.line) - c.cut) // tail runes after the line
		k := (after - 1) / len(loopLine)
		rest := strings.Repeat(loopLine, k) + strings.Repeat(" ", after-k*len(loopLine)-1) + "\n"
		text := prefix + c.line + rest
		cut := len(prefix) + c.cut
		if got := tailOffset(text, ProgressChars); got != cut {
			t.Fatalf("%q: tail starts at %d, want %d", c.line, got, cut)
		}
		if !MathProgress(text[cut:]) {
			t.Errorf("%q: the tail read on its own should look like progress", c.line)
		}
		if MathProgress(text) {
			t.Errorf("%q: a span cut by the tail boundary counted as progress", c.line)
		}
	}
}

func TestTailOffset(t *testing.T) {
	if got := tailOffset("abc", 5); got != 0 {
		t.Errorf("short text: %d", got)
	}
	s := strings.Repeat("ฟ", 10) // 3 bytes a rune
	if got := tailOffset(s, 4); got != 18 {
		t.Errorf("runes: tail of 4 starts at byte %d, want 18", got)
	}
	if got := tailOffset("\xff\xffab", 2); got != 2 {
		t.Errorf("invalid bytes count as runes: %d, want 2", got)
	}
	if got := tailOffset(s, 10); got != 0 {
		t.Errorf("exactly n runes: %d", got)
	}
}

func TestNormalize(t *testing.T) {
	cases := map[string]string{
		"16 - 3 - 4 = 9":    "16-3-4=9",
		"9 × 7 · 2 ÷ 3":     "9*7*2/3",
		"X − 1 ≤ Y ≥ Z ≠ 0": "x-1<=y>=z!=0",
		"Mayai\tNI 9":       "mayaini9",
		"\\Frac{A}{b}":      "\\frac{a}{b}",
	}
	for in, want := range cases {
		if got := normalize(in); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// collect runs an extractor and returns its spans, context words joined
// with a space ("ni 9 Mayai"; a formula has none: "x = 5"), and starts.
func collect(extract func(string, emitter), text string) (spans []string, starts []int) {
	extract(text, func(start int, before, core, after string) {
		spans = append(spans, strings.TrimSpace(before+" "+core+" "+after))
		starts = append(starts, start)
	})
	return spans, starts
}

// spanCase is a text and the spans an extractor finds in it.
type spanCase struct {
	text string
	want []string
}

// checkSpans checks the spans extract finds in each case, and that the
// first span it finds in probe starts at byte start.
func checkSpans(t *testing.T, name string, extract func(string, emitter), cases []spanCase, probe string, start int) {
	t.Helper()
	for _, c := range cases {
		got, _ := collect(extract, c.text)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s(%q) = %q, want %q", name, c.text, got, c.want)
		}
	}
	if _, starts := collect(extract, probe); !slices.Equal(starts, []int{start}) {
		t.Errorf("%s(%q): start offsets %v, want [%d]", name, probe, starts, start)
	}
}

func TestFormulaSpans(t *testing.T) {
	checkSpans(t, "formulaSpans", formulaSpans, []spanCase{
		{"16 - 3 - 4 = 9.\n", []string{"16 - 3 - 4 = 9"}},
		{"Kwa siku 7:\n9 \\times 7 = 63.\n", []string{`9 \times 7 = 63`}},
		{"x = 5 na y = 6.\n", []string{"x = 5", "y = 6"}},
		{"Hivyo, x = 5, y = 6.\n", []string{"x = 5, y = 6"}},
		{"a_1 + a_2\n", []string{"a_1 + a_2"}},
		{"\\frac{3}{4}\n", []string{`\frac{3}{4}`}},
		{"3 \\cdot 4\n", []string{`3 \cdot 4`}},
		{"sin x + cos y = 1\n", []string{"sin x + cos y = 1"}},
		{"3 ≤ x ≤ 7 na 2π\n", []string{"3 ≤ x ≤ 7"}},
		{"eneo ni πr^2 tu\n", []string{"πr^2"}},
		{"re-check the well-known x-axis\n", nil},
		{"Mayai yaliyobaki ni 9.\n", nil},
		{"\\boxed{63}\n", nil},
		{"-5\n", nil},
		{"x = 5", nil},    // may continue: "x = 5" + "0"
		{"x = 5 Ma", nil}, // the word may be "max"
		{"x = 5 Mayai ", []string{"x = 5"}},
		{"16 - 3 -\n4 = 9\n", []string{"16 - 3 -", "4 = 9"}}, // formulas do not cross lines
	}, "Hivyo, x = 5.\n", len("Hivyo, "))
}

func TestNumberSpans(t *testing.T) {
	checkSpans(t, "numberSpans", numberSpans, []spanCase{
		{"Mayai yaliyobaki ni 9. Mayai\n", []string{"ni 9 Mayai"}},
		{"16 - 3 - 4 = 9.\n", []string{"16", "3", "4", "9"}},
		{"Jumla ni 1,000.50 shilingi\n", []string{"ni 1,000.50 shilingi"}},
		{"ni 9.\nMayai\n", []string{"ni 9"}},
		{"ไข่เหลือ 9 ฟอง\n", []string{"ไข่เหลือ 9 ฟอง"}},
		{"剩下9个鸡蛋。\n", []string{"剩下 9 个鸡蛋"}},
		{"మిగిలినవి ౯ గుడ్లు\n", []string{"మిగిలినవి ౯ గుడ్లు"}},
		{"a_1 = 2\n", []string{"a 1", "2"}},
		{"ni 9", nil},      // the number may grow
		{"ni 9. May", nil}, // the next word may grow
		{"hakuna namba\n", nil},
	}, "Mayai ni 9 tu\n", len("Mayai "))
}

// TestMathProgressLarge keeps the guard linear: a 60 KB trace of short
// numbers and long punctuation runs must be handled quickly and correctly.
func TestMathProgressLarge(t *testing.T) {
	text := strings.Repeat("1"+strings.Repeat("!", 500)+"\n", 120)
	if utf8.RuneCountInString(text) < 60000 {
		t.Fatal("text too small")
	}
	if MathProgress(text) {
		t.Error("a repeated line is not progress")
	}
}
