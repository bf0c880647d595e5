package simulate

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// invalidUTF8 stands in the text until the reply is encoded, then becomes
// bytes that are not UTF-8 (json.Marshal would turn them into U+FFFD).
const invalidUTF8 = "@@not-utf-8@@"

// impossibleReply is a reply's body turned into one no vLLM or OpenAI
// server gives, as form (one of ImpossibleForms) says. Each is valid JSON
// that encoding/json decodes without an error, and so would pass for an
// answer unless its shape is checked.
func impossibleReply(reply map[string]any, chat bool, maxTokens int, form string) []byte {
	choice := reply["choices"].([]any)[0].(map[string]any)
	usage := reply["usage"].(map[string]any)
	var duplicate []any
	switch form {
	case "no-usage":
		delete(reply, "usage")
	case "zero-tokens":
		usage["completion_tokens"] = 0
		usage["total_tokens"] = usage["prompt_tokens"]
		delete(choice, "token_ids")
	case "over-budget":
		usage["completion_tokens"] = maxTokens + 1000
		choice["finish_reason"] = "stop"
		delete(choice, "token_ids")
	case "two-choices":
		second := map[string]any{}
		for k, v := range choice {
			second[k] = v
		}
		second["index"] = 1
		setText(second, chat, "a second answer nobody asked for")
		reply["choices"] = []any{choice, second}
	case "duplicate-key":
		other := map[string]any{}
		for k, v := range choice {
			other[k] = v
		}
		setText(other, chat, "the answer the first choices key holds")
		duplicate = []any{other}
	case "control-finish-reason":
		choice["finish_reason"] = "stop\x00\n"
	case "invalid-utf8":
		setText(choice, chat, text(choice, chat)+invalidUTF8)
	}
	b, _ := json.Marshal(reply)
	switch form {
	case "duplicate-key":
		first, _ := json.Marshal(duplicate)
		b = append([]byte(`{"choices":`+string(first)+`,`), b[1:]...)
	case "invalid-utf8":
		b = bytes.Replace(b, []byte(invalidUTF8), []byte{0xff, 0xfe, 'x', 0xc3}, 1)
	}
	return b
}

// text is a choice's text: the completion's, or the chat message's content.
func text(choice map[string]any, chat bool) string {
	if chat {
		s, _ := choice["message"].(map[string]any)["content"].(string)
		return s
	}
	s, _ := choice["text"].(string)
	return s
}

// setText replaces a choice's text (a copy's message is copied first).
func setText(choice map[string]any, chat bool, s string) {
	if !chat {
		choice["text"] = s
		return
	}
	msg := map[string]any{}
	for k, v := range choice["message"].(map[string]any) {
		msg[k] = v
	}
	msg["content"] = s
	choice["message"] = msg
}

// writeRaw answers 200 with a JSON body as it is.
func writeRaw(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// brokenModels answers /v1/models as Faults.Models says.
func (s *Server) brokenModels(w http.ResponseWriter) {
	switch s.cfg.Faults.Models {
	case "error":
		writeError(w, http.StatusInternalServerError, "InternalServerError", "the model list is unavailable")
	case "garbage":
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		w.Write([]byte("<html><body>502 Bad Gateway</body></html>"))
	case "empty":
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{}})
	}
}
