package simulate

import (
	"strings"

	"github.com/datg/datg/prompts"
)

// continued splits an assistant turn that extends a study prefix (the
// direct-first prefix, after a scaffold or not) with text of the model's
// own: start ends with the prefix, partial is the rest. ok is false when
// the turn has no such prefix or nothing after it.
func continued(assistant string) (start, partial string, ok bool) {
	end := -1
	for _, l := range prompts.Languages() {
		if i := strings.LastIndex(assistant, l.Prefix); i >= 0 && i+len(l.Prefix) > end {
			end = i + len(l.Prefix)
		}
	}
	if end < 0 || end == len(assistant) {
		return "", "", false
	}
	return assistant[:end], assistant[end:], true
}

// continuation continues a partial generation the way a model continues its
// own text: when the partial is the beginning of what the same sampling
// writes after start, the rest of that sample, so that a generation cut at
// a checkpoint and continued reads as one sample; otherwise a new sample
// after the whole turn.
func (m *model) continuation(system, user, start, partial string, s sampling) generation {
	done := countTokens(partial)
	whole := s
	whole.MaxTokens = done + s.MaxTokens
	full := m.sample(system, user, start, whole)
	k, at := 0, 0
	for k < len(full.Tokens) && at < len(partial) {
		at += len(full.Tokens[k])
		k++
	}
	if at != len(partial) || !strings.HasPrefix(full.Text(), partial) {
		return m.sample(system, user, start+partial, s)
	}
	g := full
	g.Tokens = full.Tokens[k:]
	if len(partial) <= len(full.Reasoning) {
		g.Reasoning = full.Reasoning[len(partial):]
	} else {
		g.Reasoning, g.Answer = "", full.Answer[len(partial)-len(full.Reasoning):]
	}
	return g
}
