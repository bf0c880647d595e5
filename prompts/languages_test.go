package prompts

import (
	"strings"
	"testing"

	"github.com/datg/datg/study"
)

func TestLanguagesComplete(t *testing.T) {
	want := "en fr ru zh ja ko id ms th bn sw te"
	var got []string
	for _, l := range Languages() {
		got = append(got, l.Code)
		for field, v := range map[string]string{"Name": l.Name, "NativeName": l.NativeName, "System": l.System, "Prefix": l.Prefix} {
			if v == "" {
				t.Errorf("%s: empty %s", l.Code, field)
			}
		}
		if !strings.Contains(l.System, `\boxed{}`) {
			t.Errorf("%s: system message does not ask for \\boxed{}", l.Code)
		}
		if strings.HasPrefix(l.Prefix, "<think>") || strings.HasSuffix(l.Prefix, " ") {
			t.Errorf("%s: prefix %q must not hold <think> or end in a space", l.Code, l.Prefix)
		}
		if !strings.Contains(l.Prefix, "\n") {
			t.Errorf("%s: prefix %q is not sentence, newline, 'First,'", l.Code, l.Prefix)
		}
		switch l.Resource {
		case "HRL", "MRL", "LRL":
		default:
			t.Errorf("%s: resource group %q", l.Code, l.Resource)
		}
	}
	if strings.Join(got, " ") != want {
		t.Fatalf("languages %v, want %s", got, want)
	}
	if _, err := Lookup("xx"); err == nil {
		t.Fatal("unknown language accepted")
	}
}

// TestBuiltinLanguagesAreTheStudys keeps the builtin languages.json, which a
// user copies to write a set of their own, in step with package study: the
// same languages in the same order with the same names and groups.
func TestBuiltinLanguagesAreTheStudys(t *testing.T) {
	got, want := Languages(), study.Languages()
	if len(got) != len(want) {
		t.Fatalf("%d languages, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Code != w.Code {
			t.Errorf("languages[%d]: code %s, want %s", i, g.Code, w.Code)
		}
		if g.Name != w.Name {
			t.Errorf("%s: name %q, want %q", w.Code, g.Name, w.Name)
		}
		if g.NativeName != w.NativeName {
			t.Errorf("%s: native name %q, want %q", w.Code, g.NativeName, w.NativeName)
		}
		if g.Resource != string(w.Resource) {
			t.Errorf("%s: resource %q, want %q", w.Code, g.Resource, w.Resource)
		}
	}
}
