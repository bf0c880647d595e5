package simulate

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/datg/datg/prompts"
	"github.com/datg/datg/transforms"
	openai "github.com/sashabaranov/go-openai"
)

func testModel(p Profile) *model {
	return &model{profile: p, key: map[string]problemInfo{
		normQuestion("Lina saves 15 dollars a week."): {Lang: "en", Level: "low", Answer: "70"},
		normQuestion("Find x."):                       {Lang: "en", Level: "high", Answer: `$\frac{3}{4}$`},
	}}
}

func swPrompt(question string) (string, string, string) {
	sw, _ := prompts.Lookup("sw")
	return sw.System, question, transforms.ThinkOpen + sw.Prefix
}

func always(outcome string) Profile {
	p := DefaultProfile()
	b := LangBehaviour{Reasoning: 1, Input: 1}
	switch outcome {
	case OutcomeLoop:
		b.Loop = 1
	case OutcomeWrongLanguage:
		b.WrongLanguage = 1
	case OutcomeNoAnswer:
		b.NoAnswer = 1
	case OutcomeWrong:
		b.Reasoning = 0
	}
	p.Languages = map[string]LangBehaviour{"sw": b, "en": b}
	p.LevelAccuracy = map[string]float64{"low": 1, "medium": 1, "high": 1, "top": 1}
	p.ModelSizes = nil
	return p
}

func TestGenerationOutcomes(t *testing.T) {
	samp := sampling{Model: "Qwen/Qwen3-4B", Seed: 42, Temperature: 0.6, TopP: 0.95, RepetitionPenalty: 1, MaxTokens: 2048}
	sw, _ := prompts.Lookup("sw")
	for _, c := range []struct {
		outcome, question, wantBoxed string
	}{
		{OutcomeCorrect, "Lina saves 15 dollars a week.", `\boxed{70}`},
		{OutcomeCorrect, "Find x.", `\boxed{\frac{3}{4}}`},
		{OutcomeWrong, "Lina saves 15 dollars a week.", `\boxed{`},
		{OutcomeNoAnswer, "Lina saves 15 dollars a week.", ""},
		{OutcomeLoop, "Lina saves 15 dollars a week.", ""},
		{OutcomeWrongLanguage, "Lina saves 15 dollars a week.", `\boxed{70}`},
	} {
		t.Run(c.outcome, func(t *testing.T) {
			m := testModel(always(c.outcome))
			if c.outcome == OutcomeWrongLanguage {
				// wrong language, but still right
				p := always(OutcomeCorrect)
				b := p.Languages["sw"]
				b.WrongLanguage = 1
				p.Languages["sw"] = b
				m = testModel(p)
			}
			sys, user, asst := swPrompt(c.question)
			g := m.generate(sys, user, asst, samp)
			if g.Outcome != c.outcome && c.outcome != OutcomeWrongLanguage {
				t.Fatalf("outcome %s, want %s", g.Outcome, c.outcome)
			}
			text := g.Text()
			if strings.Join(g.Tokens, "") != text {
				t.Fatal("tokens do not spell the text")
			}
			if c.wantBoxed != "" && !strings.Contains(g.Answer, c.wantBoxed) {
				t.Fatalf("answer %q lacks %s", g.Answer, c.wantBoxed)
			}
			if c.outcome == OutcomeWrong && strings.Contains(g.Answer, `\boxed{70}`) {
				t.Fatal("a wrong answer equals the gold")
			}
			switch c.outcome {
			case OutcomeLoop:
				if g.FinishReason != "length" || len(g.Tokens) != samp.MaxTokens || !strings.Contains(text, phrases()["sw"].Loop+" "+phrases()["sw"].Loop) {
					t.Fatalf("loop: finish %s, %d tokens", g.FinishReason, len(g.Tokens))
				}
			case OutcomeWrongLanguage:
				if !strings.Contains(text, phrases()["en"].Conclude[:10]) {
					t.Fatalf("wrong-language trace is not in English: %q", text[:80])
				}
			case OutcomeNoAnswer:
				if strings.Contains(text, `\boxed`) || g.FinishReason != "stop" {
					t.Fatal("no-answer trace has an answer or was cut")
				}
			default:
				if !strings.Contains(text, "</think>") || strings.HasPrefix(strings.TrimSpace(text), strings.TrimSuffix(sw.Prefix[strings.Index(sw.Prefix, "\n")+1:], ",")) {
					t.Fatalf("trace %q", text[:60])
				}
			}
		})
	}
}

func TestDeterministicAndSeeded(t *testing.T) {
	m := testModel(DefaultProfile())
	s := sampling{Model: "Qwen/Qwen3-4B", Seed: 42, Temperature: 0.6, TopP: 0.95, RepetitionPenalty: 1, MaxTokens: 4096}
	sys, user, asst := swPrompt("Lina saves 15 dollars a week.")
	a, b := m.generate(sys, user, asst, s), m.generate(sys, user, asst, s)
	if a.Text() != b.Text() {
		t.Fatal("same request, different text")
	}
	differ := false
	for seed := int64(0); seed < 10 && !differ; seed++ {
		s.Seed = seed
		differ = m.generate(sys, user, asst, s).Text() != a.Text()
	}
	if !differ {
		t.Fatal("seeds do not change the sample")
	}
	s.MaxTokens = 10
	if g := m.generate(sys, user, asst, s); len(g.Tokens) != 10 || g.FinishReason != "length" {
		t.Fatalf("budget 10: %d tokens, finish %s", len(g.Tokens), g.FinishReason)
	}
}

func TestReasoningLanguageFromPrefix(t *testing.T) {
	for _, l := range prompts.Languages() {
		if got := reasoningLanguage(l.System, transforms.ThinkOpen+l.Prefix); got != l.Code {
			t.Errorf("prefix of %s read as %s", l.Code, got)
		}
	}
}

func FuzzTokenize(f *testing.F) {
	f.Add("Kwanza, 12+13 = 25 katika swali.")
	f.Add("首先，我们计算 $3 \\times 4$。")
	f.Add("  \n\n trailing  ")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Join(tokenize(s), "") != s {
			t.Fatal("tokens do not spell the input")
		}
	})
}

func startServer(t *testing.T, cfg Config) *Endpoint {
	t.Helper()
	ep, err := serve("", newServer(cfg, testModel(always(OutcomeCorrect))))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ep.Close() })
	return ep
}

func client(url string) *openai.Client {
	c := openai.DefaultConfig("")
	c.BaseURL = url
	return openai.NewClientWithConfig(c)
}

func TestStreamingMatchesPlain(t *testing.T) {
	ep := startServer(t, DefaultConfig())
	sys, user, asst := swPrompt("Lina saves 15 dollars a week.")
	prompt := transforms.RenderQwen3(transforms.Conversation{System: sys, User: user, Prefix: strings.TrimPrefix(asst, transforms.ThinkOpen)})
	ctx := context.Background()
	req := openai.CompletionRequest{Model: "Qwen/Qwen3-4B", Prompt: prompt, MaxTokens: 1024, Temperature: 0.6}
	plain, err := client(ep.URL).CreateCompletion(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	req.Stream = true
	req.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	stream, err := client(ep.URL).CreateCompletionStream(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var b strings.Builder
	usage := 0
	drain(t, stream.Recv, func(chunk openai.CompletionResponse) {
		for _, c := range chunk.Choices {
			b.WriteString(c.Text)
		}
		if chunk.Usage != nil {
			usage = chunk.Usage.CompletionTokens
		}
	})
	if b.String() != plain.Choices[0].Text {
		t.Fatalf("the stream's text (%d chars) differs from the plain reply's (%d chars)", b.Len(), len(plain.Choices[0].Text))
	}
	if usage != plain.Usage.CompletionTokens {
		t.Fatalf("the stream counted %d completion tokens, the plain reply %d", usage, plain.Usage.CompletionTokens)
	}
}

// drain reads a stream to its end, handing each chunk to fn.
func drain[T any](t *testing.T, recv func() (T, error), fn func(T)) {
	t.Helper()
	for {
		chunk, err := recv()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		fn(chunk)
	}
}

func TestChatStreamWithReasoningField(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ReasoningField = true
	ep := startServer(t, cfg)
	sys, user, asst := swPrompt("Lina saves 15 dollars a week.")
	stream, err := client(ep.URL).CreateChatCompletionStream(context.Background(), openai.ChatCompletionRequest{
		Model: "Qwen/Qwen3-8B", MaxTokens: 1024,
		Messages: []openai.ChatCompletionMessage{{Role: "system", Content: sys}, {Role: "user", Content: user}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var reasoning, content strings.Builder
	drain(t, stream.Recv, func(chunk openai.ChatCompletionStreamResponse) {
		for _, c := range chunk.Choices {
			reasoning.WriteString(c.Delta.ReasoningContent)
			content.WriteString(c.Delta.Content)
		}
	})
	_ = asst
	if reasoning.Len() == 0 {
		t.Fatalf("no reasoning streamed (content %q)", content.String())
	}
	if !strings.Contains(content.String(), `\boxed{70}`) {
		t.Fatalf("content %q, want the answer \\boxed{70}", content.String())
	}
}

func TestInjectedFaults(t *testing.T) {
	get := func(cfg Config) (*http.Response, error) {
		ep := startServer(t, cfg)
		body := `{"model": "m", "prompt": "hi", "max_tokens": 5}`
		return http.Post(ep.URL+"/completions", "application/json", strings.NewReader(body))
	}
	cfg := DefaultConfig()
	cfg.Faults = Faults{ErrorRate: 1, ErrorCodes: []int{503}}
	resp, err := get(cfg)
	if err != nil {
		t.Fatalf("error fault: %v", err)
	}
	if resp.StatusCode != 503 {
		t.Fatalf("error fault: status %d, want 503", resp.StatusCode)
	}
	cfg.Faults = Faults{DropRate: 1}
	if resp, err := get(cfg); err == nil {
		_, err = io.ReadAll(resp.Body)
		if err == nil {
			t.Fatal("dropped connection read in full")
		}
	}
	cfg.Faults = Faults{MalformedRate: 1}
	resp, err = get(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || strings.HasSuffix(string(b), "}") {
		t.Fatalf("malformed fault gave %d %q", resp.StatusCode, b)
	}
	cfg.Faults = Faults{Dead: true}
	if _, err := get(cfg); err == nil {
		t.Fatal("dead endpoint answered")
	}
}

func TestMaxSeqsQueues(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxSeqs = 2
	cfg.Latency = 20 * time.Millisecond
	ep := startServer(t, cfg)
	done := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func() {
			_, err := client(ep.URL).CreateCompletion(context.Background(), openai.CompletionRequest{Model: "m", Prompt: "hi", MaxTokens: 5})
			done <- err
		}()
	}
	for i := 0; i < 8; i++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	st := ep.Server.Stats()
	if st.MaxInFlight > 2 {
		t.Fatalf("%d requests generated at once, want at most MaxSeqs (2)", st.MaxInFlight)
	}
	if st.Served != 8 {
		t.Fatalf("%d requests served, want 8", st.Served)
	}
}

func TestConfigValidate(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Faults.ErrorRate = 1.5
	cfg.Faults.ErrorCodes = []int{200}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "200") {
		t.Fatalf("got %v", err)
	}
}

// A profile's native_digits rate makes the model box whole-number answers
// in the language's own digits, which the graders read differently.
func TestNativeDigits(t *testing.T) {
	if got := nativeDigits("18", "bn"); got != "১৮" {
		t.Errorf("bn 18 -> %q", got)
	}
	if got := nativeDigits("305", "te"); got != "౩౦౫" {
		t.Errorf("te 305 -> %q", got)
	}
	for _, keep := range [][2]string{{"18", "sw"}, {"1.5", "bn"}, {`\frac{1}{2}`, "th"}, {"", "bn"}} {
		if got := nativeDigits(keep[0], keep[1]); got != keep[0] {
			t.Errorf("%s %q -> %q, want it unchanged", keep[1], keep[0], got)
		}
	}
	if err := (Profile{Languages: map[string]LangBehaviour{"bn": {NativeDigits: 1.5}}}).Validate(); err == nil {
		t.Error("a native_digits rate of 1.5 was accepted")
	}
}
