package simulate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms"
	"github.com/datg/datg/transforms/scaffold"
)

// Server is one simulated endpoint. It is an http.Handler.
type Server struct {
	cfg   Config
	model *model
	seqs  chan struct{}

	mu     sync.Mutex
	rng    *rand.Rand
	stats  Stats
	served map[string]int

	batchAPI *batchAPI // /v1/files and /v1/batches (batch.go)
}

// Stats counts what an endpoint did.
type Stats struct {
	Requests    int64 // completion requests received
	Served      int64 // full responses written
	Errors      int64 // injected HTTP errors
	Dropped     int64 // injected dropped connections
	Malformed   int64 // injected malformed bodies
	Empty       int64 // injected replies without text
	BadUsage    int64 // injected replies with garbage token counts
	Trickled    int64 // injected replies sent a byte at a time
	Impossible  int64 // injected replies no server gives (Faults.ImpossibleForm)
	InFlight    int64 // requests being generated now
	MaxInFlight int64 // most requests generated at once
	// CompletionTokens counts the tokens of every full response written:
	// what a run was charged for.
	CompletionTokens int64
}

// NewServer builds an endpoint. With cfg.Data set, the run's problems table
// becomes the simulated model's answer key.
func NewServer(cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	key, err := loadAnswerKey(cfg.Data, cfg.Solutions)
	if err != nil {
		return nil, err
	}
	return newServer(cfg, &model{profile: cfg.Profile, key: key}), nil
}

func newServer(cfg Config, m *model) *Server {
	if len(cfg.Faults.ErrorCodes) == 0 {
		cfg.Faults.ErrorCodes = []int{429, 500, 503}
	}
	if cfg.ReasoningKey == "" {
		cfg.ReasoningKey = "reasoning_content"
	}
	if cfg.Faults.EmptyForm == "" {
		cfg.Faults.EmptyForm = "null"
	}
	if cfg.Faults.BadUsage == 0 {
		cfg.Faults.BadUsage = -1
	}
	if cfg.Faults.ImpossibleForm == "" {
		cfg.Faults.ImpossibleForm = "no-usage"
	}
	if cfg.Faults.TrickleInterval == 0 {
		cfg.Faults.TrickleInterval = time.Second
	}
	return &Server{
		cfg:    cfg,
		model:  m,
		seqs:   make(chan struct{}, cfg.MaxSeqs),
		rng:    rand.New(rand.NewPCG(cfg.Seed, 0x5eed)),
		served: map[string]int{},

		batchAPI: newBatchAPI(),
	}
}

func loadAnswerKey(dir, solutionsPath string) (map[string]problemInfo, error) {
	key := map[string]problemInfo{}
	if dir == "" {
		return key, nil
	}
	solutions, err := loadSolutions(solutionsPath)
	if err != nil {
		return nil, err
	}
	err = store.Scan(dir, schema.Problems, func(p *schema.Problem) error {
		key[normQuestion(p.Question)] = problemInfo{ID: p.ProblemID, Lang: p.Lang, Level: p.Level, Answer: p.Answer, Steps: solutions[p.ProblemID]}
		return nil
	})
	if errors.Is(err, store.ErrNoTable) {
		return nil, fmt.Errorf("no problems table in %s for the answer key; run datg ingest first or leave Data empty", dir)
	}
	return key, err
}

// loadSolutions reads worked solutions, one JSON object a line:
// {"problem_id": "low-0", "steps": ["6 \\times 12 = 72", ...]}.
func loadSolutions(path string) (map[string][]string, error) {
	out := map[string][]string{}
	if path == "" {
		return out, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	for i, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var s struct {
			ProblemID string   `json:"problem_id"`
			Steps     []string `json:"steps"`
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil || s.ProblemID == "" || len(s.Steps) == 0 {
			return nil, fmt.Errorf("solutions %s:%d: not a {problem_id, steps} object", path, i+1)
		}
		out[s.ProblemID] = s.Steps
	}
	return out, nil
}

// Stats returns the endpoint's counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Served returns, per request (SHA-256 of its body), how many full responses
// the endpoint wrote.
func (s *Server) Served() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.served))
	for k, v := range s.served {
		out[k] = v
	}
	return out
}

// request is the union of the completion and chat request fields the
// simulator reads, vLLM's extra sampling fields included.
type request struct {
	Model    string          `json:"model"`
	Prompt   json.RawMessage `json:"prompt"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	MaxTokens *int `json:"max_tokens"`
	// MaxCompletionTokens is OpenAI's name of the budget (its reasoning
	// models take only this one).
	MaxCompletionTokens *int     `json:"max_completion_tokens"`
	Temperature         *float64 `json:"temperature"`
	TopK                *int     `json:"top_k"`
	ChatTemplate        *string  `json:"chat_template"`
	TopP                *float64 `json:"top_p"`
	Seed                *int64   `json:"seed"`
	Stream              bool     `json:"stream"`
	StreamOptions       *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	RepetitionPenalty    *float64        `json:"repetition_penalty"`
	Stop                 json.RawMessage `json:"stop"` // a string or a list of them
	ReturnTokenIDs       bool            `json:"return_token_ids"`
	ContinueFinalMessage bool            `json:"continue_final_message"`
	// EnableThinking and ThinkingBudget are Model Studio's thinking
	// switch and reasoning cap (the budget raw, to tell a bad value).
	EnableThinking *bool           `json:"enable_thinking"`
	ThinkingBudget json.RawMessage `json:"thinking_budget"`
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Faults.Dead {
		hangUp(w)
		return
	}
	if s.cfg.Dialect == DialectModelStudio {
		r.URL.Path = strings.TrimPrefix(r.URL.Path, modelStudioPrefix)
	}
	switch {
	case r.URL.Path == "/health":
		w.WriteHeader(http.StatusOK)
	case r.URL.Path == "/v1/models" && r.Method == http.MethodGet && s.cfg.Faults.Models != "":
		s.brokenModels(w)
	case r.URL.Path == "/v1/models" && r.Method == http.MethodGet:
		data := []map[string]any{}
		for _, m := range s.cfg.Models {
			model := map[string]any{"id": m, "object": "model", "owned_by": "datg-simulator"}
			if s.cfg.Dialect == DialectVLLM {
				model["root"], model["max_model_len"] = m, s.cfg.MaxModelLen
			}
			data = append(data, model)
		}
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
	case r.URL.Path == "/version" && r.Method == http.MethodGet && s.cfg.Dialect == DialectVLLM && s.cfg.Version != "":
		writeJSON(w, http.StatusOK, map[string]any{"version": s.cfg.Version})
	case r.URL.Path == "/v1/completions" && r.Method == http.MethodPost:
		s.complete(w, r, false)
	case r.URL.Path == "/v1/chat/completions" && r.Method == http.MethodPost:
		s.complete(w, r, true)
	case r.URL.Path == "/v1/files" || strings.HasPrefix(r.URL.Path, "/v1/files/"):
		if s.authorized(w, r) {
			s.serveFiles(w, r, strings.TrimPrefix(r.URL.Path, "/v1/files"))
		}
	case r.URL.Path == "/v1/batches" || strings.HasPrefix(r.URL.Path, "/v1/batches/"):
		if s.authorized(w, r) {
			s.serveBatches(w, r, strings.TrimPrefix(r.URL.Path, "/v1/batches"))
		}
	default:
		writeError(w, http.StatusNotFound, "NotFoundError", "no route "+r.Method+" "+r.URL.Path)
	}
}

func (s *Server) complete(w http.ResponseWriter, r *http.Request, chat bool) {
	if s.cfg.RequireKey != "" {
		if got := r.Header.Get("Authorization"); got != "Bearer "+s.cfg.RequireKey {
			writeError(w, http.StatusUnauthorized, "AuthenticationError", "invalid API key in header: "+got)
			return
		}
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "BadRequestError", "invalid JSON body: "+err.Error())
		return
	}
	system, user, assistant, history, err := req.turns(chat)
	if s.cfg.Faults.NoQuota {
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"error": map[string]any{"type": "insufficient_quota", "code": "insufficient_quota", "param": nil,
			"message": "You exceeded your current quota, please check your plan and billing details."}})
		return
	}
	if s.cfg.Dialect == DialectOpenAI {
		if no := openAIRefusal(body, req, chat); no != nil {
			no.write(w, true)
			return
		}
		if req.MaxCompletionTokens != nil {
			req.MaxTokens = req.MaxCompletionTokens
		}
	}
	if s.cfg.Dialect == DialectModelStudio && err == nil {
		if no := modelStudioRefusal(req, chat); no != nil {
			writeModelStudioError(w, no)
			return
		}
	}
	if err == nil && req.MaxTokens != nil && *req.MaxTokens < 1 {
		err = fmt.Errorf("max_tokens must be at least 1, got %d", *req.MaxTokens)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "BadRequestError", err.Error())
		return
	}
	if s.cfg.Dialect == DialectVLLM {
		if no := s.vllmRefusal(req, chat, countTokens(system+user+assistant)); no != nil {
			no.write(w, false)
			return
		}
	}
	fault := s.drawFault()
	s.count(func(st *Stats) { st.Requests++ })
	if fault == "error" {
		code := s.cfg.Faults.ErrorCodes[s.intn(len(s.cfg.Faults.ErrorCodes))]
		if code == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "1")
		}
		s.count(func(st *Stats) { st.Errors++ })
		writeError(w, code, "SimulatedError", "simulated failure "+strconv.Itoa(code))
		return
	}

	select {
	case s.seqs <- struct{}{}:
	case <-r.Context().Done():
		return
	}
	defer func() { <-s.seqs }()
	s.count(func(st *Stats) { st.InFlight++; st.MaxInFlight = max(st.MaxInFlight, st.InFlight) })
	defer s.count(func(st *Stats) { st.InFlight-- })

	samp := sampling{Model: req.Model, Temperature: 1, TopP: 1, RepetitionPenalty: 1, MaxTokens: 4096}
	if req.Seed != nil {
		samp.Seed = *req.Seed
	}
	if req.Temperature != nil {
		samp.Temperature = *req.Temperature
	}
	if req.TopP != nil {
		samp.TopP = *req.TopP
	}
	if req.RepetitionPenalty != nil {
		samp.RepetitionPenalty = *req.RepetitionPenalty
	}
	if req.MaxTokens != nil {
		samp.MaxTokens = *req.MaxTokens
	}
	var g generation
	switch system {
	case prompts.ReferenceSystem():
		g = s.model.reference(user, samp)
		if s.cfg.Dialect == DialectOpenAI && isReasoningModel(req.Model) {
			g = g.writtenOut() // a hosted reasoning model shows its derivation
		}
		if s.cfg.Dialect == DialectModelStudio {
			g = g.thoughtThenWritten()
		}
	case prompts.DAGSystem():
		g = s.model.dag(history, strings.Contains(history, "<<<DERIVATION") && len(req.Messages) > 2, samp, s.cfg.Content)
	case prompts.AlignSystem():
		g = s.model.align(history, samp, s.cfg.Content)
	default:
		if lang, ok := scaffoldLanguage(system); ok && strings.HasSuffix(assistant, scaffold.Open) {
			g = s.model.scaffold(user, lang, samp, s.cfg.Content)
		} else {
			g = s.model.generate(system, user, assistant, samp)
		}
	}
	if s.cfg.Dialect == DialectOpenAI && isReasoningModel(req.Model) && s.cfg.HiddenReasoning > 0 {
		g = g.reasonedFirst(s.cfg.HiddenReasoning, samp.MaxTokens)
	}
	g = g.stopAt(req.stops())
	if !req.Stream {
		if !sleepCtx(r.Context(), s.cfg.Latency+time.Duration(len(g.Tokens))*s.cfg.TokenLatency) {
			return
		}
	}
	if s.cfg.Log != nil {
		s.logLine(req, g, fault)
	}
	switch fault {
	case "drop":
		s.count(func(st *Stats) { st.Dropped++ })
		dropHalfway(w)
		return
	case "malformed":
		s.count(func(st *Stats) { st.Malformed++ })
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, `{"id": "cmpl-broken", "choices": [{"text": "`+strings.Repeat("x", 10))
		return
	case "empty":
		s.count(func(st *Stats) { st.Empty++ })
		writeJSON(w, http.StatusOK, emptyReply(s.response(req, g, chat, countTokens(system+user+assistant)), chat, s.cfg.Faults.EmptyForm))
		return
	case "usage":
		s.count(func(st *Stats) { st.BadUsage++ })
		reply := s.response(req, g, chat, countTokens(system+user+assistant))
		reply["usage"].(map[string]any)["completion_tokens"] = s.cfg.Faults.BadUsage
		writeJSON(w, http.StatusOK, reply)
		return
	case "impossible":
		s.count(func(st *Stats) { st.Impossible++ })
		writeRaw(w, impossibleReply(s.response(req, g, chat, countTokens(system+user+assistant)), chat, samp.MaxTokens, s.cfg.Faults.ImpossibleForm))
		return
	case "trickle":
		s.count(func(st *Stats) { st.Trickled++ })
		s.trickle(w, r, s.response(req, g, chat, countTokens(system+user+assistant)))
		return
	}
	promptTokens := countTokens(system + user + assistant)
	var ok bool
	switch {
	case req.Stream && s.cfg.Dialect == DialectModelStudio:
		ok = s.modelStudioStream(w, r, req, g, promptTokens)
	case req.Stream:
		ok = s.stream(w, r, req, g, chat, promptTokens)
	default:
		ok = writeJSON(w, http.StatusOK, s.response(req, g, chat, promptTokens)) == nil
	}
	if ok {
		sum := sha256.Sum256(body)
		s.mu.Lock()
		s.stats.Served++
		s.stats.CompletionTokens += int64(len(g.Tokens))
		s.served[hex.EncodeToString(sum[:])]++
		s.mu.Unlock()
	}
}

// turns recovers (system, user, assistant-so-far) from a request, and
// every message's text in order (a repair request holds the original
// request, the reply and the repair).
func (req request) turns(chat bool) (system, user, assistant, history string, err error) {
	if !chat {
		var prompt string
		if err := json.Unmarshal(req.Prompt, &prompt); err != nil {
			return "", "", "", "", errors.New("prompt must be a string")
		}
		if sys, u, a, ok := transforms.ParseQwen3(prompt); ok {
			return sys, u, a, prompt, nil
		}
		return "", prompt, "", prompt, nil
	}
	if len(req.Messages) == 0 {
		return "", "", "", "", errors.New("messages must not be empty")
	}
	var all []string
	for i, m := range req.Messages {
		all = append(all, m.Content)
		switch {
		case m.Role == "system":
			system = m.Content
		case m.Role == "user":
			user = m.Content
		case m.Role == "assistant" && i == len(req.Messages)-1 && req.ContinueFinalMessage:
			assistant = m.Content
		}
	}
	return system, user, assistant, strings.Join(all, "\n"), nil
}

func (s *Server) response(req request, g generation, chat bool, promptTokens int) map[string]any {
	usage := map[string]any{"prompt_tokens": promptTokens, "completion_tokens": len(g.Tokens), "total_tokens": promptTokens + len(g.Tokens)}
	now := time.Now().Unix()
	if !chat {
		choice := map[string]any{"index": 0, "text": g.Text(), "finish_reason": g.FinishReason, "logprobs": nil, "stop_reason": stopReason(g)}
		if req.ReturnTokenIDs {
			choice["token_ids"] = tokenIDs(g.Tokens)
		}
		return map[string]any{"id": "cmpl-sim", "object": "text_completion", "created": now, "model": req.Model,
			"choices": []any{choice}, "usage": usage}
	}
	if s.cfg.Dialect == DialectOpenAI {
		return s.openAIResponse(req, g, usage, now)
	}
	if s.cfg.Dialect == DialectModelStudio {
		return s.modelStudioResponse(req, g, promptTokens)
	}
	msg := map[string]any{"role": "assistant"}
	if s.cfg.ReasoningField {
		reasoning, content := g.split()
		msg[s.cfg.ReasoningKey], msg["content"] = reasoning, content
	} else {
		msg["content"] = g.Text()
	}
	choice := map[string]any{"index": 0, "message": msg, "finish_reason": g.FinishReason, "stop_reason": stopReason(g)}
	if req.ReturnTokenIDs {
		choice["token_ids"] = tokenIDs(g.Tokens)
	}
	return map[string]any{"id": "chatcmpl-sim", "object": "chat.completion", "created": now, "model": req.Model,
		"choices": []any{choice}, "usage": usage}
}

// stopReason is vLLM's stop_reason: the stop string that ended the
// generation, or null.
func stopReason(g generation) any {
	if g.StopReason == "" {
		return nil
	}
	return g.StopReason
}

// openAIResponse is a chat completion in OpenAI's shape. A reasoning model
// keeps its reasoning to itself: the content is what followed it, and the
// reasoning counts in completion_tokens_details.reasoning_tokens; when the
// budget ends inside the reasoning the content is empty.
func (s *Server) openAIResponse(req request, g generation, usage map[string]any, now int64) map[string]any {
	content, reasoningTokens := g.Text(), 0
	if isReasoningModel(req.Model) && g.Reasoning != "" {
		reasoning, answer := g.split()
		content, reasoningTokens = "", len(tokenize(reasoning))
		if answer != nil {
			content = strings.TrimLeft(*answer, "\n")
		}
	}
	usage["completion_tokens_details"] = map[string]any{"reasoning_tokens": reasoningTokens, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}
	msg := map[string]any{"role": "assistant", "content": content, "refusal": nil, "annotations": []any{}}
	choice := map[string]any{"index": 0, "message": msg, "finish_reason": g.FinishReason, "logprobs": nil}
	return map[string]any{"id": "chatcmpl-sim", "object": "chat.completion", "created": now, "model": req.Model + "-2026-01-01",
		"choices": []any{choice}, "usage": usage, "service_tier": "default", "system_fingerprint": "fp_sim"}
}

// stream writes the generation as server-sent events, a few tokens a chunk.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, req request, g generation, chat bool, promptTokens int) bool {
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	send := func(v any) bool {
		b, _ := json.Marshal(v)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	if !sleepCtx(r.Context(), s.cfg.Latency) {
		return false
	}
	// Pieces of the output in order, each with the field it streams in.
	type piece struct{ field, text string }
	var pieces []piece
	field := "text"
	if chat {
		field = "content"
	}
	if chat && s.cfg.ReasoningField {
		reasoning, content := g.split()
		for _, t := range tokenize(reasoning) {
			pieces = append(pieces, piece{s.cfg.ReasoningKey, t})
		}
		if content != nil {
			for _, t := range tokenize(*content) {
				pieces = append(pieces, piece{"content", t})
			}
		}
	} else {
		for _, t := range g.Tokens {
			pieces = append(pieces, piece{field, t})
		}
	}
	const per = 8
	for i := 0; i < len(pieces); {
		// A chunk holds up to per tokens of one field.
		j := i
		var part strings.Builder
		for j < len(pieces) && j-i < per && pieces[j].field == pieces[i].field {
			part.WriteString(pieces[j].text)
			j++
		}
		var chunk map[string]any
		if chat {
			chunk = map[string]any{"id": "chatcmpl-sim", "object": "chat.completion.chunk", "model": req.Model,
				"choices": []any{map[string]any{"index": 0, "delta": map[string]any{pieces[i].field: part.String()}, "finish_reason": nil}}}
		} else {
			chunk = map[string]any{"id": "cmpl-sim", "object": "text_completion", "model": req.Model,
				"choices": []any{map[string]any{"index": 0, "text": part.String(), "finish_reason": nil}}}
		}
		if !send(chunk) || !sleepCtx(r.Context(), time.Duration(j-i)*s.cfg.TokenLatency) {
			return false
		}
		i = j
	}
	final := map[string]any{"index": 0, "finish_reason": g.FinishReason}
	object := "text_completion"
	if chat {
		final["delta"] = map[string]any{}
		object = "chat.completion.chunk"
	} else {
		final["text"] = ""
	}
	if !send(map[string]any{"id": "sim", "object": object, "model": req.Model, "choices": []any{final}}) {
		return false
	}
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		if !send(map[string]any{"id": "sim", "object": object, "model": req.Model, "choices": []any{},
			"usage": map[string]any{"prompt_tokens": promptTokens, "completion_tokens": len(g.Tokens), "total_tokens": promptTokens + len(g.Tokens)}}) {
			return false
		}
	}
	_, err := io.WriteString(w, "data: [DONE]\n\n")
	return err == nil
}

func (s *Server) drawFault() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.rng.Float64()
	f := s.cfg.Faults
	switch {
	case u < f.ErrorRate:
		return "error"
	case u < f.ErrorRate+f.DropRate:
		return "drop"
	case u < f.ErrorRate+f.DropRate+f.MalformedRate:
		return "malformed"
	case u < f.ErrorRate+f.DropRate+f.MalformedRate+f.EmptyRate:
		return "empty"
	case u < f.ErrorRate+f.DropRate+f.MalformedRate+f.EmptyRate+f.BadUsageRate:
		return "usage"
	case u < f.ErrorRate+f.DropRate+f.MalformedRate+f.EmptyRate+f.BadUsageRate+f.TrickleRate:
		return "trickle"
	case u < f.ErrorRate+f.DropRate+f.MalformedRate+f.EmptyRate+f.BadUsageRate+f.TrickleRate+f.ImpossibleRate:
		return "impossible"
	}
	return ""
}

func (s *Server) intn(n int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rng.IntN(n)
}

func (s *Server) count(f func(*Stats)) {
	s.mu.Lock()
	f(&s.stats)
	s.mu.Unlock()
}

func (s *Server) logLine(req request, g generation, fault string) {
	b, _ := json.Marshal(map[string]any{"model": req.Model, "reasoning_lang": g.ReasoningLang, "input_lang": g.InputLang,
		"level": g.Level, "outcome": g.Outcome, "correct": g.Correct, "tokens": len(g.Tokens), "finish_reason": g.FinishReason, "fault": fault})
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.Log.Write(append(b, '\n'))
}

func tokenIDs(toks []string) []int {
	ids := make([]int, len(toks))
	for i, t := range toks {
		ids[i] = tokenID(t)
	}
	return ids
}

func writeJSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, err = w.Write(b)
	return err
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": status}})
}

// emptyReply turns a reply into one without text, in the given form
// (Faults.EmptyForm).
func emptyReply(reply map[string]any, chat bool, form string) map[string]any {
	if form == "no-choices" {
		reply["choices"] = []any{}
		return reply
	}
	choice := reply["choices"].([]any)[0].(map[string]any)
	field, holder := "text", choice
	if chat {
		holder = choice["message"].(map[string]any)
		delete(holder, "reasoning_content")
		delete(holder, "reasoning")
		field = "content"
	}
	usage := reply["usage"].(map[string]any)
	switch form {
	case "null":
		holder[field] = nil
	case "empty":
		holder[field] = ""
		choice["finish_reason"] = "length"
	case "missing":
		delete(holder, field)
	case "stop":
		holder[field] = ""
		choice["finish_reason"] = "stop"
		if _, ok := choice["token_ids"]; ok {
			choice["token_ids"] = []int{tokenID("<|im_end|>")}
		}
		usage["completion_tokens"] = 1
		usage["total_tokens"] = usage["prompt_tokens"].(int) + 1
	}
	return reply
}

// trickle sends a reply's headers at once and its body one byte every
// TrickleInterval, as a server stuck behind a broken proxy might.
func (s *Server) trickle(w http.ResponseWriter, r *http.Request, reply map[string]any) {
	b, _ := json.Marshal(reply)
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	for i := range b {
		if flusher != nil {
			flusher.Flush()
		}
		if !sleepCtx(r.Context(), s.cfg.Faults.TrickleInterval) {
			return
		}
		if _, err := w.Write(b[i : i+1]); err != nil {
			return
		}
	}
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// dropHalfway promises a body and closes the connection partway through it.
func dropHalfway(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{\"id\": \"cmpl-dropped\", \"choices\": [")
	buf.Flush()
	conn.Close()
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// stops reads the request's stop strings ("stop": "x" or ["x", "y"]).
func (req request) stops() []string {
	var one string
	if json.Unmarshal(req.Stop, &one) == nil && one != "" {
		return []string{one}
	}
	var list []string
	json.Unmarshal(req.Stop, &list)
	return list
}
