package llm

import (
	"encoding/json"
	"fmt"
	"math"
)

// rawReply is a reply body as datg reads it itself, whichever way the
// request was sent: go-openai reads a null or missing text as "", and
// drops vLLM's token ids, stop_reason and reasoning fields.
type rawReply struct {
	Model   string `json:"model"`
	Choices []struct {
		Text         *string         `json:"text"` // completions
		TokenIDs     []int           `json:"token_ids"`
		FinishReason *string         `json:"finish_reason"`
		StopReason   json.RawMessage `json:"stop_reason"` // vLLM: null (end of sequence), the stop string, or the stop token id
		Message      *struct {
			Content          *string `json:"content"`
			ReasoningContent *string `json:"reasoning_content"` // vLLM's name until late 2025
			Reasoning        *string `json:"reasoning"`         // vLLM's name since (vllm#27752)
		} `json:"message"` // chat
	} `json:"choices"`
	Usage *struct {
		PromptTokens            int64 `json:"prompt_tokens"`
		CompletionTokens        int64 `json:"completion_tokens"`
		CompletionTokensDetails *struct {
			ReasoningTokens int64 `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	} `json:"usage"`
}

// readReply reads the reply body into out: it checks that there is a first
// choice with its text field present and takes everything from it.
func readReply(body []byte, api string, out *Response) error {
	var raw rawReply
	if err := json.Unmarshal(body, &raw); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if len(raw.Choices) == 0 {
		return fmt.Errorf("reply without choices: %w", ErrMalformed)
	}
	c := raw.Choices[0]
	switch api {
	case APICompletions:
		if c.Text == nil {
			return fmt.Errorf("completion with its text null or missing: %w", ErrMalformed)
		}
		out.Text = *c.Text
	case APIChat:
		// vLLM's reasoning parser answers content null when nothing follows
		// </think>, or when </think> never came: the reasoning is then the
		// whole answer.
		m := c.Message
		if m == nil || (m.Content == nil && m.ReasoningContent == nil && m.Reasoning == nil) {
			return fmt.Errorf("chat completion with content and reasoning null or missing: %w", ErrMalformed)
		}
		out.Text, out.ContentNull = "", m.Content == nil
		if m.Content != nil {
			out.Text = *m.Content
		}
		out.Reasoning, out.HasReasoning = "", false
		for _, r := range []*string{m.Reasoning, m.ReasoningContent} {
			if r != nil {
				out.Reasoning, out.HasReasoning = *r, true
				break
			}
		}
	}
	out.FinishReason, out.StopReason = "", ""
	if c.FinishReason != nil {
		out.FinishReason = *c.FinishReason
	}
	if s := string(c.StopReason); s != "" && s != "null" {
		out.StopReason = s
	}
	if out.Model == "" {
		out.Model = raw.Model
	}
	if raw.Usage != nil {
		if raw.Usage.PromptTokens > maxTokenCount || raw.Usage.CompletionTokens > maxTokenCount {
			return fmt.Errorf("token counts %d/%d are out of range: %w", raw.Usage.PromptTokens, raw.Usage.CompletionTokens, ErrMalformed)
		}
		out.PromptTokens, out.CompletionTokens = int(raw.Usage.PromptTokens), int(raw.Usage.CompletionTokens)
		if d := raw.Usage.CompletionTokensDetails; d != nil && d.ReasoningTokens >= 0 && d.ReasoningTokens <= maxTokenCount {
			out.ReasoningTokens = int(d.ReasoningTokens)
		}
	}
	out.TokenIDs = c.TokenIDs
	return nil
}

// maxTokenCount bounds any token count: no prompt or generation comes near
// 2^31 tokens, and a count beyond it is garbage that would wrap wherever it
// is stored narrower.
const maxTokenCount = math.MaxInt32

// maxStopTokens is the most tokens a reply without text may have decoded:
// the end-of-sequence token or a stop string, which the text leaves out.
const maxStopTokens = 16

// checkReply reports a response no server could have given to req, fresh
// or journaled by an older datg: no text where the model did not stop at
// once, or token counts out of range.
func checkReply(req Request, resp Response) error {
	if staleSplit(resp) {
		return fmt.Errorf("reply split by a reasoning parser, journaled without how: %w", ErrMalformed)
	}
	text := len(resp.Text) + len(resp.Reasoning)
	if text == 0 && (resp.FinishReason != "stop" || resp.CompletionTokens < 1 || resp.CompletionTokens > maxStopTokens) {
		// A model that stopped at once (its first token the end of the
		// sequence, or a stop string) answers "" with finish_reason stop and
		// the few tokens it decoded; anything else without text is a server
		// fault, and kept it would be replayed forever.
		return fmt.Errorf("reply without text (finish_reason %q, %d completion tokens): %w", resp.FinishReason, resp.CompletionTokens, ErrMalformed)
	}
	// A server decodes at most max_tokens, and every token it returns is at
	// least a byte of text (a server that does not count reasoning against
	// max_tokens returns it): twice either, with room for special tokens,
	// is a wide margin over any honest count.
	completionMax := min(2*max(req.MaxTokens, text)+64, maxTokenCount)
	// Every prompt token is at least a byte of the prompt, besides what a
	// chat template or a hosted API's own system prompt adds.
	promptMax := min(2*promptBytes(req)+(1<<16), maxTokenCount)
	switch {
	case resp.CompletionTokens < 0 || resp.CompletionTokens > completionMax:
		return fmt.Errorf("completion_tokens %d is out of range (0 to %d for max_tokens %d): %w", resp.CompletionTokens, completionMax, req.MaxTokens, ErrMalformed)
	case resp.PromptTokens < 0 || resp.PromptTokens > promptMax:
		return fmt.Errorf("prompt_tokens %d is out of range (0 to %d for this prompt): %w", resp.PromptTokens, promptMax, ErrMalformed)
	case len(resp.TokenIDs) > completionMax:
		return fmt.Errorf("%d token ids for max_tokens %d: %w", len(resp.TokenIDs), req.MaxTokens, ErrMalformed)
	}
	return nil
}

// promptBytes is the length of the request's prompt text.
func promptBytes(req Request) int {
	n := len(req.Prompt)
	for _, m := range req.Messages {
		n += len(m.Role) + len(m.Content)
	}
	return n
}
