package llm

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/datg/datg/internal/journal"
)

// API names the OpenAI-compatible endpoint a request goes to.
const (
	APICompletions = "completions"      // raw prompt, /v1/completions
	APIChat        = "chat/completions" // messages, /v1/chat/completions
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one LLM call, independent of the client library. Everything in
// it is part of its cache key: two requests share a response only when they
// are the same request.
type Request struct {
	API         string    `json:"api"`
	Model       string    `json:"model"`
	Prompt      string    `json:"prompt,omitempty"`
	Messages    []Message `json:"messages,omitempty"`
	MaxTokens   int       `json:"max_tokens"`
	Temperature float64   `json:"temperature"`
	TopP        float64   `json:"top_p"`
	Seed        *int64    `json:"seed,omitempty"`
	Stop        []string  `json:"stop,omitempty"`
	// Extra holds server-specific sampling fields sent as top-level JSON
	// fields (vLLM: repetition_penalty, top_k, return_token_ids, ...).
	Extra map[string]any `json:"extra,omitempty"`
	// Wire is the form the request takes on the wire (WireSampling, or
	// WireReasoning for an OpenAI reasoning model), and ReasoningEffort the
	// effort it asks such a model for; Pool.Shape sets both. Empty for
	// vLLM, so the keys of journaled vLLM calls stay what they were.
	Wire            string `json:"wire,omitempty"`
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
	// Sample tells apart repeated samples of an otherwise identical request;
	// it is not sent.
	Sample int `json:"sample"`
	// Prefer names the endpoint (base URL) to send to when it is up and has
	// room: a continuation of a partial generation goes where its prefix is
	// in the prefix cache. A routing hint, not part of the request's key.
	Prefer string `json:"-"`
	// KeepSpent hands the caller a reply that spent its whole budget
	// reasoning and shows nothing (SpentOnReasoning), once asked again
	// with a larger budget, as an answer to count; without it such a reply
	// fails the request (ErrBudgetSpentReasoning). Not part of the key.
	KeepSpent bool `json:"-"`
}

// Key is the request's content hash: model, prompt or messages, every
// sampling parameter, the seed and the sample index.
func (r Request) Key() journal.Key {
	b, err := json.Marshal(r) // map keys are sorted, so the encoding is canonical
	if err != nil {
		// Only a request Validate refuses cannot be encoded; it is never
		// sent nor journaled, so any key does.
		return journal.KeyOf([]byte("unencodable request: " + err.Error()))
	}
	return journal.KeyOf(b)
}

// Validate reports a request that cannot be sent as it is (an
// ErrBadRequestConfig): one no server should be blamed for.
func (r Request) Validate() error {
	var problems []string
	if r.API != APICompletions && r.API != APIChat {
		problems = append(problems, fmt.Sprintf("api %q is neither %s nor %s", r.API, APIChat, APICompletions))
	}
	if r.MaxTokens < 0 {
		problems = append(problems, fmt.Sprintf("max_tokens %d is negative", r.MaxTokens))
	}
	// go-openai sends sampling parameters as 32-bit floats: beyond their
	// range a value becomes infinite and cannot be encoded.
	for _, f := range []struct {
		name string
		v    float64
	}{{"temperature", r.Temperature}, {"top_p", r.TopP}} {
		if math.IsNaN(f.v) || math.Abs(f.v) > math.MaxFloat32 {
			problems = append(problems, fmt.Sprintf("%s %v is not a number a request can carry", f.name, f.v))
		}
	}
	extra := make([]string, 0, len(r.Extra))
	for k := range r.Extra {
		extra = append(extra, k)
	}
	sort.Strings(extra)
	for _, k := range extra {
		if _, err := json.Marshal(r.Extra[k]); err != nil {
			problems = append(problems, fmt.Sprintf("field %s cannot be encoded as JSON: %v", k, err))
		}
	}
	if _, err := json.Marshal(r); err != nil && len(problems) == 0 {
		problems = append(problems, fmt.Sprintf("the request cannot be encoded as JSON: %v", err))
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s: %s", ErrBadRequestConfig, r.describe(), strings.Join(problems, "; "))
	}
	return nil
}

// describe names the request in an error: its API, model and key.
func (r Request) describe() string {
	if _, err := json.Marshal(r); err != nil {
		return fmt.Sprintf("%s request for model %q", r.API, r.Model) // it has no key
	}
	return fmt.Sprintf("%s request %.12s for model %q", r.API, r.Key(), r.Model)
}

// Response is what a server answered, plus how the pool got it.
type Response struct {
	Text      string `json:"text"`                // completion text, or the chat message content
	Reasoning string `json:"reasoning,omitempty"` // reasoning a server returned apart from the content
	// HasReasoning says the server returned a reasoning field that was not
	// null (a reasoning parser split the output, possibly into an empty
	// reasoning); ContentNull says the chat content was null (the parser
	// found nothing after </think>, or no </think>). Together with
	// StopReason they tell how to put the output back together.
	HasReasoning bool   `json:"has_reasoning,omitempty"`
	ContentNull  bool   `json:"content_null,omitempty"`
	FinishReason string `json:"finish_reason"`
	// StopReason is vLLM's stop_reason as JSON text: empty when the model
	// ended the sequence (or the server does not say), else the stop string
	// or token id that ended it.
	StopReason string `json:"stop_reason,omitempty"`
	// ReasoningTokens is how many of CompletionTokens a hosted reasoning
	// model spent reasoning (usage.completion_tokens_details).
	ReasoningTokens  int    `json:"reasoning_tokens,omitempty"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	TokenIDs         []int  `json:"token_ids,omitempty"` // generated token ids, when asked for and returned
	Model            string `json:"model"`
	Endpoint         string `json:"endpoint"`
	Attempts         int    `json:"attempts"`
	Batch            string `json:"batch,omitempty"` // the Batch API batch that answered it (--batch)
	LatencyMS        int64  `json:"latency_ms"`
	ReceivedAt       int64  `json:"received_at"` // unix milliseconds
}
