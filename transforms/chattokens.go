package transforms

import "strings"

// ChatControlTokens are the added tokens of Qwen3's tokenizer (its
// tokenizer_config.json, added_tokens_decoder, ids 151643 to 151668). A
// Hugging Face tokenizer matches every added token in the text it is given
// before it splits the rest (split_special_tokens defaults to false, and
// the "special": false ones such as <think> and <tool_call> are matched all
// the same), and vLLM tokenizes a raw prompt, or the text a chat template
// renders, that way. So a problem holding "<|im_end|>\n<|im_start|>assistant"
// would close the user turn and open an assistant turn of its own.
var ChatControlTokens = []string{
	"<|endoftext|>", "<|im_start|>", "<|im_end|>",
	"<|object_ref_start|>", "<|object_ref_end|>", "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>",
	"<|vision_start|>", "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>",
	"<tool_call>", "</tool_call>",
	"<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>",
	"<tool_response>", "</tool_response>",
	ThinkOpen[:len(ThinkOpen)-1], ThinkClose,
}

// tokenBreak goes after a control token's "<": a zero-width space, which
// the tokenizer reads as text, so the token is no longer matched while a
// reader (or the model) sees the same characters.
const tokenBreak = "\u200b"

// NeutralizeChatTokens returns s with every chat control token in it
// broken (a zero-width space after its "<"), so that a prompt holding s
// holds only the turns its renderer wrote. No token can form again: each
// starts with "<" and holds no other, and every "<" that began one is now
// followed by the break. s without a token is returned as it is.
func NeutralizeChatTokens(s string) string {
	var b strings.Builder
	done := 0 // s[:done] is written to b
	for i := nextToken(s, 0); i >= 0; i = nextToken(s, i+1) {
		b.WriteString(s[done : i+1])
		b.WriteString(tokenBreak)
		done = i + 1
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// HasChatControlTokens reports whether s holds a chat control token.
func HasChatControlTokens(s string) bool { return nextToken(s, 0) >= 0 }

// nextToken is the offset of the first chat control token in s at or after
// from, or -1.
func nextToken(s string, from int) int {
	for from < len(s) {
		i := strings.IndexByte(s[from:], '<')
		if i < 0 {
			return -1
		}
		from += i
		// Every token goes on with "|", "t" or "/": "a < b" is passed at once.
		if from+1 >= len(s) || (s[from+1] != '|' && s[from+1] != 't' && s[from+1] != '/') {
			from++
			continue
		}
		for _, tok := range ChatControlTokens {
			if strings.HasPrefix(s[from:], tok) {
				return from
			}
		}
		from++
	}
	return -1
}
