package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/datg/datg/internal/llm"
)

// hostile is what a hostile or broken server puts in an error body: an
// xterm title change (OSC ... BEL), a clear screen (CSI 2J), a C1 control,
// a right-to-left override, the API key it was sent, and a megabyte.
func hostile(key string) string {
	return "\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eboom key=" + key + " " + strings.Repeat("x", 1200000)
}

// unprintable is the first character of s a terminal would act on rather
// than show, or "".
func unprintable(s string) string {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == unicode.ReplacementChar {
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}

// What a server says in an error reaches the operator's terminal printable:
// control characters escaped, the key redacted, and the body quoted to a
// kilobyte with its length, in the request's error and in the pool's log.
func TestServerTextIsSafeToPrint(t *testing.T) {
	const key = "sk-test-0123456789abcdef"
	jsonBody, _ := json.Marshal(map[string]any{"error": map[string]any{"message": hostile(key), "type": "BadRequestError", "code": 400}})
	cases := []struct {
		name   string
		status int
		body   []byte
		want   error
	}{
		{"JSON error message", http.StatusBadRequest, jsonBody, llm.ErrRejected},
		{"body that is not JSON", http.StatusBadGateway, []byte(hostile(key)), llm.ErrGaveUp},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(c.status)
				w.Write(c.body)
			}))
			t.Cleanup(srv.Close)
			var mu sync.Mutex
			var logged []string
			o := fastOptions()
			o.APIKey, o.MaxAttempts, o.FailThreshold = key, 2, 1
			o.Server = llm.ServerVLLM // a vLLM server answering this to every request
			o.Logf = func(format string, args ...any) {
				mu.Lock()
				logged = append(logged, fmt.Sprintf(format, args...))
				mu.Unlock()
			}
			pool, err := llm.NewPool([]string{srv.URL}, o)
			if err != nil {
				t.Fatal(err)
			}
			_, err = pool.Do(context.Background(), swahiliRequest(0))
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, text := range append([]string{err.Error()}, logged...) {
				if r := unprintable(text); r != "" {
					t.Errorf("%s reaches the terminal: %.300q", r, text)
				}
				if strings.Contains(text, key) {
					t.Errorf("the API key leaked: %.300q", text)
				}
				if len(text) > 4<<10 {
					t.Errorf("%d bytes in one line, want the body quoted to 1 KB", len(text))
				}
				if !strings.Contains(text, `\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eboom key=[REDACTED] xxx`) {
					t.Errorf("the body is not quoted escaped: %.300q", text)
				}
				if !strings.Contains(text, fmt.Sprintf("… (%d bytes)", len(hostile(key)))) {
					t.Errorf("the cut body does not say how long it was: %.300q", text)
				}
			}
			if c.want == llm.ErrGaveUp && len(logged) == 0 {
				t.Error("the endpoint's faults were not logged")
			}
		})
	}
}
