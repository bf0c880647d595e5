package llm

import (
	"slices"
	"strconv"
	"strings"
)

// thinkClose is the tag that ends a reasoning block, which vLLM's reasoning
// parsers (qwen3, deepseek_r1) cut the output at and drop.
const thinkClose = "</think>"

// qwen3ThinkCloseID is the token id of </think> in Qwen3's vocabulary.
const qwen3ThinkCloseID = 151668

// Continuation is what the model wrote, as one text (see ContinuationAfter),
// for a prompt whose thinking is still open.
func (r Response) Continuation() string { return r.ContinuationAfter(false) }

// ContinuationAfter is what the model wrote, as one text. A server with a
// reasoning parser returns it split in two, and it is put back together
// exactly as vLLM's Qwen3 parser split it: the reasoning is everything
// before the first </think> and the content everything after (the parser
// keeps every newline and drops only the tag), the content null when
// nothing followed the tag or the tag never came. promptClosed says the
// prompt already closed the thinking (a continuation past </think>): the
// parser sees only the output, finds no tag, and returns it all as
// reasoning.
//
// A null content is told apart by how the generation ended: the model
// ending its sequence (finish_reason stop with no stop_reason, or with a
// stop token id: vLLM reports Qwen3's second end-of-sequence id so) ends
// its turn, which a thinking model does only after closing its thinking; a
// budget or a stop string cuts the thinking open, unless the returned
// token ids (Qwen3 models) show the budget ended on the tag itself. An
// empty output is empty. (A model that ends its sequence inside its
// thinking, which Qwen3 is not trained to do, would gain a </think> it did
// not write.) The parser also drops a <think> the model wrote and
// everything before it; a caller whose prompt does not end in <think> puts
// the tag back.
func (r Response) ContinuationAfter(promptClosed bool) string {
	switch {
	case !r.Split():
		// No parser, or an older one that left the whole output in the
		// content when it found no <think> in it.
		return r.Text
	case !r.ContentNull:
		return r.Reasoning + thinkClose + r.Text
	case !promptClosed && r.closedThinking():
		return r.Reasoning + thinkClose
	}
	return r.Reasoning
}

// closedThinking reports whether an output the parser returned with a null
// content ended with </think> (see ContinuationAfter).
func (r Response) closedThinking() bool {
	if strings.Contains(strings.ToLower(r.Model), "qwen3") && slices.Contains(r.TokenIDs, qwen3ThinkCloseID) {
		return true
	}
	if r.Reasoning == "" && r.CompletionTokens <= 1 {
		return false // nothing, or only the end of the sequence, was written
	}
	if r.FinishReason != "stop" {
		return false
	}
	_, err := strconv.Atoi(r.StopReason)
	return r.StopReason == "" || err == nil
}

// Split reports whether a reasoning parser split the reply.
func (r Response) Split() bool { return r.HasReasoning || r.Reasoning != "" }

// staleSplit reports a journaled reply split by a reasoning parser before
// datg recorded how (no has_reasoning flag): whether its content was null
// is lost, so it cannot be put back together exactly and is asked again.
func staleSplit(r Response) bool { return r.Reasoning != "" && !r.HasReasoning }
