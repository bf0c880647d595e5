package generate

import (
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms"
)

// Trace is the traces row of the job's sample, as generate and control
// (source) both write it: the job's identity, the text (conv's assistant
// start, then reasoning: what the model wrote after it), the sampling as
// req sent it and what resp said. The caller sets what depends on how it
// sampled: CompletionTokens, Truncated, MaxTokens and CreatedAt.
func (j Job) Trace(conv transforms.Conversation, reasoning string, req llm.Request, resp llm.Response, source string) schema.Trace {
	text := conv.AssistantStart() + reasoning
	sent := req.Sent()
	return schema.Trace{
		TraceID:           transforms.TraceID(j.Key),
		Model:             j.Key.Model,
		InputLang:         j.Key.InputLang,
		ReasoningLang:     j.Key.ReasoningLang,
		Direction:         j.Direction,
		Level:             j.Key.Level,
		ProblemID:         j.Key.ProblemID,
		Seed:              j.Key.Seed,
		Method:            j.Key.Method,
		Text:              text,
		TextHash:          transforms.TextHash(text),
		Prefix:            conv.Prefix,
		PromptTokens:      int64(resp.PromptTokens),
		FinishReason:      resp.FinishReason,
		Temperature:       sent.Temperature,
		TopP:              sent.TopP,
		TopK:              sent.TopK,
		RepetitionPenalty: sent.RepetitionPenalty,
		ServedModel:       resp.Model,
		RequestKey:        req.Key().String(),
		Endpoint:          resp.Endpoint,
		Source:            source,
		PromptSet:         j.Prompts().Hash(),
	}
}
