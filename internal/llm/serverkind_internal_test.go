package llm

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// What an answer to GET /version says, from vLLM's (basic/api_router.py:
// {"version": VLLM_VERSION}) and other servers' answers.
func TestReadVersion(t *testing.T) {
	for _, c := range []struct {
		status        int
		body, version string
		answered      bool
	}{
		{200, `{"version": "0.11.0"}`, "0.11.0", true},
		{200, `{"version": "  "}`, "", true},
		{200, `{"object": "list", "data": []}`, "", true},
		{200, `<html>hello</html>`, "", true},
		{404, `{"error": {"message": "Invalid URL (GET /version)", "type": "invalid_request_error"}}`, "", true},
		{401, `{"error": "unauthorized"}`, "", true},
		{503, `upstream down`, "", false},
		{429, ``, "", false},
	} {
		got := readVersion(c.status, []byte(c.body), "sk-x")
		if got.version != c.version || got.answered != c.answered {
			t.Errorf("%d %s: %+v, want version %q, answered %v", c.status, c.body, got, c.version, c.answered)
		}
	}
}

// Whatever a server answers to GET /version, reading it is quick, never
// panics, and what it keeps prints safely without the API key.
func FuzzReadVersion(f *testing.F) {
	f.Add(200, []byte(`{"version": "0.11.0"}`))
	f.Add(200, []byte(`{"version": "\u001b]0;pwned\u0007 sk-secret"}`))
	f.Add(404, []byte(`not found`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		got := readVersion(status, body, "sk-secret")
		for _, s := range []string{got.version, got.what} {
			if strings.Contains(s, "sk-secret") || !utf8.ValidString(s) || strings.ContainsRune(s, '\x1b') || len(s) > 2*maxQuotedBytes {
				t.Fatalf("unsafe text %q", s)
			}
		}
		if got.version != "" && !got.answered {
			t.Fatal("a version without an answer")
		}
	})
}

// Which 400s refuse the form of the request (every request of the run has
// it) rather than the request: OpenAI's documented refusals of max_tokens,
// of a reasoning model's sampling values, and of a field it does not know,
// as its API and gateways word them; not a request's own problem.
func TestRefusesForm(t *testing.T) {
	param := func(s string) *string { return &s }
	for _, c := range []struct {
		name string
		err  *openai.APIError
		want bool
	}{
		{"max_tokens to a reasoning model", &openai.APIError{HTTPStatusCode: 400, Type: "invalid_request_error", Param: param("max_tokens"), Code: "unsupported_parameter",
			Message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."}, true},
		{"the same through a gateway that rewrites the code", &openai.APIError{HTTPStatusCode: 400, Code: "invalid_request_body",
			Message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."}, true},
		{"a temperature a reasoning model fixes", &openai.APIError{HTTPStatusCode: 400, Param: param("temperature"), Code: "unsupported_value",
			Message: "Unsupported value: 'temperature' does not support 0.6 with this model. Only the default (1) value is supported."}, true},
		{"vLLM's field to OpenAI", &openai.APIError{HTTPStatusCode: 400, Type: "invalid_request_error", Message: "Unrecognized request argument supplied: top_k"}, true},
		{"vLLM's context length", &openai.APIError{HTTPStatusCode: 400, Type: "BadRequestError", Code: 400,
			Message: "This model's maximum context length is 40960 tokens. However, you requested 41000 tokens."}, false},
		{"a request's own messages", &openai.APIError{HTTPStatusCode: 400, Type: "invalid_request_error", Message: "Invalid 'messages': empty array."}, false},
		{"not a 400", &openai.APIError{HTTPStatusCode: 404, Code: "unsupported_parameter", Message: "Unsupported parameter"}, false},
	} {
		if got := refusesForm(fmt.Errorf("attempt: %w", c.err)); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
