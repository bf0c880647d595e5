package llm

import (
	"encoding/json"

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
	// Sample tells apart repeated samples of an otherwise identical request;
	// it is not sent.
	Sample int `json:"sample"`
	// Prefer names the endpoint (base URL) to send to when it is up and has
	// room: a continuation of a partial generation goes where its prefix is
	// in the prefix cache. A routing hint, not part of the request's key.
	Prefer string `json:"-"`
}

// Key is the request's content hash: model, prompt or messages, every
// sampling parameter, the seed and the sample index.
func (r Request) Key() journal.Key {
	b, err := json.Marshal(r) // map keys are sorted, so the encoding is canonical
	if err != nil {
		panic("llm: encoding request: " + err.Error())
	}
	return journal.KeyOf(b)
}

// Response is what a server answered, plus how the pool got it.
type Response struct {
	Text             string `json:"text"`                // completion text, or the chat message content
	Reasoning        string `json:"reasoning,omitempty"` // reasoning a server returned apart from the content
	FinishReason     string `json:"finish_reason"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	TokenIDs         []int  `json:"token_ids,omitempty"` // generated token ids, when asked for and returned
	Model            string `json:"model"`
	Endpoint         string `json:"endpoint"`
	Attempts         int    `json:"attempts"`
	LatencyMS        int64  `json:"latency_ms"`
	ReceivedAt       int64  `json:"received_at"` // unix milliseconds
}
