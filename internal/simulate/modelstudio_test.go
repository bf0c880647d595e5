package simulate

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/prompts"
)

func modelStudioConfig() Config {
	c := DefaultConfig()
	c.Dialect = DialectModelStudio
	c.Models = []string{"qwen3.6-plus"}
	return c
}

// postTo sends a body to the endpoint's path and returns the status and the
// body of the reply.
func postTo(t *testing.T, url, body string) (int, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

func referenceBody(extra string) string {
	msgs, _ := json.Marshal([]map[string]string{{"role": "system", "content": prompts.ReferenceSystem()}, {"role": "user", "content": "Lina saves 15 dollars a week."}})
	return `{"model":"qwen3.6-plus","messages":` + string(msgs) + extra + `}`
}

// What Model Studio's error codes page says it refuses, the dialect
// refuses, with the documented message in Model Studio's error body: a
// thinking request that is not streamed (thinking asked, or the Qwen3.6
// default), a thinking_budget out of range, a max_tokens out of range, and
// the completions endpoint for a model that is not a Qwen Coder one.
func TestModelStudioRefusesWhatTheDocsSay(t *testing.T) {
	ep := startServer(t, modelStudioConfig())
	if !strings.HasSuffix(ep.URL, "/compatible-mode/v1") {
		t.Fatalf("base URL %s, want Model Studio's /compatible-mode/v1", ep.URL)
	}
	chat := ep.URL + "/chat/completions"
	cases := []struct {
		name, url, body, want string
	}{
		{"thinking not streamed", chat, referenceBody(`,"enable_thinking":true`), "parameter.enable_thinking must be set to false for non-streaming calls"},
		{"default thinking not streamed", chat, referenceBody(``), "parameter.enable_thinking must be set to false for non-streaming calls"},
		{"thinking budget zero", chat, referenceBody(`,"enable_thinking":true,"stream":true,"thinking_budget":0`), "The thinking_budget parameter must be a positive integer and not greater than 81920"},
		{"thinking budget text", chat, referenceBody(`,"enable_thinking":true,"stream":true,"thinking_budget":"a lot"`), "The thinking_budget parameter must be a positive integer"},
		{"max tokens", chat, referenceBody(`,"enable_thinking":false,"max_tokens":100000`), "Range of max_tokens should be [1, 65536]"},
		{"completions", ep.URL + "/completions", `{"model":"qwen3.6-plus","prompt":"2+2="}`, "Qwen Coder"},
	}
	for _, c := range cases {
		status, b := postTo(t, c.url, c.body)
		var e struct {
			Error struct {
				Code, Message, Type string
				Param               any
			}
			RequestID string `json:"request_id"`
		}
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatalf("%s: %s", c.name, b)
		}
		type got struct {
			Status                   int
			Code, Type               string
			HasMessage, HasRequestID bool
		}
		if diff := cmp.Diff(got{400, "invalid_parameter_error", "invalid_request_error", true, true},
			got{status, e.Error.Code, e.Error.Type, strings.Contains(e.Error.Message, c.want), e.RequestID != ""}); diff != "" {
			t.Errorf("%s: %s (-want +got):\n%s", c.name, b, diff)
		}
	}
	if st := ep.Server.Stats(); st.Served != 0 {
		t.Fatalf("%d replies served to refused requests", st.Served)
	}
}

// A thinking request streamed with the usage asked for gets the reasoning
// in reasoning_content deltas, then the answer in content deltas, a
// finish_reason, a last chunk with no choices and the usage (reasoning
// tokens counted), and data: [DONE]; thinking_budget cuts the reasoning
// and max_tokens the answer (finish_reason length).
func TestModelStudioStreamsReasoningThenAnswer(t *testing.T) {
	ep := startServer(t, modelStudioConfig())
	read := func(extra string) (reasoning, content, finish string, usage map[string]any) {
		t.Helper()
		resp, err := http.Post(ep.URL+"/chat/completions", "application/json",
			strings.NewReader(referenceBody(`,"enable_thinking":true,"stream":true,"stream_options":{"include_usage":true}`+extra)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
			t.Fatalf("status %d, content type %q", resp.StatusCode, ct)
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		done, answerStarted := false, false
		for sc.Scan() {
			line, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			if line == "[DONE]" {
				done = true
				continue
			}
			var c struct {
				Choices []struct {
					Delta struct {
						Content          *string `json:"content"`
						ReasoningContent *string `json:"reasoning_content"`
					} `json:"delta"`
					FinishReason *string `json:"finish_reason"`
				} `json:"choices"`
				Usage map[string]any `json:"usage"`
			}
			if err := json.Unmarshal([]byte(line), &c); err != nil {
				t.Fatal(err)
			}
			if c.Usage != nil {
				if len(c.Choices) != 0 {
					t.Fatalf("usage chunk with choices: %s", line)
				}
				usage = c.Usage
			}
			for _, ch := range c.Choices {
				d := ch.Delta
				if d.ReasoningContent != nil && d.Content != nil {
					t.Fatalf("a chunk carries both: %s", line)
				}
				if d.ReasoningContent != nil {
					if answerStarted && *d.ReasoningContent != "" {
						t.Fatalf("reasoning after the answer began: %s", line)
					}
					reasoning += *d.ReasoningContent
				}
				if d.Content != nil {
					answerStarted = answerStarted || *d.Content != ""
					content += *d.Content
				}
				if ch.FinishReason != nil {
					finish = *ch.FinishReason
				}
			}
		}
		if !done {
			t.Fatal("no data: [DONE]")
		}
		return
	}
	reasoning, content, finish, usage := read("")
	if !strings.Contains(reasoning, "Wait") || !strings.HasPrefix(content, "Solution.") || !strings.Contains(content, `\boxed{`) || finish != "stop" {
		t.Fatalf("reasoning %q\nanswer %q\nfinish %s", reasoning, content, finish)
	}
	details, _ := usage["completion_tokens_details"].(map[string]any)
	rt, _ := details["reasoning_tokens"].(float64)
	ct, _ := usage["completion_tokens"].(float64)
	if int(rt) != len(tokenize(reasoning)) || int(ct) != len(tokenize(reasoning))+len(tokenize(content)) {
		t.Fatalf("usage %v for %d reasoning and %d answer tokens", usage, len(tokenize(reasoning)), len(tokenize(content)))
	}

	cutReasoning, _, _, _ := read(`,"thinking_budget":5`)
	if n := len(tokenize(cutReasoning)); n != 5 {
		t.Errorf("thinking_budget 5: %d reasoning tokens", n)
	}
	_, cutAnswer, finish, _ := read(`,"max_tokens":3`)
	if n := len(tokenize(cutAnswer)); n != 3 || finish != "length" {
		t.Errorf("max_tokens 3: %d answer tokens, finish %s", n, finish)
	}
}

// Without thinking, a request need not stream: the whole derivation is the
// content, and there is no reasoning_content.
func TestModelStudioWithoutThinking(t *testing.T) {
	ep := startServer(t, modelStudioConfig())
	status, b := postTo(t, ep.URL+"/chat/completions", referenceBody(`,"enable_thinking":false`))
	var r struct {
		Choices []struct {
			Message map[string]any `json:"message"`
		} `json:"choices"`
		Usage struct {
			Details struct {
				ReasoningTokens int `json:"reasoning_tokens"`
			} `json:"completion_tokens_details"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(b, &r); err != nil || status != 200 {
		t.Fatalf("status %d: %s", status, b)
	}
	msg := r.Choices[0].Message
	if _, ok := msg["reasoning_content"]; ok || !strings.Contains(msg["content"].(string), `\boxed{`) || r.Usage.Details.ReasoningTokens != 0 {
		t.Fatalf("reply %s", b)
	}
}
