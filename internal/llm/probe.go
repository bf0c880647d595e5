package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/datg/datg/internal/inputerr"
)

// ServerInfo is what an endpoint says about itself before any request:
// the models it serves with their context length (vLLM's /v1/models
// max_model_len) and its version (vLLM's /version). Servers that say
// nothing leave the fields empty.
type ServerInfo struct {
	Endpoint string         `json:"endpoint"`
	Version  string         `json:"version,omitempty"`
	Models   map[string]int `json:"models,omitempty"` // served id -> max_model_len (0: not said); nil: no list was read
	// ModelsProblem says why no model list was read from /v1/models (an
	// HTTP error, a body that is not one), printable; empty when one was.
	ModelsProblem string `json:"-"`
}

// probeTimeout bounds each of the two small GETs of a probe.
const probeTimeout = 15 * time.Second

// maxModelListBytes bounds a /v1/models body: OpenAI's lists a hundred
// models in well under a megabyte.
const maxModelListBytes = 4 << 20

// Probe asks every endpoint for its models and version. A server that does
// not answer these is not refused here: CheckFit decides, and what cannot
// be checked is said through Options.Logf. A vLLM server (it answers
// /version) always lists its models with max_model_len; another server
// whose list cannot be read, or that does not say max_model_len while the
// endpoints are taken for vLLM, gets a notice that the context length is
// not checked. OpenAI's list never says it, and needs no notice.
func (p *Pool) Probe(ctx context.Context) []ServerInfo {
	out := make([]ServerInfo, len(p.eps))
	for i, e := range p.eps {
		info := ServerInfo{Endpoint: strings.TrimSuffix(e.url, "/v1")}
		info.Models, info.ModelsProblem = e.readModels(ctx)
		var version struct {
			Version string `json:"version"`
		}
		if e.getJSON(ctx, info.Endpoint+"/version", &version) == nil {
			info.Version = serverText(version.Version, e.key)
		}
		out[i] = info
		if info.Version != "" || p.opts.Logf == nil {
			continue // a vLLM server's list is checked by CheckFit
		}
		switch {
		case info.ModelsProblem != "":
			p.opts.Logf("%s: the context length (max_model_len) is not checked before sending: %s", info.Endpoint, info.ModelsProblem)
		case p.Server() == ServerVLLM && len(info.Models) > 0 && !slices.ContainsFunc(slices.Collect(maps.Values(info.Models)), func(n int) bool { return n > 0 }):
			p.opts.Logf("%s: the context length is not checked before sending: /v1/models gives no max_model_len (vLLM's does)", info.Endpoint)
		}
	}
	return out
}

// readModels reads the endpoint's /v1/models: each model's id and
// max_model_len, or why there is no list.
func (e *endpoint) readModels(ctx context.Context) (map[string]int, string) {
	var list struct {
		Data *[]struct {
			ID          string `json:"id"`
			MaxModelLen *int   `json:"max_model_len"`
		} `json:"data"`
	}
	if err := e.getJSON(ctx, e.url+"/models", &list); err != nil {
		return nil, serverText(err.Error(), e.key)
	}
	if list.Data == nil {
		return nil, "GET /v1/models answered without a data list"
	}
	models := map[string]int{}
	for _, m := range *list.Data {
		n := 0
		if m.MaxModelLen != nil {
			n = *m.MaxModelLen
		}
		if n < 0 {
			return nil, fmt.Sprintf("GET /v1/models gives %s a max_model_len of %d", quoted(m.ID), n)
		}
		models[m.ID] = n
	}
	return models, ""
}

// getJSON decodes a small JSON reply to a GET with the pool's key.
func (e *endpoint) getJSON(ctx context.Context, url string, v any) error {
	status, body, err := e.get(ctx, url)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("GET %s answered status %d", pathOf(url), status)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s answered a body that is not the JSON expected: %v", pathOf(url), err)
	}
	return nil
}

// get reads the whole reply to a GET with the pool's key, bounded in time
// (probeTimeout) and size: its status and body, or an error when no whole
// answer came.
func (e *endpoint) get(ctx context.Context, url string) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	if e.key != "" {
		req.Header.Set("Authorization", "Bearer "+e.key)
	}
	path := req.URL.Path
	resp, err := e.doer.http.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxModelListBytes+1))
	switch {
	case err != nil:
		return 0, nil, fmt.Errorf("GET %s: reading the answer: %w", path, err)
	case len(body) > maxModelListBytes:
		return 0, nil, fmt.Errorf("GET %s answered more than %d bytes", path, maxModelListBytes)
	}
	return resp.StatusCode, body, nil
}

// pathOf is the path of a URL, as errors name what was asked.
func pathOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Path
	}
	return raw
}

// ErrModelsUnreadable means a vLLM server (it answers /version) did not
// give its model list: whether the plan fits its context cannot be
// checked, and vLLM always serves that list.
var ErrModelsUnreadable = errors.New("the vLLM server's /v1/models cannot be read, so the plan cannot be checked against its context length (max_model_len)")

// ErrContextTooShort means a server's context (max_model_len) cannot hold
// a request the plan will send: vLLM would refuse every one with a 400.
var ErrContextTooShort = fmt.Errorf("%w: the server's context is too short for the plan", inputerr.ErrInvalidConfig)

// ErrModelNotServed means an endpoint lists its models and the plan's
// model is not among them.
var ErrModelNotServed = fmt.Errorf("%w: the endpoint does not serve the model", inputerr.ErrInvalidConfig)

// CheckFit refuses, before anything is sent, a plan whose requests for
// model need tokens (prompt and budget together) beyond an endpoint's
// max_model_len, or that names a model an endpoint does not list (an
// empty list included), or whose endpoint is a vLLM server that did not
// give its model list (ErrModelsUnreadable).
func CheckFit(infos []ServerInfo, model string, tokens int) error {
	for _, info := range infos {
		if info.Models == nil {
			if info.ModelsProblem != "" && info.Version != "" {
				return fmt.Errorf("%w: %s (vLLM %s): %s", ErrModelsUnreadable, info.Endpoint, info.Version, info.ModelsProblem)
			}
			continue // said by Probe
		}
		if len(info.Models) == 0 {
			return fmt.Errorf("%w: %s lists no models, not %s", ErrModelNotServed, info.Endpoint, model)
		}
		n, ok := info.Models[model]
		if !ok {
			ids := make([]string, 0, len(info.Models))
			for id := range info.Models {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			return fmt.Errorf("%w: %s serves %s, not %s", ErrModelNotServed, info.Endpoint, strings.Join(ids, ", "), model)
		}
		if n > 0 && tokens > n {
			return fmt.Errorf("%w: %s serves %s with max_model_len %d, and the plan's longest request needs %d tokens (budget and prompt margin); restart it with --max-model-len %d or more (scripts/serve_vllm.sh derives it from the study)",
				ErrContextTooShort, info.Endpoint, model, n, tokens, tokens)
		}
	}
	return nil
}

// ServersJSON is the probe's result as table metadata (empty when no
// server said anything about itself).
func ServersJSON(infos []ServerInfo) string {
	if !slices.ContainsFunc(infos, func(i ServerInfo) bool { return i.Version != "" || len(i.Models) > 0 }) {
		return ""
	}
	b, _ := json.Marshal(infos)
	return string(b)
}
