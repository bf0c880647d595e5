package llm

import (
	"github.com/datg/datg/internal/inputerr"

	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
)

// Server kinds: what the endpoints are, which decides how a request is put
// on the wire (Pool.Shape). --server says it; else it is what the servers
// are (Pool.DecideServer): vLLM answers GET /version, OpenAI-compatible
// APIs do not.
const (
	// ServerVLLM is vLLM's OpenAI-compatible server (or any server that
	// takes vLLM's sampling fields): every field datg means is sent as it
	// is, through go-openai, or as a raw JSON body where go-openai's own
	// checks refuse a model name or field that vLLM accepts.
	ServerVLLM = "vllm"
	// ServerOpenAI is OpenAI's API, or any OpenAI-compatible API that is
	// not vLLM (Azure, a gateway, a proxy): no vLLM fields, and the
	// reasoning models (o-series, GPT-5 and later) get
	// max_completion_tokens and reasoning_effort and no temperature or
	// top_p.
	ServerOpenAI = "openai"
)

// Wire forms a request takes (Request.Wire).
const (
	// WireSampling is a request with max_tokens, temperature, top_p and
	// the server's own sampling fields (vLLM, OpenAI chat models).
	WireSampling = ""
	// WireReasoning is a request to an OpenAI reasoning model: its budget
	// goes as max_completion_tokens (reasoning tokens count against it),
	// with reasoning_effort when one is set, and without temperature and
	// top_p, which those models refuse.
	WireReasoning = "reasoning"
)

// ReasoningEfforts are the values of --reasoning-effort OpenAI documents.
var ReasoningEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"}

// openAIHosts are the hosts whose endpoints are OpenAI's API unless
// --server says otherwise: no need to ask them what they are.
var openAIHosts = []string{"api.openai.com"}

// ResolveServer is the server kind known before any server is asked: kind
// when it is set, openai when every endpoint is OpenAI's host, else ""
// (the servers decide: Pool.DecideServer).
func ResolveServer(kind string, endpoints []string) string {
	if kind != "" || len(endpoints) == 0 {
		return kind
	}
	for _, e := range endpoints {
		u, err := url.Parse(strings.TrimSpace(e))
		if err != nil || !slices.Contains(openAIHosts, u.Hostname()) {
			return ""
		}
	}
	return ServerOpenAI
}

// formFor is the server kind whose form a request for model takes: the
// pool's, or, when no server could say what it is, OpenAI's for its
// reasoning models (and for any model given a reasoning effort) and vLLM's
// for the rest.
func (o Options) formFor(model string) string {
	if o.Server != "" {
		return o.Server
	}
	if IsReasoningModel(model) || o.ReasoningEffort != "" {
		return ServerOpenAI
	}
	return ServerVLLM
}

// IsReasoningModel reports whether OpenAI serves the model as a reasoning
// model (o1, o3, o4 and GPT-5 families and later): max_tokens, temperature
// and top_p are refused, and reasoning tokens count against the budget.
func IsReasoningModel(model string) bool {
	m := strings.ToLower(model)
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if m == p || strings.HasPrefix(m, p+"-") || strings.HasPrefix(m, p+".") {
			return true
		}
	}
	return false
}

// refusesReasoningEffort reports whether OpenAI refuses reasoning_effort
// for the model: its chat models that do not reason (gpt-3.5, gpt-4,
// gpt-4o, gpt-4.1, gpt-4.5, chatgpt-4o, gpt-5-chat, and fine-tunes of
// them) answer 400 unsupported_parameter. Other names given an effort are
// taken for reasoning models (a new or fine-tuned one).
func refusesReasoningEffort(model string) bool {
	m := strings.TrimPrefix(strings.ToLower(model), "ft:")
	for _, p := range []string{"gpt-3.5", "gpt-4", "chatgpt-", "gpt-5-chat"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// effortRefused says why a reasoning effort cannot go to the model.
func effortRefused(model string) string {
	return fmt.Sprintf("OpenAI's %s does not reason and refuses reasoning_effort (drop --reasoning-effort, or use a reasoning model: o-series, gpt-5)", model)
}

// openAIFields are the extra body fields OpenAI's chat API takes; any other
// (vLLM's repetition_penalty, top_k, chat_template, ...) it refuses with
// 400 "Unrecognized request argument".
var openAIFields = map[string]bool{
	"temperature": true, "top_p": true, "seed": true, "stop": true, "n": true,
	"presence_penalty": true, "frequency_penalty": true, "logprobs": true, "top_logprobs": true,
	"response_format": true, "user": true, "reasoning_effort": true, "max_completion_tokens": true,
	"service_tier": true, "store": true, "metadata": true, "verbosity": true,
}

// Shape puts a request into the form its target takes (formFor): unchanged
// for vLLM; for OpenAI, the reasoning form for a reasoning model (or any model given
// a reasoning effort), and a refusal of fields OpenAI does not take. The
// shaped request is what is sent and keyed, so a trace records the values
// that were really sent. Errors are ErrBadRequestConfig: nothing is sent.
func (o Options) Shape(req Request) (Request, error) {
	if o.Server == ServerModelStudio {
		return o.shapeModelStudio(req)
	}
	if o.formFor(req.Model) != ServerOpenAI {
		if o.ReasoningEffort != "" {
			return req, fmt.Errorf("%w: %s: %w", ErrBadRequestConfig, req.describe(),
				inputerr.BadField("Pool.ReasoningEffort", "is for OpenAI's reasoning models; these endpoints are %s", o.Server))
		}
		return req, nil
	}
	var problems []string
	var extra []string
	for k := range req.Extra {
		if !openAIFields[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		problems = append(problems, fmt.Sprintf("an OpenAI-compatible API refuses vLLM's field(s) %s (if the endpoints are vLLM, say --server vllm)", strings.Join(extra, ", ")))
	}
	if o.ReasoningEffort != "" && refusesReasoningEffort(req.Model) {
		problems = append(problems, effortRefused(req.Model))
	}
	if o.countsReasoning(req.Model) {
		if req.API != APIChat {
			problems = append(problems, "OpenAI serves its reasoning models on chat/completions only (the chat API)")
		}
		if len(req.Stop) > 0 {
			problems = append(problems, "OpenAI's reasoning models refuse stop strings")
		}
		// Not sent, so not recorded as sent: a reasoning model samples as
		// OpenAI fixes it.
		req.Wire, req.ReasoningEffort, req.Temperature, req.TopP = WireReasoning, o.ReasoningEffort, 0, 0
	}
	if len(problems) > 0 {
		return req, fmt.Errorf("%w: %s: %s", ErrBadRequestConfig, req.describe(), strings.Join(problems, "; "))
	}
	return req, nil
}
