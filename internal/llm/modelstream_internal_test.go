package llm

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// chunk is one chat.completion.chunk event of a stream.
func chunk(delta, finish string) string {
	if finish == "" {
		finish = "null"
	}
	return `data: {"id":"c","object":"chat.completion.chunk","model":"qwen3.6-plus","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}` + "\n\n"
}

const usageEvent = `data: {"id":"c","object":"chat.completion.chunk","model":"qwen3.6-plus","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":4,"total_tokens":9,"completion_tokens_details":{"reasoning_tokens":2}}}` + "\n\n"

const doneEvent = "data: [DONE]\n\n"

// The events of a stream make the reply a non-streamed request gets, read
// as the HTML standard reads server-sent events: CRLF or CR line ends, a
// data line without the space after the colon, comments and other fields
// ignored, and the last event without its blank line.
func TestAssembleStreamReadsServerSentEvents(t *testing.T) {
	think := chunk(`{"role":"assistant","content":null,"reasoning_content":"a b"}`, "")
	answer := chunk(`{"content":"c d","reasoning_content":null}`, "")
	end := chunk(`{"content":""}`, `"stop"`)
	cases := map[string]string{
		"lf":             think + answer + end + usageEvent + doneEvent,
		"crlf":           strings.ReplaceAll(think+answer+end+usageEvent+doneEvent, "\n", "\r\n"),
		"cr":             strings.ReplaceAll(think+answer+end+usageEvent+doneEvent, "\n", "\r"),
		"no-space":       strings.ReplaceAll(think+answer+end+usageEvent+doneEvent, "data: ", "data:"),
		"comments":       ": keep-alive\n\n" + "event: message\nid: 1\n" + think + "retry: 10\n\n" + answer + end + usageEvent + doneEvent,
		"no-final-blank": think + answer + end + usageEvent + "data: [DONE]",
	}
	for name, stream := range cases {
		body, err := assembleStream([]byte(stream), "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var out Response
		if err := readReply(body, APIChat, &out); err != nil {
			t.Fatalf("%s: %v (%s)", name, err, body)
		}
		if out.Reasoning != "a b" || out.Text != "c d" || out.FinishReason != "stop" || out.CompletionTokens != 4 || out.ReasoningTokens != 2 || out.ContentNull {
			t.Fatalf("%s: read %+v", name, out)
		}
	}
	// An event's data on several lines is one text joined by newlines.
	body, err := assembleStream([]byte("data: {\"model\":\"m\",\ndata: \"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}\n\n"+usageEvent+doneEvent), "")
	if err != nil || !bytes.Contains(body, []byte(`"content":"x"`)) {
		t.Fatalf("multi-line data: %s, %v", body, err)
	}
}

// A stream without any content delta (the model ended inside its
// thinking) has its content null, as a non-streamed reply would.
func TestAssembleStreamWithoutContent(t *testing.T) {
	body, err := assembleStream([]byte(chunk(`{"reasoning_content":"only thinking"}`, `"length"`)+usageEvent+doneEvent), "")
	if err != nil {
		t.Fatal(err)
	}
	var out Response
	if err := readReply(body, APIChat, &out); err != nil {
		t.Fatal(err)
	}
	if !out.ContentNull || !out.HasReasoning || out.Reasoning != "only thinking" || out.FinishReason != "length" {
		t.Fatalf("read %+v", out)
	}
}

// Streams no server sends are malformed, each saying what was wrong; a
// stream error's message has the API key redacted.
func TestAssembleStreamRefusesBrokenStreams(t *testing.T) {
	ok := chunk(`{"content":"x"}`, `"stop"`)
	cases := map[string]struct{ stream, want string }{
		"no done":       {ok + usageEvent, "without data: [DONE]"},
		"after done":    {ok + doneEvent + usageEvent, "after data: [DONE]"},
		"two choices":   {`data: {"choices":[{"index":0,"delta":{}},{"index":1,"delta":{}}]}` + "\n\n" + doneEvent, "2 choices"},
		"other choice":  {`data: {"choices":[{"index":1,"delta":{"content":"y"}}]}` + "\n\n" + doneEvent, "choice 1"},
		"after finish":  {ok + chunk(`{"content":"more"}`, "") + doneEvent, "after finish_reason"},
		"error":         {`data: {"error":{"message":"quota of sk-secret is spent","code":"Arrearage"}}` + "\n\n" + doneEvent, "ended with an error"},
		"not json":      {"data: {oops\n\n" + doneEvent, "not a chunk"},
		"duplicate key": {`data: {"choices":[],"choices":[{"index":0,"delta":{"content":"z"}}]}` + "\n\n" + doneEvent, "twice"},
		"not utf-8":     {"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\xff\"}}]}\n\n" + doneEvent, "UTF-8"},
	}
	for name, c := range cases {
		_, err := assembleStream([]byte(c.stream), "sk-secret")
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want malformed saying %q", name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "sk-secret") {
			t.Errorf("%s: the key is in the error: %v", name, err)
		}
	}
}

// Whatever bytes a server streams, the assembler returns a reply or an
// error, never panics, and takes time in proportion to the bytes (each
// event is decoded once).
func FuzzAssembleStream(f *testing.F) {
	f.Add([]byte(chunk(`{"reasoning_content":"a"}`, "") + chunk(`{"content":"b"}`, `"stop"`) + usageEvent + doneEvent))
	f.Add([]byte("data: [DONE]\r\n\r\n"))
	f.Add([]byte(":\n\ndata:\ndata:\n\n"))
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\ud800\"}}]}\n\n"))
	f.Fuzz(func(t *testing.T, stream []byte) {
		start := time.Now()
		body, err := assembleStream(stream, "")
		if took := time.Since(start); took > 2*time.Second {
			t.Fatalf("%d bytes took %v", len(stream), took)
		}
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error not ErrMalformed: %v", err)
			}
			return
		}
		var out Response
		readReply(body, APIChat, &out) // may refuse it; must not panic
	})
}
