package transforms

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRenderQwen3(t *testing.T) {
	c := Conversation{System: "Solve.", User: "1+1?", Prefix: "Nitaanza.\nKwanza,"}
	got := RenderQwen3(c)
	want := "<|im_start|>system\nSolve.<|im_end|>\n<|im_start|>user\n1+1?<|im_end|>\n<|im_start|>assistant\n<think>\nNitaanza.\nKwanza,"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	type parts struct {
		System, User, Assistant string
		OK                      bool
	}
	sys, user, asst, ok := ParseQwen3(got)
	if diff := cmp.Diff(parts{c.System, c.User, c.AssistantStart(), true}, parts{sys, user, asst, ok}); diff != "" {
		t.Fatalf("ParseQwen3 (-want +got):\n%s", diff)
	}
	if _, _, _, ok := ParseQwen3("plain text"); ok {
		t.Fatal("plain text parsed as a Qwen3 prompt")
	}
}

func TestTraceIDStable(t *testing.T) {
	k := TraceKey{"Qwen/Qwen3-4B", "en", "sw", "low", "low-3", 42, "base"}
	a, b := TraceID(k), TraceID(k)
	k.Seed = 215
	if a != b {
		t.Fatalf("one key gave ids %s and %s", a, b)
	}
	if a == TraceID(k) {
		t.Fatalf("another seed gave the same id %s", a)
	}
	if len(a) != 17 {
		t.Fatalf("id %s of %d characters, want 17", a, len(a))
	}
	lvl, n, err := ParseProblemID("medium-12")
	if err != nil {
		t.Fatalf("ParseProblemID(medium-12): %v", err)
	}
	type parsed struct {
		Level string
		K     int
	}
	if diff := cmp.Diff(parsed{"medium", 12}, parsed{lvl, n}); diff != "" {
		t.Fatalf("ParseProblemID(medium-12) (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"medium", "x-1", "low--1", "low-a"} {
		if _, _, err := ParseProblemID(bad); err == nil {
			t.Errorf("ParseProblemID(%q) accepted", bad)
		}
	}
}
