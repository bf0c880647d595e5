package simulate

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// rawPost sends one request to a fresh endpoint and returns its reply body
// as sent.
func rawPost(t *testing.T, cfg Config, path, body string) []byte {
	t.Helper()
	ep := startServer(t, cfg)
	resp, err := http.Post(ep.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d, want 200", resp.StatusCode)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Each impossible reply is what its form says, and decodes without an
// error: only a check of its shape can refuse it.
func TestImpossibleReplyForms(t *testing.T) {
	type reply struct {
		Choices []struct {
			Text         string `json:"text"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage *struct {
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	checks := map[string]func(b []byte, r reply) bool{
		"no-usage":    func(_ []byte, r reply) bool { return r.Usage == nil && r.Choices[0].Text != "" },
		"zero-tokens": func(_ []byte, r reply) bool { return r.Usage.CompletionTokens == 0 && r.Choices[0].Text != "" },
		"over-budget": func(_ []byte, r reply) bool {
			return r.Usage.CompletionTokens == 1005 && r.Choices[0].FinishReason == "stop"
		},
		"two-choices":           func(_ []byte, r reply) bool { return len(r.Choices) == 2 && r.Choices[0].Text != r.Choices[1].Text },
		"duplicate-key":         func(b []byte, _ reply) bool { return bytes.Count(b, []byte(`"choices":`)) == 2 },
		"control-finish-reason": func(_ []byte, r reply) bool { return r.Choices[0].FinishReason == "stop\x00\n" },
		"invalid-utf8":          func(b []byte, _ reply) bool { return !utf8.Valid(b) },
	}
	if len(checks) != len(ImpossibleForms) {
		t.Fatalf("%d checks for %d forms", len(checks), len(ImpossibleForms))
	}
	for _, form := range ImpossibleForms {
		cfg := DefaultConfig()
		cfg.Faults = Faults{ImpossibleRate: 1, ImpossibleForm: form}
		b := rawPost(t, cfg, "/completions", completionBody)
		var r reply
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", form, err)
		}
		if !checks[form](b, r) {
			t.Errorf("%s: %s", form, b)
		}
	}
}

// A broken /v1/models answers as Faults.Models says, and a server without a
// Version has no /version.
func TestBrokenModelList(t *testing.T) {
	for _, c := range []struct {
		fault  string
		status int
		body   string
	}{{"error", 500, `"error"`}, {"garbage", 200, "<html>"}, {"empty", 200, `"data":[]`}} {
		cfg := DefaultConfig()
		cfg.Faults.Models = c.fault
		ep := startServer(t, cfg)
		resp, err := http.Get(ep.URL + "/models")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(b), c.body) {
			t.Errorf("%s: status %d, body %s", c.fault, resp.StatusCode, b)
		}
	}
	cfg := DefaultConfig()
	cfg.Version = ""
	ep := startServer(t, cfg)
	resp, err := http.Get(strings.TrimSuffix(ep.URL, "/v1") + "/version")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("/version without a Version: status %d, want 404", resp.StatusCode)
	}
}
