package scaffold

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
var janetClean = strings.TrimSuffix(janet, "\n")

func TestSanitize(t *testing.T) {
	plan := "Known:\n- eggs_per_day = 16\nPlan:\n- remaining_per_day = 16 - 3 - 4 = ?"
	type sanitizeCase struct {
		name    string
		body    string
		clean   string
		removed []Removal
	}
	// leak is the plan followed by text that must go.
	leak := func(name, tail string, removed ...Removal) sanitizeCase {
		return sanitizeCase{name, plan + tail, plan, removed}
	}
	// kept is a body Sanitize leaves as it is.
	kept := func(name, body string) sanitizeCase { return sanitizeCase{name, body, body, nil} }
	// masked is a body whose one computed result, at line, becomes "?".
	masked := func(name, body, clean, result string, line int) sanitizeCase {
		return sanitizeCase{name, body, clean, []Removal{{kindResult, result, line}}}
	}
	cases := []sanitizeCase{
		{"paper example unchanged", janet, janetClean, nil},
		kept("empty", ""),
		{"only blank", "\n \n\t\n", "", nil},
		leak("final answer leaked", "\nFinal answer: 63\n", Removal{kindAnswerLine, "Final answer: 63", 5}),
		leak("bold answer label", "\n- **Answer:** 63", Removal{kindAnswerLine, "- **Answer:** 63", 5}),
		leak("final answer mid-line", "\nSo 63 is the final answer.", Removal{kindAnswerLine, "So 63 is the final answer.", 5}),
		leak("numbered result label", "\n3. Result: 63 eggs", Removal{kindAnswerLine, "3. Result: 63 eggs", 5}),
		kept("result as a plan variable is kept", "Known:\n- a = 9\n- b = 7\nPlan:\n- result = a * b = ?"),
		kept("final_total identifier is kept", "Plan:\n- final_total = remaining_per_day * 7 = ?"),
		leak("boxed", "\n\\boxed{63}\n", Removal{kindBoxed, `\boxed{63}`, 5}),
		leak("boxed inside a plan line", "\n- total = 9 * 7 = \\boxed{63}", Removal{kindBoxed, `- total = 9 * 7 = \boxed{63}`, 5}),
		leak("server ignored the stop string", "\n</execution_state>\nKwanza tunahesabu: 16 - 3 - 4 = 9.\n", Removal{kindAfterClose, "</execution_state>\nKwanza tunahesabu: 16 - 3 - 4 = 9.\n", 5}),
		leak("echoed stop string alone is not a removal", "\n</execution_state>\n"),
		leak("closing tag mid-line", "</execution_state>Kisha", Removal{kindAfterClose, "</execution_state>Kisha", 4}),
		leak("think closed and answered", "\n</think>\n\\boxed{63}", Removal{kindAfterClose, "</think>\n\\boxed{63}", 5}),
		leak("think before execution_state close", "\n</think>\nx</execution_state>\ny", Removal{kindAfterClose, "</think>\nx</execution_state>\ny", 5}),
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
		masked("computed result masked", "Plan:\n- remaining_per_day = 16 - 3 - 4 = 9", "Plan:\n- remaining_per_day = 16 - 3 - 4 = ?", "9", 2),
		{"chain masks every result",
			"Plan:\n- 9 * 7 = 63 = 63",
			"Plan:\n- 9 * 7 = ? = ?",
			[]Removal{{kindResult, "63", 2}, {kindResult, "63", 2}}},
		masked("unit word after a result", "Plan:\n- total = remaining * 7 = 63 eggs", "Plan:\n- total = remaining * 7 = ? eggs", "63", 2),
		masked("result with full stop and thousands separator", "Plan:\n- cost = 1200 + 34.5 = 1,234.5.", "Plan:\n- cost = 1200 + 34.5 = ?.", "1,234.5", 2),
		masked("dollar-delimited result", `Plan: $9 \times 7 = 63$`, `Plan: $9 \times 7 = ?$`, "63", 1),
		masked("negative result", "- d = 3 - 8 = -5", "- d = 3 - 8 = ?", "-5", 1),
		masked("latex fraction", `- per_box = \frac{16}{4} = 4`, `- per_box = \frac{16}{4} = ?`, "4", 1),
		masked("result after an arrow", "- remaining: 16 - 3 - 4 → 9 eggs", "- remaining: 16 - 3 - 4 → ? eggs", "9", 1),
		masked("closed-form result", `- total = q1 + q2 = 2\sqrt{2}`, `- total = q1 + q2 = ?`, `2\sqrt{2}`, 1),
		masked("fraction result in dollars", `- p = 3 / 8 + 3 / 8 = $\frac{3}{4}$.`, `- p = 3 / 8 + 3 / 8 = $?$.`, `\frac{3}{4}`, 1),
		kept("substituted computation kept", `- s4 = a + 2b = \sqrt{2} + 2 \times \frac{\sqrt{2}}{2} = ?`),
		kept("closed form with a variable kept", `- r = 2 * 4 = \sqrt{x}`),
		kept("skeleton without result kept", "- x = 9 * 7"),
		kept("given quantity kept", "- eggs_per_day = 16"),
		kept("negative given kept", "- t = -3"),
		kept("hyphenated name is not a subtraction", "- eggs-per-day = 16"),
		kept("inequalities are not split", "- x + 2 <= 5\n- y * 3 >= 6\n- a + b != 7"),
		kept("double equals is one relation", "- check 9 * 7 == 63"),
		masked("inequality then equation", "- x <= 2 + 3 = 5", "- x <= 2 + 3 = ?", "5", 1),
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
			if diff := cmp.Diff(c.removed, removed); diff != "" {
				t.Errorf("removed (-want +got):\n%s", diff)
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
