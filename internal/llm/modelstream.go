package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// streamChunk is one event of a streamed chat completion as Model Studio
// sends it (OpenAI's chat.completion.chunk, with reasoning_content beside
// content in the delta; the last event, asked for by
// stream_options.include_usage, has no choices and the usage).
type streamChunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Index *int `json:"index"`
		Delta *struct {
			Content          *string `json:"content"`
			ReasoningContent *string `json:"reasoning_content"`
			Reasoning        *string `json:"reasoning"` // vLLM's later name of the same field
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage json.RawMessage `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// streamDone is the data of the event that ends a stream.
const streamDone = "[DONE]"

// assembleStream puts a streamed chat completion (server-sent events, as
// the HTML standard defines them: "data:" lines joined by newlines, an
// event ended by a blank line, ":" comments and other fields ignored) back
// together into the reply a non-streamed request would have had: one
// choice whose message holds the content and reasoning_content deltas
// concatenated in order (content null when no delta carried any, the
// reasoning absent when none carried it), the last finish_reason, the
// model, and the usage of the last event. The result is read and checked
// by readReply like any reply. A stream is malformed (ErrMalformed) when
// it is not UTF-8, when an event is not one honest JSON object (checkBody),
// carries an error, a choice other than the first, or text after its
// choice finished, or when it ends without data: [DONE] or goes on after it.
// An error's message is quoted with key redacted (serverText).
func assembleStream(body []byte, key string) ([]byte, error) {
	if !utf8.Valid(body) {
		return nil, fmt.Errorf("event stream is not valid UTF-8 (byte %d): %w", invalidUTF8At(body), ErrMalformed)
	}
	var (
		model, finish        string
		content, reasoning   bytes.Buffer
		hasContent, hasReasn bool
		finished, done       bool
		usage                json.RawMessage
		events               int
	)
	event := func(data []byte) error {
		events++
		if done {
			return fmt.Errorf("event %d comes after data: [DONE]: %w", events, ErrMalformed)
		}
		if string(data) == streamDone {
			done = true
			return nil
		}
		if err := checkBody(data); err != nil {
			return fmt.Errorf("event %d: %w", events, err)
		}
		var c streamChunk
		if err := json.Unmarshal(data, &c); err != nil {
			return fmt.Errorf("event %d is not a chunk: %v: %w", events, err, ErrMalformed)
		}
		if len(c.Error) > 0 && string(c.Error) != "null" {
			var e struct {
				Message string `json:"message"`
			}
			json.Unmarshal(c.Error, &e)
			return fmt.Errorf("the stream ended with an error at event %d: \"%s\": %w", events, serverText(e.Message, key), ErrMalformed)
		}
		if model == "" {
			model = c.Model
		}
		if len(c.Usage) > 0 && string(c.Usage) != "null" {
			usage = c.Usage
		}
		if len(c.Choices) > 1 {
			return fmt.Errorf("event %d has %d choices for a request of one: %w", events, len(c.Choices), ErrMalformed)
		}
		for _, ch := range c.Choices {
			if ch.Index != nil && *ch.Index != 0 {
				return fmt.Errorf("event %d is of choice %d for a request of one: %w", events, *ch.Index, ErrMalformed)
			}
			if d := ch.Delta; d != nil {
				r := d.ReasoningContent
				if r == nil {
					r = d.Reasoning
				}
				if finished && ((d.Content != nil && *d.Content != "") || (r != nil && *r != "")) {
					return fmt.Errorf("event %d adds text after finish_reason %s: %w", events, quoted(finish), ErrMalformed)
				}
				if d.Content != nil && *d.Content != "" {
					content.WriteString(*d.Content)
					hasContent = true
				}
				if r != nil {
					reasoning.WriteString(*r)
					hasReasn = true
				}
			}
			if ch.FinishReason != nil {
				finish, finished = *ch.FinishReason, true
			}
		}
		return nil
	}
	var data []byte
	pending := false
	for rest := body; len(rest) > 0; {
		line := rest
		if i := bytes.IndexAny(rest, "\r\n"); i >= 0 {
			line = rest[:i]
			if rest[i] == '\r' && i+1 < len(rest) && rest[i+1] == '\n' {
				i++
			}
			rest = rest[i+1:]
		} else {
			rest = nil
		}
		if len(line) == 0 {
			if pending {
				if err := event(bytes.TrimSuffix(data, []byte("\n"))); err != nil {
					return nil, err
				}
			}
			data, pending = data[:0], false
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if len(field) == 0 {
			continue // a comment
		}
		if string(field) != "data" {
			continue // event, id, retry: nothing datg reads
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		data = append(append(data, value...), '\n')
		pending = true
	}
	if pending { // the last event, without the blank line after it
		if err := event(bytes.TrimSuffix(data, []byte("\n"))); err != nil {
			return nil, err
		}
	}
	if !done {
		return nil, fmt.Errorf("event stream ended without data: [DONE] after %d events (cut off): %w", events, ErrMalformed)
	}
	msg := map[string]any{"role": "assistant", "content": nil}
	if hasContent {
		msg["content"] = content.String()
	}
	if hasReasn {
		msg["reasoning_content"] = reasoning.String()
	}
	choice := map[string]any{"index": 0, "message": msg, "finish_reason": nil}
	if finished {
		choice["finish_reason"] = finish
	}
	reply := map[string]any{"object": "chat.completion", "model": model, "choices": []any{choice}}
	if usage != nil {
		reply["usage"] = usage
	}
	return json.Marshal(reply)
}
