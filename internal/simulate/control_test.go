package simulate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/datg/datg/prompts"
	"github.com/datg/datg/transforms"
	"github.com/datg/datg/transforms/scaffold"
)

// A generation cut at a checkpoint and continued from its own text is the
// same sample as one generated whole, token for token, whatever the outcome.
func TestContinuationIsTheSameSample(t *testing.T) {
	for _, outcome := range []string{OutcomeLoop, OutcomeCorrect, OutcomeNoAnswer} {
		m := testModel(always(outcome))
		sys, user, asst := swPrompt("Lina saves 15 dollars a week.")
		s := sampling{Model: "Qwen/Qwen3-4B", Seed: 42, Temperature: 0.6, TopP: 0.95, RepetitionPenalty: 1.08, MaxTokens: 4096}
		whole := m.generate(sys, user, asst, s)
		for _, cut := range []int{1, 7, 40} {
			if cut >= len(whole.Tokens) {
				continue
			}
			h := s
			h.MaxTokens = cut
			head := m.generate(sys, user, asst, h)
			if head.FinishReason != "length" || len(head.Tokens) != cut {
				t.Fatalf("%s: a %d-token head: %d tokens, %s", outcome, cut, len(head.Tokens), head.FinishReason)
			}
			r := s
			r.MaxTokens = s.MaxTokens - cut
			tail := m.generate(sys, user, asst+head.Text(), r)
			type sample struct {
				Text, FinishReason string
				Tokens             int
				Correct            bool
			}
			joined := sample{head.Text() + tail.Text(), tail.FinishReason, len(head.Tokens) + len(tail.Tokens), tail.Correct}
			if diff := cmp.Diff(sample{whole.Text(), whole.FinishReason, len(whole.Tokens), whole.Correct}, joined); diff != "" {
				t.Fatalf("%s cut at %d: head+tail differs from the whole sample (-whole +head and tail):\n%s", outcome, cut, diff)
			}
			if tail.Reasoning+tail.Answer != tail.Text() || (whole.Answer != "" && tail.Answer != whole.Answer) {
				t.Fatalf("%s cut at %d: reasoning/answer split %q | %q", outcome, cut, tail.Reasoning, tail.Answer)
			}
		}
	}
}

// Text the model did not write is not continued as its sample: the turn is
// read as a new prompt.
func TestForeignContinuationIsNewSample(t *testing.T) {
	m := testModel(DefaultProfile())
	sys, user, asst := swPrompt("Lina saves 15 dollars a week.")
	s := sampling{Model: "Qwen/Qwen3-4B", Seed: 42, Temperature: 0.6, TopP: 0.95, RepetitionPenalty: 1, MaxTokens: 4096}
	g := m.generate(sys, user, asst+" kitu kingine kabisa", s)
	if len(g.Tokens) == 0 || strings.HasPrefix(g.Text(), m.generate(sys, user, asst, s).Text()) {
		t.Fatal("a foreign prefix was continued as the model's own sample")
	}
}

func TestStopStrings(t *testing.T) {
	g := generation{Reasoning: "a b </x> c", Answer: " d", FinishReason: "length"}
	g.Tokens = tokenize(g.Text())
	type stopped struct{ Text, FinishReason, Tokens string }
	of := func(g generation) stopped { return stopped{g.Text(), g.FinishReason, strings.Join(g.Tokens, "")} }
	if diff := cmp.Diff(stopped{"a b ", "stop", "a b "}, of(g.stopAt([]string{"zz", "</x>"}))); diff != "" {
		t.Fatalf("cut at </x> (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(stopped{g.Text(), "length", ""}, of(g.stopAt(nil)), cmpopts.IgnoreFields(stopped{}, "Tokens")); diff != "" {
		t.Fatalf("no stop changed the generation (-want +got):\n%s", diff)
	}
}

// Phase 1 of Formula-Retry: given quantities and a plan with masked results,
// closed by the tag; at the leak rate, the result given away.
func TestScaffold(t *testing.T) {
	m := testModel(DefaultProfile())
	m.key[normQuestion("Lina saves 15 dollars a week for 7 weeks.")] = problemInfo{Lang: "en", Level: "low", Answer: "105", Steps: []string{"15 \\times 7 = 105"}}
	sw, _ := prompts.Lookup("sw")
	system := prompts.ScaffoldSystem(prompts.ScaffoldInput{Language: sw.Name})
	if lang, ok := scaffoldLanguage(system); !ok {
		t.Fatal("the scaffold system message names no language")
	} else if lang != "sw" {
		t.Fatalf("scaffold system message read as %q, want sw", lang)
	}
	s := sampling{Model: "Qwen/Qwen3-4B", Seed: 42, Temperature: 0.2, TopP: 0.95, RepetitionPenalty: 1.02, MaxTokens: 4096}
	clean := m.scaffold("Lina saves 15 dollars a week for 7 weeks.", "sw", s, ContentFaults{})
	text := clean.stopAt([]string{scaffold.Close}).Text()
	if !strings.Contains(text, "q1 = 15") || !strings.Contains(text, "15 \\times 7 = ?") || strings.Contains(text, "105") {
		t.Fatalf("scaffold %q", text)
	}
	leaky := m.scaffold("Lina saves 15 dollars a week for 7 weeks.", "sw", s, ContentFaults{ScaffoldLeak: 1}).Text()
	if !strings.Contains(leaky, "105") {
		t.Fatalf("a leaking scaffold kept the result: %q", leaky)
	}
	if !strings.Contains(clean.Text(), scaffold.Close+"\n"+sw.Prefix) {
		t.Fatal("without a stop, the scaffold goes on into phase 2")
	}
}

// A plan written beforehand raises accuracy in a weak language.
func TestScaffoldGain(t *testing.T) {
	m := testModel(DefaultProfile())
	sw, _ := prompts.Lookup("sw")
	system := prompts.ScaffoldSystem(prompts.ScaffoldInput{Language: sw.Name})
	plain, planned := 0, 0
	for seed := int64(0); seed < 400; seed++ {
		s := sampling{Model: "Qwen/Qwen3-4B", Seed: seed, Temperature: 0.6, TopP: 0.95, RepetitionPenalty: 1.08, MaxTokens: 4096}
		if m.generate(sw.System, "Lina saves 15 dollars a week.", transforms.ThinkOpen+sw.Prefix, s).Correct {
			plain++
		}
		block := scaffold.Block("Known:\n- q1 = 15\n\nPlan:\n- s1 = 15 * 7 = ?")
		if m.generate(system, "Lina saves 15 dollars a week.", transforms.ThinkOpen+block+sw.Prefix, s).Correct {
			planned++
		}
	}
	if planned < plain+40 {
		t.Fatalf("correct in 400: %d without a plan, %d with one", plain, planned)
	}
}
