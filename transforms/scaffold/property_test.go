package scaffold

import (
	"strings"
	"testing"
)

var kinds = map[string]bool{
	kindAfterClose: true, kindNestedOpen: true, kindBoxed: true, kindAnswerLine: true, kindResult: true,
}

// checkInvariants holds for every input: the clean body is free of what the
// appendix forbids, Sanitize is idempotent, and the record is well formed.
func checkInvariants(t *testing.T, body, clean string, removed []Removal) {
	t.Helper()
	for _, bad := range []string{`\boxed`, Close, thinkClose, openTag} {
		if strings.Contains(clean, bad) {
			t.Errorf("clean %q contains %q", clean, bad)
		}
	}
	for _, l := range strings.Split(clean, "\n") {
		if isAnswerLine(strings.TrimSuffix(l, "\r")) {
			t.Errorf("clean %q keeps answer line %q", clean, l)
		}
	}
	if len(clean) > len(body) {
		t.Errorf("clean %q is longer than the body %q", clean, body)
	}
	if clean != "" && isBlank(clean[strings.LastIndexByte(clean, '\n')+1:]) {
		t.Errorf("clean %q ends with a blank line", clean)
	}
	if removed != nil && len(removed) == 0 {
		t.Errorf("removed is empty but not nil")
	}
	lines := strings.Count(body, "\n") + 1
	for i, r := range removed {
		if !kinds[r.Kind] {
			t.Errorf("removal %d has unknown kind %q", i, r.Kind)
		}
		if r.Line < 1 || r.Line > lines {
			t.Errorf("removal %d line %d outside 1..%d", i, r.Line, lines)
		}
		if i > 0 && r.Line < removed[i-1].Line {
			t.Errorf("removals out of input order: %+v", removed)
		}
		if r.Kind == kindResult {
			_, _, number := resultNumber(r.Text)
			_, _, closed := closedForm(r.Text)
			if !number && !closed || strings.ContainsAny(r.Text, "?") {
				t.Errorf("result removal %q is not a number or a closed-form value", r.Text)
			}
		}
		if r.Text == "" {
			t.Errorf("removal %d of kind %s has no text", i, r.Kind)
		}
	}
	again, removedAgain := Sanitize(clean)
	if again != clean {
		t.Errorf("not idempotent: Sanitize(%q) = %q", clean, again)
	}
	if removedAgain != nil {
		t.Errorf("not idempotent: Sanitize(%q) removed %+v again", clean, removedAgain)
	}
	if b := Block(clean); !strings.HasPrefix(b, "<execution_state>\n") || !strings.HasSuffix(b, "</execution_state>\n") {
		t.Errorf("Block(%q) = %q", clean, b)
	}
}

// TestProperties runs the invariants over combinations of realistic scaffold
// lines, including every kind of leak, in every order of three.
func TestProperties(t *testing.T) {
	parts := []string{
		"Known:", "- eggs_per_day = 16", "- t = -3", "Plan:",
		"- remaining_per_day = 16 - 3 - 4 = ?", "- remaining_per_day = 16 - 3 - 4 = 9",
		"- total = remaining * 7 = 63 eggs", `- per_box = \frac{16}{4} = 4`,
		"- x + 2 <= 5", "Final answer: 63", "**Answer:** 63", `\boxed{63}`,
		"</execution_state>", "</think>", "<execution_state>", "", "  ", "9 * 7 = 63 = 63",
		"- a = 3\r", "Result: 63", "- result = a * b = ?",
	}
	n := 0
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				for _, sep := range []string{"\n", "\r\n", ""} {
					body := a + sep + b + sep + c
					clean, removed := Sanitize(body)
					checkInvariants(t, body, clean, removed)
					n++
				}
			}
		}
	}
	if t.Failed() {
		t.Logf("checked %d bodies", n)
	}
}

func FuzzSanitize(f *testing.F) {
	f.Add(janet)
	f.Add("Known:\n- a = 2\n- b = 16 - 3 - 4 = 9\nFinal answer: 63\n</execution_state>\n\\boxed{63}")
	f.Add("Known:\r\n- x <= 5\r\n<execution_state>\r\n- 9 * 7 = 63 = 63 eggs\r\n</think>")
	f.Fuzz(func(t *testing.T, body string) {
		clean, removed := Sanitize(body)
		checkInvariants(t, body, clean, removed)
	})
}
