package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/datg/datg/internal/inputerr"
	openai "github.com/sashabaranov/go-openai"
)

// ErrMixedServers means some endpoints answer vLLM's GET /version and
// others do not: one run sends every request in one form, so the
// endpoints must be of one kind (or --server says which).
var ErrMixedServers = fmt.Errorf("%w: the endpoints are of different kinds", inputerr.ErrInvalidConfig)

// ErrWrongServer means a server refused the form of a request (OpenAI's
// "Use 'max_completion_tokens'", an unsupported parameter or value, a
// field it does not know), which every request of the run shares: the
// endpoints are not the kind of server datg took them for. The run stops
// at once (it comes wrapped with ErrFatal), as a configuration error
// (exit 2): --server says what they are.
var ErrWrongServer = fmt.Errorf("%w: the server refuses the form of the request, which every request of the run shares", inputerr.ErrInvalidConfig)

// serverKind is how the pool decided what its endpoints are
// (Options.Server holds the kind once decided).
type serverKind struct {
	once sync.Once
	why  string // how it was decided, for the errors that name --server
	err  error  // ErrMixedServers
}

// DecideServer decides, once, what the endpoints are when --server did not
// say and they are not api.openai.com: a vLLM server answers GET /version
// with its version (vllm/entrypoints/openai/basic/api_router.py), an
// OpenAI-compatible API that is not vLLM (OpenAI, Azure, a gateway, a
// proxy) answers anything else. Endpoints that give no HTTP answer at all
// are not counted; when none answers, the kind stays unknown, said through
// Logf, and each request takes the form of its model's family (formFor).
// Endpoints of both kinds are ErrMixedServers. Shape decides on first use
// when no one called DecideServer.
func (p *Pool) DecideServer(ctx context.Context) error {
	p.kind.once.Do(func() {
		if p.opts.Server != "" {
			return // said, or OpenAI's own host (NewPool)
		}
		p.opts.Server, p.kind.why, p.kind.err = p.askKinds(ctx)
		if p.opts.Server == "" && p.kind.err == nil && p.opts.Logf != nil {
			p.opts.Logf("the server kind cannot be told (%s): requests for reasoning models (o-series, gpt-5) take OpenAI's form and the others vLLM's; say what the endpoints are with --server vllm or --server openai", p.kind.why)
		}
	})
	return p.kind.err
}

// askKinds asks every endpoint's GET /version at once: the kind they
// agree on and why, or ErrMixedServers.
func (p *Pool) askKinds(ctx context.Context) (kind, why string, err error) {
	answers := make([]versionAnswer, len(p.eps))
	var wg sync.WaitGroup
	for i, e := range p.eps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = e.askVersion(ctx)
		}()
	}
	wg.Wait()
	var vllm, other, silent []string
	for i, a := range answers {
		base := strings.TrimSuffix(p.eps[i].url, "/v1")
		switch {
		case a.version != "":
			vllm = append(vllm, fmt.Sprintf("%s answers GET /version (vLLM %s)", base, a.version))
		case a.answered:
			other = append(other, fmt.Sprintf("%s does not answer GET /version as vLLM does (%s)", base, a.what))
		default:
			silent = append(silent, fmt.Sprintf("%s: %s", base, a.what))
		}
	}
	switch {
	case len(vllm) > 0 && len(other) > 0:
		return "", "", fmt.Errorf("%w: %s, and %s: give endpoints of one kind, or say what they are with --server vllm or --server openai",
			ErrMixedServers, strings.Join(vllm, ", "), strings.Join(other, ", "))
	case len(vllm) > 0:
		return ServerVLLM, "were taken for vLLM: " + strings.Join(vllm, ", "), nil
	case len(other) > 0:
		return ServerOpenAI, "were taken for an OpenAI-compatible API that is not vLLM: " + strings.Join(other, ", "), nil
	}
	return "", "no endpoint answered GET /version: " + strings.Join(silent, "; "), nil
}

// versionAnswer is what an endpoint answered to GET /version: vLLM's
// version, or answered (another answer that says the server is not vLLM)
// and what it was, or why it said nothing either way.
type versionAnswer struct {
	version  string
	answered bool
	what     string
}

// askVersion asks the endpoint's GET /version, which vLLM's server answers
// with {"version": "..."}.
func (e *endpoint) askVersion(ctx context.Context) versionAnswer {
	status, body, err := e.get(ctx, strings.TrimSuffix(e.url, "/v1")+"/version")
	if err != nil {
		return versionAnswer{what: serverText(err.Error(), e.key)}
	}
	return readVersion(status, body, e.key)
}

// readVersion reads an answer to GET /version: vLLM's is a 200 with a
// JSON object whose version is a string that says something; another
// answer says the server is not vLLM, except one of a server (or proxy)
// that is down or busy, which says nothing either way. The version is
// server text, made printable (serverText).
func readVersion(status int, body []byte, key string) versionAnswer {
	var v struct {
		Version string `json:"version"`
	}
	if status == http.StatusOK && json.Unmarshal(body, &v) == nil && strings.TrimSpace(v.Version) != "" {
		return versionAnswer{version: serverText(v.Version, key), answered: true}
	}
	switch {
	case status == http.StatusOK:
		return versionAnswer{answered: true, what: "status 200 without a version"}
	case status >= 500 || status == http.StatusTooManyRequests || status == http.StatusRequestTimeout:
		return versionAnswer{what: fmt.Sprintf("GET /version answered status %d", status)}
	}
	return versionAnswer{answered: true, what: fmt.Sprintf("status %d", status)}
}

// Server is the kind of server the pool's endpoints are: ServerVLLM,
// ServerOpenAI, or "" when none could say (DecideServer).
func (p *Pool) Server() string {
	p.DecideServer(context.Background())
	return p.opts.Server
}

// kindSaid says what the endpoints are and how that was decided.
func (p *Pool) kindSaid() string {
	kind := p.Server()
	if kind == "" {
		return "are of no kind a server told (" + p.kind.why + ")"
	}
	if p.kind.why == "" {
		return "are " + kind
	}
	return fmt.Sprintf("are %s (they %s)", kind, p.kind.why)
}

// refusesForm reports whether a server's 400 refuses the form of the
// request rather than this request: OpenAI's refusals of max_tokens ("Use
// 'max_completion_tokens' instead", code unsupported_parameter), of a
// sampling value a reasoning model fixes (unsupported_value), and of a
// field it does not know ("Unrecognized request argument supplied").
// Every request of the run carries the same form.
func refusesForm(err error) bool {
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != http.StatusBadRequest {
		return false
	}
	code, _ := apiErr.Code.(string)
	msg := apiErr.Message
	return code == "unsupported_parameter" || code == "unsupported_value" ||
		strings.Contains(msg, "max_completion_tokens") || strings.HasPrefix(msg, "Unsupported parameter") ||
		strings.HasPrefix(msg, "Unsupported value") || strings.HasPrefix(msg, "Unrecognized request argument")
}

// wrongServer is ErrWrongServer for the refusal (err) of a request the
// pool sent in the form of its model's server kind: the server's words,
// the form sent and why, and how to say another kind.
func (p *Pool) wrongServer(url string, req Request, err error) error {
	form := "vLLM's form (max_tokens, temperature, top_p and vLLM's sampling fields)"
	if req.Wire == WireReasoning {
		form = "the form of OpenAI's reasoning models (max_completion_tokens, no temperature or top_p)"
	} else if p.opts.formFor(req.Model) == ServerOpenAI {
		form = "OpenAI's form (max_tokens, temperature, top_p, no vLLM fields)"
	}
	why := p.kind.why
	if why == "" {
		why = "could not say what they are"
	}
	return fmt.Errorf("%s: %w: %w: %v; datg sent it in %s, as the endpoints %s: say what they are with --server openai (an OpenAI-compatible API: OpenAI, Azure, a gateway, a proxy) or --server vllm",
		url, ErrFatal, ErrWrongServer, err, form, why)
}
