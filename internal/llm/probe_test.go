package llm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/simulate"
)

// probe probes one simulated endpoint and checks the plan's fit, keeping
// the pool's notices.
func probe(t *testing.T, cfg simulate.Config, server string) (llm.ServerInfo, error, []string) {
	t.Helper()
	ep := start(t, cfg)[0]
	var mu sync.Mutex
	var notices []string
	o := fastOptions()
	o.Server = server
	o.Logf = func(format string, args ...any) {
		mu.Lock()
		notices = append(notices, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	pool, err := llm.NewPool([]string{ep.URL}, o)
	if err != nil {
		t.Fatal(err)
	}
	infos := pool.Probe(context.Background())
	err = llm.CheckFit(infos, cfg.Models[0], 1024)
	mu.Lock()
	defer mu.Unlock()
	return infos[0], err, notices
}

// A vLLM server (it answers /version) always serves its model list with
// max_model_len: when the list cannot be read, the plan is refused naming
// the endpoint and why, rather than sent unchecked.
func TestUnreadableModelListOfVLLMIsAnError(t *testing.T) {
	for fault, why := range map[string]string{"error": "answered status 500", "garbage": "not the JSON expected"} {
		cfg := simConfig()
		cfg.Faults.Models = fault
		info, err, _ := probe(t, cfg, llm.ServerVLLM)
		if !errors.Is(err, llm.ErrModelsUnreadable) {
			t.Fatalf("%s: got %v, want ErrModelsUnreadable", fault, err)
		}
		for _, want := range []string{info.Endpoint, cfg.Version, "/v1/models", why} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: the error does not say %q: %v", fault, want, err)
			}
		}
	}
}

// Another server whose list cannot be read, or that lists its models
// without max_model_len while taken for vLLM, is not refused, but the
// stage says the context length goes unchecked and why.
func TestUncheckedContextIsSaid(t *testing.T) {
	unreadable := simConfig()
	unreadable.Version, unreadable.Faults.Models = "", "error"
	silent := simConfig()
	silent.Version, silent.Dialect = "", simulate.DialectOpenAI // lists ids only
	for _, c := range []struct {
		name   string
		cfg    simulate.Config
		server string
		why    string
	}{
		{"unreadable list", unreadable, llm.ServerVLLM, "answered status 500"},
		{"unreadable list of a hosted API", unreadable, llm.ServerOpenAI, "answered status 500"},
		{"no max_model_len", silent, llm.ServerVLLM, "no max_model_len"},
	} {
		info, err, notices := probe(t, c.cfg, c.server)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(notices) != 1 || !strings.Contains(notices[0], info.Endpoint) || !strings.Contains(notices[0], "not checked") || !strings.Contains(notices[0], c.why) {
			t.Errorf("%s: notices %q, want one saying the context is not checked because %s", c.name, notices, c.why)
		}
	}
}

// OpenAI's model list never gives a context length: nothing to say. A
// vLLM server that lists its models is checked without a word.
func TestCheckedOrHostedContextIsQuiet(t *testing.T) {
	hosted := simConfig()
	hosted.Version, hosted.Dialect = "", simulate.DialectOpenAI
	for _, c := range []struct {
		name   string
		cfg    simulate.Config
		server string
	}{{"OpenAI", hosted, llm.ServerOpenAI}, {"vLLM", simConfig(), llm.ServerVLLM}} {
		info, err, notices := probe(t, c.cfg, c.server)
		if err != nil || len(notices) > 0 {
			t.Errorf("%s: %v, notices %q", c.name, err, notices)
		}
		if c.server == llm.ServerVLLM && info.Models[c.cfg.Models[0]] != c.cfg.MaxModelLen {
			t.Errorf("vLLM: max_model_len %v, want %d", info.Models, c.cfg.MaxModelLen)
		}
	}
}

// A list of no models serves no model: the plan's is not among them.
func TestEmptyModelListServesNoModel(t *testing.T) {
	for _, version := range []string{"", "0.11.0"} {
		cfg := simConfig()
		cfg.Version, cfg.Faults.Models = version, "empty"
		_, err, _ := probe(t, cfg, llm.ServerVLLM)
		if !errors.Is(err, llm.ErrModelNotServed) || !strings.Contains(err.Error(), "lists no models") {
			t.Errorf("version %q: got %v, want ErrModelNotServed", version, err)
		}
	}
}
