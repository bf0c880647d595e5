package scaffold

import (
	"reflect"
	"testing"
)

// janet is the scaffold of the paper's concrete Formula-Retry example
// (appendix app:formula-prompt), as the body after "<execution_state>\n"
// with the newline the model writes before the stop string.
const janet = "Known:\n" +
	"- eggs_per_day = 16\n" +
	"- eaten_per_day = 3\n" +
	"- muffins_per_day = 4\n" +
	"- days = 7\n" +
	"\n" +
	"Plan:\n" +
	"- remaining_per_day = 16 - 3 - 4 = ?\n" +
	"- total_remaining = remaining_per_day * 7 = ?\n"

// janetClean is janet after Sanitize: only the trailing newline goes.
const janetClean = "Known:\n" +
	"- eggs_per_day = 16\n" +
	"- eaten_per_day = 3\n" +
	"- muffins_per_day = 4\n" +
	"- days = 7\n" +
	"\n" +
	"Plan:\n" +
	"- remaining_per_day = 16 - 3 - 4 = ?\n" +
	"- total_remaining = remaining_per_day * 7 = ?"

func TestSanitize(t *testing.T) {
	plan := "Known:\n- eggs_per_day = 16\nPlan:\n- remaining_per_day = 16 - 3 - 4 = ?"
	cases := []struct {
		name    string
		body    string
		clean   string
		removed []Removal
	}{
		{"paper example unchanged", janet, janetClean, nil},
		{"empty", "", "", nil},
		{"only blank", "\n \n\t\n", "", nil},
		{"final answer leaked",
			plan + "\nFinal answer: 63\n",
			plan,
			[]Removal{{kindAnswerLine, "Final answer: 63", 5}}},
		{"bold answer label",
			plan + "\n- **Answer:** 63",
			plan,
			[]Removal{{kindAnswerLine, "- **Answer:** 63", 5}}},
		{"final answer mid-line",
			plan + "\nSo 63 is the final answer.",
			plan,
			[]Removal{{kindAnswerLine, "So 63 is the final answer.", 5}}},
		{"numbered result label",
			plan + "\n3. Result: 63 eggs",
			plan,
			[]Removal{{kindAnswerLine, "3. Result: 63 eggs", 5}}},
		{"result as a plan variable is kept",
			"Known:\n- a = 9\n- b = 7\nPlan:\n- result = a * b = ?",
			"Known:\n- a = 9\n- b = 7\nPlan:\n- result = a * b = ?",
			nil},
		{"final_total identifier is kept",
			"Plan:\n- final_total = remaining_per_day * 7 = ?",
			"Plan:\n- final_total = remaining_per_day * 7 = ?",
			nil},
		{"boxed",
			plan + "\n\\boxed{63}\n",
			plan,
			[]Removal{{kindBoxed, `\boxed{63}`, 5}}},
		{"boxed inside a plan line",
			plan + "\n- total = 9 * 7 = \\boxed{63}",
			plan,
			[]Removal{{kindBoxed, `- total = 9 * 7 = \boxed{63}`, 5}}},
		{"server ignored the stop string",
			plan + "\n</execution_state>\nKwanza tunahesabu: 16 - 3 - 4 = 9.\n",
			plan,
			[]Removal{{kindAfterClose, "</execution_state>\nKwanza tunahesabu: 16 - 3 - 4 = 9.\n", 5}}},
		{"echoed stop string alone is not a removal",
			plan + "\n</execution_state>\n",
			plan,
			nil},
		{"closing tag mid-line",
			plan + "</execution_state>Kisha",
			plan,
			[]Removal{{kindAfterClose, "</execution_state>Kisha", 4}}},
		{"think closed and answered",
			plan + "\n</think>\n\\boxed{63}",
			plan,
			[]Removal{{kindAfterClose, "</think>\n\\boxed{63}", 5}}},
		{"think before execution_state close",
			plan + "\n</think>\nx</execution_state>\ny",
			plan,
			[]Removal{{kindAfterClose, "</think>\nx</execution_state>\ny", 5}}},
		{"nested execution_state",
			"Known:\n- a = 2\n<execution_state>\nKnown:\n- b = 3\nPlan:\n- a + b = ?",
			"Known:\n- a = 2\nKnown:\n- b = 3\nPlan:\n- a + b = ?",
			[]Removal{{kindNestedOpen, openTag, 3}}},
		{"nested tag inside text keeps the text",
			"Known:\n- a = 2 <execution_state> b = 3",
			"Known:\n- a = 2  b = 3",
			[]Removal{{kindNestedOpen, openTag, 2}}},
		{"nested tag hiding a closing tag",
			"Known:\n- a = 2\n</execution_<execution_state>state>\nFinal: 5",
			"Known:\n- a = 2",
			[]Removal{{kindNestedOpen, openTag, 3}, {kindAfterClose, "</execution_state>\nFinal: 5", 3}}},
		{"computed result masked",
			"Plan:\n- remaining_per_day = 16 - 3 - 4 = 9",
			"Plan:\n- remaining_per_day = 16 - 3 - 4 = ?",
			[]Removal{{kindResult, "9", 2}}},
		{"chain masks every result",
			"Plan:\n- 9 * 7 = 63 = 63",
			"Plan:\n- 9 * 7 = ? = ?",
			[]Removal{{kindResult, "63", 2}, {kindResult, "63", 2}}},
		{"unit word after a result",
			"Plan:\n- total = remaining * 7 = 63 eggs",
			"Plan:\n- total = remaining * 7 = ? eggs",
			[]Removal{{kindResult, "63", 2}}},
		{"result with full stop and thousands separator",
			"Plan:\n- cost = 1200 + 34.5 = 1,234.5.",
			"Plan:\n- cost = 1200 + 34.5 = ?.",
			[]Removal{{kindResult, "1,234.5", 2}}},
		{"dollar-delimited result",
			`Plan: $9 \times 7 = 63$`,
			`Plan: $9 \times 7 = ?$`,
			[]Removal{{kindResult, "63", 1}}},
		{"negative result",
			"- d = 3 - 8 = -5",
			"- d = 3 - 8 = ?",
			[]Removal{{kindResult, "-5", 1}}},
		{"latex fraction",
			`- per_box = \frac{16}{4} = 4`,
			`- per_box = \frac{16}{4} = ?`,
			[]Removal{{kindResult, "4", 1}}},
		{"result after an arrow",
			"- remaining: 16 - 3 - 4 → 9 eggs",
			"- remaining: 16 - 3 - 4 → ? eggs",
			[]Removal{{kindResult, "9", 1}}},
		{"closed-form result",
			`- total = q1 + q2 = 2\sqrt{2}`,
			`- total = q1 + q2 = ?`,
			[]Removal{{kindResult, `2\sqrt{2}`, 1}}},
		{"fraction result in dollars",
			`- p = 3 / 8 + 3 / 8 = $\frac{3}{4}$.`,
			`- p = 3 / 8 + 3 / 8 = $?$.`,
			[]Removal{{kindResult, `\frac{3}{4}`, 1}}},
		{"substituted computation kept",
			`- s4 = a + 2b = \sqrt{2} + 2 \times \frac{\sqrt{2}}{2} = ?`,
			`- s4 = a + 2b = \sqrt{2} + 2 \times \frac{\sqrt{2}}{2} = ?`,
			nil},
		{"closed form with a variable kept",
			`- r = 2 * 4 = \sqrt{x}`,
			`- r = 2 * 4 = \sqrt{x}`,
			nil},
		{"skeleton without result kept",
			"- x = 9 * 7",
			"- x = 9 * 7",
			nil},
		{"given quantity kept",
			"- eggs_per_day = 16",
			"- eggs_per_day = 16",
			nil},
		{"negative given kept",
			"- t = -3",
			"- t = -3",
			nil},
		{"hyphenated name is not a subtraction",
			"- eggs-per-day = 16",
			"- eggs-per-day = 16",
			nil},
		{"inequalities are not split",
			"- x + 2 <= 5\n- y * 3 >= 6\n- a + b != 7",
			"- x + 2 <= 5\n- y * 3 >= 6\n- a + b != 7",
			nil},
		{"double equals is one relation",
			"- check 9 * 7 == 63",
			"- check 9 * 7 == 63",
			nil},
		{"inequality then equation",
			"- x <= 2 + 3 = 5",
			"- x <= 2 + 3 = ?",
			[]Removal{{kindResult, "5", 1}}},
		{"windows line endings",
			"Known:\r\n- a = 16\r\nPlan:\r\n- b = 16 - 7 = 9\r\nFinal answer: 9\r\n",
			"Known:\r\n- a = 16\r\nPlan:\r\n- b = 16 - 7 = ?",
			[]Removal{{kindResult, "9", 4}, {kindAnswerLine, "Final answer: 9", 5}}},
		{"several rules, removals in input order",
			"Known:\n- a = 3\n- b = 4\nPlan:\n- c = a + b = 7\n- d = c * 9 = 63\nAnswer: 63\n\\boxed{63}\n</execution_state>\nJibu ni 63",
			"Known:\n- a = 3\n- b = 4\nPlan:\n- c = a + b = ?\n- d = c * 9 = ?",
			[]Removal{
				{kindResult, "7", 5},
				{kindResult, "63", 6},
				{kindAnswerLine, "Answer: 63", 7},
				{kindBoxed, `\boxed{63}`, 8},
				{kindAfterClose, "</execution_state>\nJibu ni 63", 9},
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clean, removed := Sanitize(c.body)
			if clean != c.clean {
				t.Errorf("clean = %q, want %q", clean, c.clean)
			}
			if !reflect.DeepEqual(removed, c.removed) {
				t.Errorf("removed = %#v, want %#v", removed, c.removed)
			}
			checkInvariants(t, c.body, clean, removed)
		})
	}
}

func TestBlock(t *testing.T) {
	clean, _ := Sanitize(janet)
	got := Block(clean)
	want := "<execution_state>\n" + janetClean + "\n</execution_state>\n"
	if got != want {
		t.Errorf("Block = %q, want %q", got, want)
	}
	// The phase-1 prefill and the phase-2 block agree on the opening tag and
	// on where the body starts.
	if Open[:len(openTag)+1] != got[:len(openTag)+1] {
		t.Errorf("Open %q and Block %q start differently", Open, got)
	}
	if Open[len(openTag)+1:] != janet[:len("Known:\n-")] {
		t.Errorf("Open %q does not start the body %q", Open, janet)
	}
}
