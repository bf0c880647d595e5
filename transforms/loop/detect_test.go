package loop

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDetectConditions(t *testing.T) {
	// Soft-condition windows: 25 tokens over 4 types (TTR exactly 4/25 =
	// 0.16), 4-periodic for 24 tokens so that 5 of the 10 16-grams repeat
	// (rep16 exactly 0.50), then a token that breaks the period.
	soft := append(periodicThenFresh(4, 24, 0), 1)
	softLowRep := append(periodicThenFresh(4, 23, 0), 0, 1) // 4 of 10 16-grams repeat
	softHighTTR := append(periodicThenFresh(4, 24, 0), 9)   // 5 types: TTR 0.20

	cases := []struct {
		name   string
		tokens []int
		want   Stats // Budget, Checkpoint, Tokens and Reason are filled in below
		reason string
	}{
		{"rep16 exactly 0.65", periodicThenFresh(4, 32, 3),
			Stats{Rep16: 0.65, TTR256: 7.0 / 35, SurfaceLoop: true, Trigger: true}, "loop: rep16 0.65"},
		{"rep16 0.60 below", periodicThenFresh(4, 31, 4),
			Stats{Rep16: 0.6, TTR256: 8.0 / 35}, "no loop"},
		{"rep32 exactly 0.30", periodicThenFresh(4, 65, 66),
			Stats{Rep16: 46.0 / 116, Rep32: 0.30, TTR256: 70.0 / 131, SurfaceLoop: true, Trigger: true}, "loop: rep32 0.30"},
		{"rep32 0.29 below", periodicThenFresh(4, 64, 67),
			Stats{Rep16: 45.0 / 116, Rep32: 0.29, TTR256: 71.0 / 131}, "no loop"},
		{"motif of 4 tokens", freshThenUnit(100, []int{1, 2, 3, 4}, 3),
			Stats{TTR256: 104.0 / 112, Motif: true, MotifLen: 4, SurfaceLoop: true, Trigger: true}, "loop: motif 4"},
		{"motif of 32 tokens", freshThenUnit(160, seq(100, 32), 3),
			Stats{Rep16: 49.0 / 241, Rep32: 33.0 / 225, TTR256: 0.75, Motif: true, MotifLen: 32, SurfaceLoop: true, Trigger: true}, "loop: motif 32"},
		{"unit repeated twice", freshThenUnit(100, []int{1, 2, 3, 4}, 2),
			Stats{TTR256: 104.0 / 108}, "no loop"},
		{"soft: rep16 0.50 and ttr 0.16 exactly", soft,
			Stats{Rep16: 0.5, TTR256: 0.16, SurfaceLoop: true, Trigger: true}, "loop: rep16 0.50 with ttr 0.16"},
		{"soft: rep16 0.40 below", softLowRep,
			Stats{Rep16: 0.4, TTR256: 0.16}, "no loop"},
		{"soft: ttr 0.20 above", softHighTTR,
			Stats{Rep16: 0.5, TTR256: 0.2}, "no loop"},
		{"loop before the window is ignored", append(make([]int, 44), seq(100, 256)...),
			Stats{TTR256: 1}, "no loop"},
		{"empty trace", nil, Stats{}, "no loop"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			want.Budget, want.Checkpoint, want.Tokens = 100, 25, len(c.tokens)
			if len(c.tokens) < 20 {
				want.Short = true // 5n < 4C = 100
			}
			got := Detect(c.tokens, "", 100)
			want.Reason = got.Reason
			if got != want {
				t.Errorf("Detect:\n got %+v\nwant %+v", got, want)
			}
			if !strings.Contains(got.Reason, c.reason) {
				t.Errorf("Reason %q does not contain %q", got.Reason, c.reason)
			}
		})
	}
}

func TestDetectGuards(t *testing.T) {
	cases := []struct {
		name                            string
		tokens                          []int
		text                            string
		budget                          int
		short, boxed, progress, trigger bool
		reason                          string
	}{
		{"0.8C-1 tokens is short", loopTokens(799), "", 4000, true, false, false, false, "short: 799 tokens < 0.8C (C=1000)"},
		{"0.8C tokens is not short", loopTokens(800), "", 4000, false, false, false, true, "loop: "},
		{"boxed answer", loopTokens(1200), swahiliBoxed, 4000, false, true, false, false, "boxed answer"},
		{"boxed with a space", loopTokens(1200), `\boxed 9` + "\n" + swahiliLoop, 4000, false, true, false, false, "boxed answer"},
		{"math progress", loopTokens(1200), swahiliProgress, 4000, false, false, true, false, "math progress"},
		{"plain loop", loopTokens(1200), swahiliLoop, 4000, false, false, false, true, "loop: "},
		{"every guard", loopTokens(30), swahiliBoxed + "x = 42\n", 4000, true, true, true, false, "short: 30 tokens < 0.8C (C=1000); boxed answer; math progress"},
		{"zero budget", loopTokens(30), swahiliLoop, 0, false, false, false, true, "loop: "},
		{"negative budget", loopTokens(30), swahiliLoop, -9, false, false, false, true, "loop: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Detect(c.tokens, c.text, c.budget)
			type loop struct {
				SurfaceLoop, Motif bool
				MotifLen           int
			}
			if diff := cmp.Diff(loop{true, true, 6}, loop{got.SurfaceLoop, got.Motif, got.MotifLen}); diff != "" {
				t.Fatalf("the 6-token loop is not a surface loop with a motif of 6 (-want +got):\n%s", diff)
			}
			if got.Short != c.short || got.Boxed != c.boxed || got.MathProgress != c.progress || got.Trigger != c.trigger {
				t.Errorf("short/boxed/progress/trigger = %v/%v/%v/%v, want %v/%v/%v/%v (%+v)",
					got.Short, got.Boxed, got.MathProgress, got.Trigger, c.short, c.boxed, c.progress, c.trigger, got)
			}
			if wantC := max(c.budget/4, 0); got.Checkpoint != wantC || got.Budget != c.budget {
				t.Errorf("budget/checkpoint = %d/%d, want %d/%d", got.Budget, got.Checkpoint, c.budget, wantC)
			}
			if !strings.HasPrefix(got.Reason, c.reason) {
				t.Errorf("Reason %q does not start with %q", got.Reason, c.reason)
			}
		})
	}
}

// TestStatsJSON pins the field names `datg loop detect` prints.
func TestStatsJSON(t *testing.T) {
	b, err := json.Marshal(Detect(loopTokens(800), swahiliLoop, 4000))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	keys := []string{"budget", "checkpoint", "tokens", "rep16", "rep32", "ttr256", "motif", "motif_len",
		"surface_loop", "math_progress", "boxed", "short", "trigger", "reason"}
	if len(m) != len(keys) {
		t.Errorf("JSON has %d keys, want %d: %s", len(m), len(keys), b)
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, b)
		}
	}
	if m["checkpoint"] != 1000.0 || m["trigger"] != true || m["motif_len"] != 6.0 {
		t.Errorf("unexpected values: %s", b)
	}
}
