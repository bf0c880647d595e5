package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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
	Models   map[string]int `json:"models,omitempty"` // served id -> max_model_len (0: not said)
}

// probeTimeout bounds each of the two small GETs of a probe.
const probeTimeout = 15 * time.Second

// Probe asks every endpoint for its models and version. A server that does
// not answer these (or answers something else) is not refused here: the
// requests themselves will tell.
func (p *Pool) Probe(ctx context.Context) []ServerInfo {
	out := make([]ServerInfo, len(p.eps))
	for i, e := range p.eps {
		info := ServerInfo{Endpoint: strings.TrimSuffix(e.url, "/v1")}
		var models struct {
			Data []struct {
				ID          string `json:"id"`
				MaxModelLen int    `json:"max_model_len"`
			} `json:"data"`
		}
		if e.getJSON(ctx, e.url+"/models", &models) == nil {
			info.Models = map[string]int{}
			for _, m := range models.Data {
				info.Models[m.ID] = max(m.MaxModelLen, 0)
			}
		}
		var version struct {
			Version string `json:"version"`
		}
		if e.getJSON(ctx, info.Endpoint+"/version", &version) == nil {
			info.Version = version.Version
		}
		out[i] = info
	}
	return out
}

// getJSON decodes a small JSON reply to a GET with the pool's key.
func (e *endpoint) getJSON(ctx context.Context, url string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if e.key != "" {
		req.Header.Set("Authorization", "Bearer "+e.key)
	}
	resp, err := e.doer.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: status %d", url, resp.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v)
}

// ErrContextTooShort means a server's context (max_model_len) cannot hold
// a request the plan will send: vLLM would refuse every one with a 400.
var ErrContextTooShort = fmt.Errorf("%w: the server's context is too short for the plan", inputerr.ErrInvalidConfig)

// ErrModelNotServed means an endpoint lists its models and the plan's
// model is not among them.
var ErrModelNotServed = fmt.Errorf("%w: the endpoint does not serve the model", inputerr.ErrInvalidConfig)

// CheckFit refuses, before anything is sent, a plan whose requests for
// model need tokens (prompt and budget together) beyond an endpoint's
// max_model_len, or that names a model an endpoint does not list.
func CheckFit(infos []ServerInfo, model string, tokens int) error {
	for _, info := range infos {
		if len(info.Models) == 0 {
			continue
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
