package llm

// thinkClose is the tag that ends a reasoning block, which vLLM's reasoning
// parsers (qwen3, deepseek_r1) cut the output at and drop.
const thinkClose = "</think>"

// Continuation is what the model wrote, as one text. A server with a
// reasoning parser returns it split in two, and it is put back together
// exactly as vLLM's Qwen3 parser split it: the reasoning is everything
// before the first </think> and the content everything after (the parser
// keeps every newline and drops only the tag), the content null when
// nothing followed the tag or the tag never came. Those two are told apart
// by how the generation ended: the model ending its sequence (finish_reason
// stop, no stop_reason) ends its turn, which a thinking model does only
// after closing its thinking; a budget or a stop string cuts the thinking
// open. (A model that ends its sequence inside its thinking, which Qwen3
// is not trained to do, would gain a </think> it did not write.) The
// parser also drops a <think> the model wrote and everything before it;
// the caller whose prompt does not end in <think> puts it back.
func (r Response) Continuation() string {
	if !r.HasReasoning && r.Reasoning == "" {
		// No parser, or an older one that left the whole output in the
		// content when it found no <think> in it.
		return r.Text
	}
	if r.ContentNull && (r.FinishReason != "stop" || r.StopReason != "") {
		return r.Reasoning
	}
	return r.Reasoning + thinkClose + r.Text
}

// Split reports whether a reasoning parser split the reply.
func (r Response) Split() bool { return r.HasReasoning || r.Reasoning != "" }
