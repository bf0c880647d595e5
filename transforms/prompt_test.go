package transforms

import "testing"

func TestRenderQwen3(t *testing.T) {
	c := Conversation{System: "Solve.", User: "1+1?", Prefix: "Nitaanza.\nKwanza,"}
	got := RenderQwen3(c)
	want := "<|im_start|>system\nSolve.<|im_end|>\n<|im_start|>user\n1+1?<|im_end|>\n<|im_start|>assistant\n<think>\nNitaanza.\nKwanza,"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	sys, user, asst, ok := ParseQwen3(got)
	if !ok || sys != c.System || user != c.User || asst != c.AssistantStart() {
		t.Fatalf("ParseQwen3 = %q %q %q %v", sys, user, asst, ok)
	}
	if _, _, _, ok := ParseQwen3("plain text"); ok {
		t.Fatal("plain text parsed as a Qwen3 prompt")
	}
}

func TestTraceIDStable(t *testing.T) {
	k := TraceKey{"Qwen/Qwen3-4B", "en", "sw", "low", "low-3", 42, "base"}
	a, b := TraceID(k), TraceID(k)
	k.Seed = 215
	if a != b || a == TraceID(k) || len(a) != 17 {
		t.Fatalf("ids %s %s %s", a, b, TraceID(k))
	}
	if lvl, n, err := ParseProblemID("medium-12"); err != nil || lvl != "medium" || n != 12 {
		t.Fatalf("ParseProblemID = %s %d %v", lvl, n, err)
	}
	for _, bad := range []string{"medium", "x-1", "low--1", "low-a"} {
		if _, _, err := ParseProblemID(bad); err == nil {
			t.Errorf("ParseProblemID(%q) accepted", bad)
		}
	}
}
