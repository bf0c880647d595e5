package transforms

import "strings"

// Conversation is one direction-probing query: a solver system message in
// the reasoning language, the problem as the user message, and the
// assistant-side direct-first prefix the model must continue.
type Conversation struct {
	System string
	User   string
	Prefix string // opens the reasoning, e.g. "I will start thinking in English.\nFirst,"
}

// ThinkOpen starts a Qwen3 reasoning block.
const ThinkOpen = "<think>\n"

// ThinkClose ends a Qwen3 reasoning block.
const ThinkClose = "</think>"

// Neutralized is c with the chat control tokens of its system and user
// messages broken (NeutralizeChatTokens): they hold a problem's text, which
// is data and may not open or close a turn. The prefix is left as it is:
// it is the assistant's own text, which may be a model's reasoning being
// continued (Loop-Retry's tail, Formula-Retry's scaffold), whose </think>
// the model wrote as the control token.
func (c Conversation) Neutralized() Conversation {
	c.System, c.User = NeutralizeChatTokens(c.System), NeutralizeChatTokens(c.User)
	return c
}

// AssistantStart is the assistant turn's text up to where the model
// continues: the opened thinking block and the direct-first prefix.
func (c Conversation) AssistantStart() string { return ThinkOpen + c.Prefix }

// RenderQwen3 renders the conversation with Qwen3's chat template (ChatML)
// as a raw completion prompt whose assistant turn is already open and holds
// the direct-first prefix, so the model continues the prefix instead of
// starting its own reasoning. The system and user messages are
// neutralized first (Conversation.Neutralized).
func RenderQwen3(c Conversation) string {
	c = c.Neutralized()
	var b strings.Builder
	b.Grow(len(c.System) + len(c.User) + len(c.Prefix) + 96)
	if c.System != "" {
		b.WriteString("<|im_start|>system\n")
		b.WriteString(c.System)
		b.WriteString("<|im_end|>\n")
	}
	b.WriteString("<|im_start|>user\n")
	b.WriteString(c.User)
	b.WriteString("<|im_end|>\n<|im_start|>assistant\n")
	b.WriteString(c.AssistantStart())
	return b.String()
}

// ParseQwen3 inverts RenderQwen3: it recovers the system message, the user
// message and the assistant text already present. ok is false when the prompt
// is not a single-turn Qwen3 prompt.
func ParseQwen3(prompt string) (system, user, assistant string, ok bool) {
	rest := prompt
	if s, ok := strings.CutPrefix(rest, "<|im_start|>system\n"); ok {
		var found bool
		system, rest, found = strings.Cut(s, "<|im_end|>\n")
		if !found {
			return "", "", "", false
		}
	}
	s, ok := strings.CutPrefix(rest, "<|im_start|>user\n")
	if !ok {
		return "", "", "", false
	}
	user, rest, ok = strings.Cut(s, "<|im_end|>\n<|im_start|>assistant\n")
	if !ok {
		return "", "", "", false
	}
	return system, user, rest, true
}

// ChatMLContinueTemplate is a Jinja chat template (for vLLM's chat_template
// request field) that renders messages as plain ChatML and leaves the final
// assistant message open, so a chat request continues the direct-first
// prefix exactly as the raw prompt of RenderQwen3 does.
const ChatMLContinueTemplate = "{%- for m in messages -%}" +
	"{{- '<|im_start|>' + m['role'] + '\\n' + m['content'] -}}" +
	"{%- if not loop.last or m['role'] != 'assistant' -%}{{- '<|im_end|>\\n' -}}{%- endif -%}" +
	"{%- endfor -%}"

// RenderChatML renders a system and a user message as a ChatML prompt whose
// assistant turn is open, for servers reached through /v1/completions. The
// messages' chat control tokens are broken (NeutralizeChatTokens).
func RenderChatML(system, user string) string {
	system, user = NeutralizeChatTokens(system), NeutralizeChatTokens(user)
	return "<|im_start|>system\n" + system + "<|im_end|>\n<|im_start|>user\n" + user + "<|im_end|>\n<|im_start|>assistant\n"
}
