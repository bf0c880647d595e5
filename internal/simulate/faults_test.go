package simulate

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// post sends one request to a fresh endpoint and decodes its reply.
func post(t *testing.T, cfg Config, path, body string) map[string]any {
	t.Helper()
	ep := startServer(t, cfg)
	resp, err := http.Post(ep.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reply map[string]any
	if resp.StatusCode != 200 {
		t.Fatalf("status %d, want 200", resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		t.Fatal(err)
	}
	return reply
}

const (
	completionBody = `{"model": "m", "prompt": "hi", "max_tokens": 5, "return_token_ids": true}`
	chatBody       = `{"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 5}`
)

func TestEmptyReplyForms(t *testing.T) {
	for _, c := range []struct {
		form, path, body string
		check            func(choice map[string]any) bool
	}{
		{"null", "/completions", completionBody, func(c map[string]any) bool { v, ok := c["text"]; return ok && v == nil }},
		{"empty", "/completions", completionBody, func(c map[string]any) bool { return c["text"] == "" && c["finish_reason"] == "length" }},
		{"missing", "/completions", completionBody, func(c map[string]any) bool { _, ok := c["text"]; return !ok }},
		{"stop", "/completions", completionBody, func(c map[string]any) bool {
			return c["text"] == "" && c["finish_reason"] == "stop" && len(c["token_ids"].([]any)) == 1
		}},
		{"null", "/chat/completions", chatBody, func(c map[string]any) bool {
			m := c["message"].(map[string]any)
			v, ok := m["content"]
			_, reasoning := m["reasoning_content"]
			return ok && v == nil && !reasoning
		}},
		{"missing", "/chat/completions", chatBody, func(c map[string]any) bool { _, ok := c["message"].(map[string]any)["content"]; return !ok }},
	} {
		cfg := DefaultConfig()
		cfg.ReasoningField = true
		cfg.Faults = Faults{EmptyRate: 1, EmptyForm: c.form}
		reply := post(t, cfg, c.path, c.body)
		if !c.check(reply["choices"].([]any)[0].(map[string]any)) {
			t.Errorf("%s %s: %v", c.path, c.form, reply)
		}
	}
	cfg := DefaultConfig()
	cfg.Faults = Faults{EmptyRate: 1, EmptyForm: "no-choices"}
	if reply := post(t, cfg, "/completions", completionBody); len(reply["choices"].([]any)) != 0 {
		t.Errorf("no-choices: %v", reply)
	}
}

func TestBadUsageFault(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Faults = Faults{BadUsageRate: 1, BadUsage: 3e9}
	reply := post(t, cfg, "/completions", completionBody)
	if got := reply["usage"].(map[string]any)["completion_tokens"]; got != 3e9 {
		t.Fatalf("completion_tokens %v", got)
	}
	cfg.Faults = Faults{BadUsageRate: 1}
	reply = post(t, cfg, "/completions", completionBody)
	if got := reply["usage"].(map[string]any)["completion_tokens"]; got != -1.0 {
		t.Fatalf("default completion_tokens %v", got)
	}
}

// A trickled reply is a whole, valid reply, sent a byte at a time.
func TestTrickleFault(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Faults = Faults{TrickleRate: 1, TrickleInterval: time.Millisecond}
	ep := startServer(t, cfg)
	resp, err := http.Post(ep.URL+"/completions", "application/json", strings.NewReader(completionBody))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	reads, n := 0, 0
	buf := make([]byte, 1<<16)
	var body []byte
	for {
		k, err := resp.Body.Read(buf)
		body, n = append(body, buf[:k]...), n+k
		if k > 0 {
			reads++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var reply map[string]any
	if err := json.Unmarshal(body, &reply); err != nil {
		t.Fatalf("trickled reply %q: %v", body, err)
	}
	if reply["choices"] == nil {
		t.Fatalf("trickled reply %q has no choices", body)
	}
	if reads < n/2 {
		t.Fatalf("%d bytes arrived in %d reads, want at least %d", n, reads, n/2)
	}
	if got := ep.Server.Stats().Trickled; got != 1 {
		t.Fatalf("%d replies trickled, want 1", got)
	}
}

// With no new fault asked for, the fault draw is what it was: the same
// seed injects the same faults into the same requests.
func TestNewFaultsLeaveOldDrawsAlone(t *testing.T) {
	draw := func(f Faults) []string {
		s := newServer(Config{Seed: 7, MaxSeqs: 1, Faults: f}, testModel(DefaultProfile()))
		var out []string
		for i := 0; i < 200; i++ {
			out = append(out, s.drawFault())
		}
		return out
	}
	old := draw(Faults{ErrorRate: 0.2, DropRate: 0.1, MalformedRate: 0.1})
	now := draw(Faults{ErrorRate: 0.2, DropRate: 0.1, MalformedRate: 0.1, TrickleInterval: time.Second, EmptyForm: "empty"})
	if strings.Join(old, ",") != strings.Join(now, ",") {
		t.Fatal("the fault sequence changed")
	}
}

func TestFaultConfigValidate(t *testing.T) {
	for _, f := range []Faults{
		{EmptyRate: 0.6, TrickleRate: 0.6},
		{EmptyForm: "blank"},
		{TrickleInterval: -time.Second},
		{BadUsageRate: -0.1},
	} {
		cfg := DefaultConfig()
		cfg.Faults = f
		if err := cfg.Validate(); err == nil {
			t.Errorf("%+v accepted", f)
		}
	}
}
