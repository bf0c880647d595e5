package generate

import (
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/transforms"
)

// Sampling is how one request samples.
type Sampling struct {
	MaxTokens                            int
	Temperature, TopP, RepetitionPenalty float64
	TopK                                 int // -1 (off) or at least 1; always sent
	Seed                                 int64
	Stop                                 []string
	// TokenIDs asks the server for the generated token ids (vLLM's
	// return_token_ids), which the loop detector counts.
	TokenIDs bool
}

// Query is the request that continues conv's assistant turn ("<think>\n"
// and the prefix): a raw Qwen3 prompt for api "completions", or chat
// messages whose final assistant message is continued for api "chat".
func Query(api, model string, conv transforms.Conversation, s Sampling) llm.Request {
	seed := s.Seed
	req := llm.Request{
		Model:       model,
		MaxTokens:   s.MaxTokens,
		Temperature: s.Temperature,
		TopP:        s.TopP,
		Seed:        &seed,
		Stop:        s.Stop,
		// vLLM's own sampling fields, sent even at their neutral values: a
		// field left out takes the model's generation_config default
		// (Qwen3's top_k is 20), which nothing would record.
		Extra: map[string]any{"repetition_penalty": s.RepetitionPenalty, "top_k": s.TopK},
	}
	if s.TokenIDs {
		req.Extra["return_token_ids"] = true
	}
	if api == "chat" {
		// The server renders the messages into one text and tokenizes it
		// as a raw prompt: control tokens in them would open turns too.
		conv = conv.Neutralized()
		req.API = llm.APIChat
		req.Messages = []llm.Message{
			{Role: "system", Content: conv.System},
			{Role: "user", Content: conv.User},
			{Role: "assistant", Content: conv.AssistantStart()},
		}
		req.Extra["continue_final_message"] = true
		req.Extra["add_generation_prompt"] = false
		// Qwen3's own template renders a final assistant message after an
		// empty, closed <think></think>, which would switch thinking off;
		// this template renders the turn as RenderQwen3 does.
		req.Extra["chat_template"] = transforms.ChatMLContinueTemplate
	} else {
		req.API = llm.APICompletions
		req.Prompt = transforms.RenderQwen3(conv)
	}
	return req
}
