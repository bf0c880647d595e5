package transforms

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/study"
)

func TestReasoningTextAndMath(t *testing.T) {
	text := "<think>\nNitaanza.\nKwanza, tuna $x = 3$ na $$y=4$$ \\(z\\) \\[w\\].\n</think>\n\nJibu \\boxed{7}"
	got := ReasoningText(text, "Nitaanza.\nKwanza,")
	if strings.Contains(got, "Nitaanza") || strings.Contains(got, "Jibu") || !strings.Contains(got, "tuna") {
		t.Fatalf("ReasoningText = %q", got)
	}
	if s := StripMath(got); strings.ContainsAny(s, "xyzw=$") {
		t.Fatalf("StripMath left math: %q", s)
	}
}

func TestSegmentsSpreadAndBound(t *testing.T) {
	text := strings.Repeat("Hii ni sentensi moja ya Kiswahili. ", 1000)
	segs := Segments(text, 200, 10)
	if len(segs) != 10 {
		t.Fatalf("%d segments", len(segs))
	}
	for _, s := range segs {
		if len(s) > 400 || len(s) < 150 {
			t.Fatalf("segment of %d characters", len(s))
		}
	}
}

func TestComply(t *testing.T) {
	cases := []struct {
		requested string
		letters   int
		shares    map[string]float64
		detected  string
		compliant bool
		status    study.ComplianceStatus
	}{
		{"sw", 500, map[string]float64{"sw": 1}, "sw", true, study.ComplianceOK},
		{"sw", 500, map[string]float64{"sw": 0.95, "en": 0.05}, "sw", true, study.ComplianceOK},
		{"sw", 500, map[string]float64{"sw": 0.6, "en": 0.4}, "sw,en", false, study.ComplianceMixed},
		{"sw", 500, map[string]float64{"en": 1}, "en", false, study.ComplianceOK},
		{"ms", 500, map[string]float64{"id": 0.7, "ms": 0.3}, "ms", true, study.ComplianceOK},
		{"id", 500, map[string]float64{"ms": 1}, "id", true, study.ComplianceOK},
		{"fr", 500, map[string]float64{"ms": 1}, "ms", false, study.ComplianceOK},
		{"sw", 0, nil, "", false, study.ComplianceEmpty},
		{"sw", 12, map[string]float64{"sw": 1}, "", false, study.ComplianceTooShort},
		{"sw", 500, map[string]float64{"sw": 0.1, "en": 0.1}, "en,sw", false, study.ComplianceMixed},
	}
	for _, c := range cases {
		det, ok, status := Comply(c.requested, c.letters, c.shares)
		if strings.Join(det, ",") != c.detected || ok != c.compliant || status != c.status {
			t.Errorf("Comply(%s, %d, %v) = %v %v %s; want %s %v %s", c.requested, c.letters, c.shares, det, ok, status, c.detected, c.compliant, c.status)
		}
	}
}

// TextLength counts in letters of an English-like alphabet. The expected
// counts follow Unicode's categories and Hangul decomposition, as Python's
// unicodedata gives them (category L or M; len(normalize("NFD", s)) for
// Hangul).
func TestTextLength(t *testing.T) {
	cases := []struct {
		script, text string
		want         int
	}{
		{"Latin", "abc", 3},
		{"Latin, math and digits", "x = 1, y = 22", 2},
		{"Latin, precomposed", "é", 1},
		{"Cyrillic", "Русский", 7},
		{"Thai: letters only", "ไทย", 3},
		{"Thai: a tone mark (Mn)", "ก่อน", 4},
		{"Lao", "ພາສາລາວ", 7},
		{"Khmer: vowel signs and coeng (Mc, Mn)", "ភាសាខ្មែរ", 9},
		{"Myanmar", "မြန်မာ", 6},
		{"Bengali", "বাংলা", 5},
		{"Telugu", "తెలుగు", 6},
		{"Hangul: two syllables of three jamo", "한국", 6},
		{"Hangul: a syllable of two jamo", "가", 2},
		{"Hangul: a conjoining jamo is one letter", "ᄀ", 1},
		{"Han", "日本", 2 * hanWeight},
		{"Hiragana", "ひらがな", 4 * kanaWeight},
		{"Katakana", "カタカナ", 4 * kanaWeight},
		{"Japanese, mixed", "残りの卵", 2*hanWeight + 2*kanaWeight},
		{"punctuation", "。、！？", 0},
		{"empty", "", 0},
	}
	for _, c := range cases {
		if got := TextLength(c.text); got != c.want {
			t.Errorf("%s: TextLength(%q) = %d, want %d", c.script, c.text, got, c.want)
		}
	}
}

// The same content measures about the same in every language: the demo
// set's questions are one set of problems translated into the 12
// languages. Letters alone give Chinese a third of English.
func TestTextLengthIsFairAcrossScripts(t *testing.T) {
	lengths, letters := map[string]int{}, map[string]int{}
	for _, l := range study.LanguageCodes() {
		for _, level := range []string{"low", "medium", "high"} {
			f, err := os.Open(filepath.Join(testenv.Demo(t), l, level+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				var row struct{ Question string }
				if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
					t.Fatal(err)
				}
				q := StripMath(row.Question)
				lengths[l] += TextLength(q)
				letters[l] += Letters(q)
			}
			f.Close()
		}
	}
	for _, l := range study.LanguageCodes() {
		ratio := float64(lengths[l]) / float64(lengths[study.English])
		t.Logf("%s: %.2f of English (letters: %.2f)", l, ratio, float64(letters[l])/float64(letters[study.English]))
		// The Latin-script languages themselves span 1.1 to 1.4.
		if ratio < 0.9 || ratio > 1.5 {
			t.Errorf("%s measures %.2f of English, want 0.9 to 1.5", l, ratio)
		}
	}
}

// TextLength never counts less than the letters nor more than three per
// character, on any text (invalid UTF-8 included).
func FuzzTextLength(f *testing.F) {
	for _, s := range []string{"abc", "日本語のテキスト", "한국어", "ภาษาไทย", "తెలుగు", "\xff\xfe", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, letters, runes := TextLength(s), Letters(s), utf8.RuneCountInString(s)
		if n < letters || n > hanWeight*runes {
			t.Fatalf("TextLength(%q) = %d: %d letters, %d characters", s, n, letters, runes)
		}
		if l, m, valid := LettersAndLength(s); l != letters || m != n || valid != utf8.ValidString(s) {
			t.Fatalf("LettersAndLength(%q) = %d, %d, %v; Letters, TextLength and utf8.ValidString give %d, %d, %v", s, l, m, valid, letters, n, utf8.ValidString(s))
		}
	})
}
