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
		PromptTokens            *int64 `json:"prompt_tokens"`
		CompletionTokens        *int64 `json:"completion_tokens"`
		CompletionTokensDetails *struct {
			ReasoningTokens int64 `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	} `json:"usage"`
}

// readReply reads the reply body into out: it checks that the body is one
// honest JSON object (checkBody), that there is exactly one choice with its
// text field present, and that the usage and finish_reason every server
// sends are there, and takes everything from them.
func readReply(body []byte, api string, out *Response) error {
	if err := checkBody(body); err != nil {
		return err
	}
	var raw rawReply
	if err := json.Unmarshal(body, &raw); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	switch n := len(raw.Choices); {
	case n == 0:
		return fmt.Errorf("reply without choices: %w", ErrMalformed)
	case n > 1:
		// datg asks for one (n is never sent, and both servers default to
		// 1): a second choice says the reply is not to this request.
		return fmt.Errorf("reply with %d choices to a request for one: %w", n, ErrMalformed)
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
	if c.FinishReason == nil {
		// vLLM sets it on every finished output ("stop" when the engine
		// gave none), OpenAI on every choice: without it no one can tell a
		// complete answer from a cut one.
		return fmt.Errorf("reply without finish_reason: %w", ErrMalformed)
	}
	out.FinishReason, out.StopReason = *c.FinishReason, ""
	if s := string(c.StopReason); s != "" && s != "null" {
		out.StopReason = s
	}
	if out.Model == "" {
		out.Model = raw.Model
	}
	u := raw.Usage
	if u == nil || u.PromptTokens == nil || u.CompletionTokens == nil {
		// vLLM's and OpenAI's replies always count their tokens (usage is
		// required of a reply that is not streamed): a reply without them
		// would be journaled as costing nothing.
		return fmt.Errorf("reply without usage.prompt_tokens and usage.completion_tokens: %w", ErrMalformed)
	}
	if *u.PromptTokens > maxTokenCount || *u.CompletionTokens > maxTokenCount {
		return fmt.Errorf("token counts %d/%d are out of range: %w", *u.PromptTokens, *u.CompletionTokens, ErrMalformed)
	}
	out.PromptTokens, out.CompletionTokens = int(*u.PromptTokens), int(*u.CompletionTokens)
	if d := u.CompletionTokensDetails; d != nil && d.ReasoningTokens >= 0 && d.ReasoningTokens <= maxTokenCount {
		out.ReasoningTokens = int(d.ReasoningTokens)
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
	if text == 0 && !spentReply(req, resp) && (resp.FinishReason != "stop" || resp.CompletionTokens < 1 || resp.CompletionTokens > maxStopTokens) {
		// A model that stopped at once (its first token the end of the
		// sequence, or a stop string) answers "" with finish_reason stop and
		// the few tokens it decoded, and an OpenAI reasoning model that
		// spent its budget reasoning "" with finish_reason length and the
		// reasoning counted; anything else without text is a server fault,
		// and kept it would be replayed forever.
		return fmt.Errorf("reply without text (finish_reason %s, %d completion tokens): %w", quoted(resp.FinishReason), resp.CompletionTokens, ErrMalformed)
	}
	// A server decodes at most max_tokens (OpenAI's reasoning models:
	// max_completion_tokens, their reasoning included), and counts every
	// token it decoded. Without a max_tokens, every token it returns is at
	// least a byte of text: twice that, with room for special tokens, is a
	// wide margin over any honest count.
	completionMax := req.MaxTokens
	if completionMax <= 0 {
		completionMax = min(2*text+64, maxTokenCount)
	} else if req.Wire == WireThinkingStream {
		// Model Studio's max_tokens bounds the answer; the reasoning has
		// its own bound (the model's longest chain of thought), and its
		// tokens are counted beside the answer's.
		completionMax = min(completionMax+2*len(resp.Reasoning)+64, maxTokenCount)
	}
	// Every prompt token is at least a byte of the prompt, besides what a
	// chat template or a hosted API's own system prompt adds.
	promptMax := min(2*promptBytes(req)+(1<<16), maxTokenCount)
	switch {
	case !answerFinish[resp.FinishReason]:
		return fmt.Errorf("finish_reason %s is none a server ends an answer with (%s): %w", quoted(resp.FinishReason), answerFinishes, ErrMalformed)
	case resp.CompletionTokens < 0 || resp.CompletionTokens > completionMax:
		return fmt.Errorf("completion_tokens %d is out of range (0 to %d for max_tokens %d): %w", resp.CompletionTokens, completionMax, req.MaxTokens, ErrMalformed)
	case text > 0 && resp.CompletionTokens == 0:
		// Every byte of text was decoded from a token the server counts
		// (vLLM: the length of the output's token ids).
		return fmt.Errorf("reply with %d bytes of text and 0 completion tokens: %w", text, ErrMalformed)
	case resp.ReasoningTokens > resp.CompletionTokens:
		return fmt.Errorf("reasoning_tokens %d exceeds completion_tokens %d, which count them: %w", resp.ReasoningTokens, resp.CompletionTokens, ErrMalformed)
	case resp.PromptTokens < 0 || resp.PromptTokens > promptMax:
		return fmt.Errorf("prompt_tokens %d is out of range (0 to %d for this prompt): %w", resp.PromptTokens, promptMax, ErrMalformed)
	case len(resp.TokenIDs) > 0 && len(resp.TokenIDs) != resp.CompletionTokens:
		// vLLM counts completion_tokens as the output's token ids.
		return fmt.Errorf("%d token ids for %d completion tokens: %w", len(resp.TokenIDs), resp.CompletionTokens, ErrMalformed)
	}
	return nil
}

// answerFinish are the finish_reason values of an answer: vLLM's (stop,
// length, repetition; abort and error end no answer: acceptReply) and
// OpenAI's (stop, length, content_filter, tool_calls, function_call).
var answerFinish = map[string]bool{
	"stop": true, "length": true, "repetition": true,
	"content_filter": true, "tool_calls": true, "function_call": true,
}

const answerFinishes = "stop, length, repetition, content_filter, tool_calls, function_call"

// promptBytes is the length of the request's prompt text.
func promptBytes(req Request) int {
	n := len(req.Prompt)
	for _, m := range req.Messages {
		n += len(m.Role) + len(m.Content)
	}
	return n
}
