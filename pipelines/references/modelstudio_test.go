package references_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/simulate/simulatetest"
	"github.com/datg/datg/pipelines/references"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
	"github.com/datg/datg/transforms/mathverify"
)

// modelStudio serves the simulator speaking Model Studio's API (under
// /compatible-mode/v1, refusing thinking without streaming) and returns
// it with a target for Qwen3.6-Plus on it.
func modelStudio(t *testing.T, data string) (*simulate.Endpoint, llm.Target) {
	t.Helper()
	c := pipelinetest.SimConfig(t)
	c.Dialect, c.Models = simulate.DialectModelStudio, []string{"qwen3.6-plus"}
	eps, urls := simulatetest.Start(t, data, c)
	target := pipelinetest.Target("qwen3.6-plus", urls[0])
	target.Pool.Server = llm.ServerModelStudio
	return eps[0], target
}

// The paper's references: Qwen3.6-Plus on Model Studio, thinking on. Every
// request is answered (none refused for want of streaming); every attempt
// records the reasoning apart from the answer, the derivation (reasoning)
// and the grader (math-verify); an accepted reference's trace is the
// reasoning, then the answer, which Math-Verify accepts as datg verify
// would; and the trace records the sampling sent.
func TestReferencesFromQwenOnModelStudio(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim, target := modelStudio(t, data)
	cfg := config(data, target)
	cfg.PerProblem, cfg.MaxAttempts, cfg.Levels = 2, 4, []string{"low", "high"}
	sum, err := references.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st := sim.Server.Stats(); st.Requests == 0 || st.Errors != 0 || st.Requests != st.Served {
		t.Fatalf("server stats %+v: some requests were refused", st)
	}
	if sum.Complete != sum.Problems || sum.Accepted != 2*sum.Problems {
		t.Fatalf("summary %+v, want every problem with 2 references", sum)
	}
	problems := englishProblems(t, data, cfg.Levels, 0)
	traces := referenceTraces(t, data)
	for id, rows := range readDerivations(t, data) {
		for _, r := range rows {
			type recorded struct {
				Derivation, Grader, Model string
				Reasoned, Answered        bool
			}
			if diff := cmp.Diff(recorded{"reasoning", "math-verify", "qwen3.6-plus", true, true},
				recorded{r.Derivation, r.Grader, r.Model, r.Reasoning != "", r.Response != ""}); diff != "" {
				t.Fatalf("%s attempt %d (-want +got):\n%s", id, r.Attempt, diff)
			}
			if !r.Accepted {
				checkRejected(t, r)
				continue
			}
			tr := traces[r.TraceID]
			if want := transforms.ThinkOpen + r.Reasoning + transforms.ThinkClose + r.Response; tr.Text != want {
				t.Fatalf("%s: trace text\n%q\nwant the reasoning, then the answer\n%q", r.TraceID, tr.Text, want)
			}
			if v := mathverify.Check(problems[id].Answer, tr.Text); !v.Correct {
				t.Fatalf("%s accepted, but Math-Verify says %+v of its trace", r.TraceID, v)
			}
			if tr.Temperature == nil || *tr.Temperature != cfg.Temperature || tr.TopP == nil || *tr.TopP != cfg.TopP || tr.ServedModel != "qwen3.6-plus" {
				t.Fatalf("%s records temperature %v, top_p %v, served %q", r.TraceID, tr.Temperature, tr.TopP, tr.ServedModel)
			}
		}
	}
}

// --derivation answer makes the answer alone the reference's trace, still
// recording the reasoning the model returned.
func TestReferencesDerivationAnswer(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	_, target := modelStudio(t, data)
	cfg := config(data, target)
	cfg.PerProblem, cfg.MaxAttempts, cfg.Levels, cfg.Limit = 2, 4, []string{"low"}, 2
	cfg.Derivation = study.FromAnswer
	if _, err := references.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	traces := referenceTraces(t, data)
	n := 0
	for _, rows := range readDerivations(t, data) {
		for _, r := range rows {
			if r.Derivation != "answer" || r.Reasoning == "" {
				t.Fatalf("%s attempt %d: derivation %q, reasoning %q", r.ProblemID, r.Attempt, r.Derivation, r.Reasoning)
			}
			if !r.Accepted {
				continue
			}
			n++
			if tr := traces[r.TraceID]; tr.Text != strings.TrimLeft(r.Response, "\n") || strings.Contains(tr.Text, r.Reasoning) {
				t.Fatalf("%s: trace text %q, want the answer alone %q", r.TraceID, tr.Text, r.Response)
			}
		}
	}
	if n != 4 {
		t.Fatalf("%d references, want 4", n)
	}
}

// A reply the budget cut (Model Studio's max_tokens bounds the answer:
// finish_reason length) has no final answer of its own: rejected, with the
// reason length, whatever answer its reasoning last wrote.
func TestReferencesRejectCutReplies(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	_, target := modelStudio(t, data)
	cfg := config(data, target)
	cfg.PerProblem, cfg.MaxAttempts, cfg.Levels, cfg.Limit, cfg.MaxTokens = 1, 2, []string{"low"}, 2, 4
	sum, err := references.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Accepted != 0 || len(sum.Short) != 2 {
		t.Fatalf("summary %+v, want no reference", sum)
	}
	for _, rows := range readDerivations(t, data) {
		for _, r := range rows {
			if r.FinishReason != "length" || r.Reason != references.ReasonLength {
				t.Fatalf("%s attempt %d: finish %s, reason %q", r.ProblemID, r.Attempt, r.FinishReason, r.Reason)
			}
			checkRejected(t, r)
		}
	}
}

// nativeDigits writes a number's ASCII digits as Arabic-Indic ones.
func nativeDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '٠' + (r - '0')
		}
		return r
	}, s)
}

// digitsServer is a chat server over loopback that answers each question
// with a derivation ending in its gold answer, boxed in Arabic-Indic digits
// on the first attempt (seed 1000) and in ASCII ones after.
func digitsServer(t *testing.T, gold map[string]string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string                     `json:"model"`
			Seed     int64                      `json:"seed"`
			Messages []struct{ Content string } `json:"messages"`
		}
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &req); err != nil || len(req.Messages) < 2 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		ans := gold[req.Messages[1].Content]
		if req.Seed == 1000 {
			ans = nativeDigits(ans)
		}
		text := "<think>\nAdding the amounts step by step gives the total.\n</think>\n\nThe answer is $\\boxed{" + ans + "}$."
		json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 50, "completion_tokens": 30, "total_tokens": 80}})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// References are accepted under the paper's answer-verification protocol,
// Math-Verify, which reads a number only in ASCII digits: a derivation
// boxing the gold answer in Arabic-Indic digits is rejected (datg's
// multilingual grader would take it), the next attempt in ASCII digits is
// accepted, and every row records the grader.
func TestReferencesGradedByMathVerify(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	problems := englishProblems(t, data, []string{"low"}, 0)
	gold := map[string]string{}
	for _, p := range problems {
		if strings.Trim(p.Answer, "0123456789") != "" {
			t.Fatalf("gold %q of %s is not a whole number: pick other problems", p.Answer, p.ProblemID)
		}
		gold[p.Question] = p.Answer
	}
	cfg := config(data, pipelinetest.Target("m", digitsServer(t, gold)))
	cfg.PerProblem, cfg.MaxAttempts, cfg.Levels = 1, 2, []string{"low"}
	sum, err := references.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Accepted != len(problems) || sum.Attempts != 2*len(problems) {
		t.Fatalf("summary %+v, want each problem's first attempt rejected and its second accepted", sum)
	}
	for id, rows := range readDerivations(t, data) {
		type row struct {
			Attempt  int32
			Accepted bool
			Reason   string
			Grader   string
		}
		var got []row
		for _, r := range rows {
			got = append(got, row{r.Attempt, r.Accepted, r.Reason, r.Grader})
		}
		want := []row{{0, false, mathverify.ReasonMismatch, "math-verify"}, {1, true, mathverify.ReasonMatch, "math-verify"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s (-want +got):\n%s", id, diff)
		}
	}
}

// The reference request asks what the paper asks of a reference: an
// English derivation with its final answer boxed for the grader, nothing
// that shapes the reasoning (the paper's DAG prompt is written for a raw
// chain of thought, false starts and checks included).
func TestReferencePromptAsksOnlyWhatThePaperAsks(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	rec := &pipelinetest.Recording{Next: pipelinetest.Simulator(t, data, simulate.ContentFaults{}).Server}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	cfg := config(data, pipelinetest.Target(pipelinetest.ReferenceModel, srv.URL+"/v1"))
	cfg.PerProblem, cfg.MaxAttempts, cfg.Levels, cfg.Limit = 1, 1, []string{"low"}, 1
	if _, err := references.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	for _, asked := range []string{"English", `\\boxed{}`} {
		if rec.Containing(asked) != 1 {
			t.Errorf("the request does not ask for %s", asked)
		}
	}
	for _, notAsked := range []string{"detour", "abandon", "repeated check", "name the quantities", "every equation", "simplest"} {
		if n := rec.Containing(notAsked); n != 0 {
			t.Errorf("the request asks %q, which the paper does not", notAsked)
		}
	}
}
