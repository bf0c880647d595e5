package llm

import (
	"context"
	"fmt"
	"strings"
)

// ReasoningBudget is the default token budget of a request whose budget
// also pays for the model's reasoning: an OpenAI reasoning model (o-series,
// GPT-5 and later) on a server that is not vLLM, whose
// max_completion_tokens counts the reasoning it does not show. OpenAI's
// reasoning guide recommends "reserving at least 25,000 tokens for
// reasoning and outputs" when starting with these models; 32,768 is the
// power of two above. A stage's own default (align's 4,096) is for the
// visible reply alone.
const ReasoningBudget = 32768

// MaxReasoningBudget caps the larger budget a request is asked again with
// when its reply spent the budget reasoning (SpentOnReasoning): twice the
// budget, at most this, which every OpenAI reasoning model accepts (the
// o-series generates at most 100,000 completion tokens, GPT-5.x 128,000).
const MaxReasoningBudget = 100000

// countsReasoning reports whether a request for model goes in the form
// whose budget counts the model's reasoning (WireReasoning).
func (o Options) countsReasoning(model string) bool {
	return o.formFor(model) == ServerOpenAI && (IsReasoningModel(model) || o.ReasoningEffort != "")
}

// Budget is a stage's token budget for requests to model: given when set
// (above 0), else ReasoningBudget when the budget counts the model's
// reasoning (the endpoints' kind decided: DecideServer), else fallback,
// the stage's budget of a visible reply.
func (p *Pool) Budget(model string, given, fallback int) int {
	switch {
	case given > 0:
		return given
	case p.DecideServer(context.Background()) == nil && p.opts.countsReasoning(model):
		return ReasoningBudget
	}
	return fallback
}

// SpentOnReasoning reports whether a reply ran out of budget while its
// model reasoned: finish_reason length, on a request whose budget counts
// the reasoning (WireReasoning), with no visible answer or with reasoning
// tokens at least nine tenths of the budget. OpenAI returns such a reply
// with empty content ("you could incur costs for input and reasoning tokens
// without receiving a visible response").
func SpentOnReasoning(req Request, resp Response) bool {
	return req.Wire == WireReasoning && resp.FinishReason == "length" &&
		(strings.TrimSpace(resp.Text) == "" || 10*resp.ReasoningTokens >= 9*req.MaxTokens)
}

// spentReply is a reply OpenAI gives when its reasoning model spent the
// whole budget reasoning: no text, finish_reason length, the reasoning
// counted. It is an answer (paid for, journaled), not a fault.
func spentReply(req Request, resp Response) bool {
	return req.Wire == WireReasoning && resp.FinishReason == "length" && resp.Text == "" && resp.ReasoningTokens > 0
}

// grownBudget is req asked once more with a larger budget, for a reply
// that spent req's budget reasoning: twice the budget, at most
// MaxReasoningBudget. ok is false when the reply did not spend it, or the
// budget cannot grow.
func grownBudget(req Request, resp Response) (Request, bool) {
	if !SpentOnReasoning(req, resp) || req.MaxTokens >= MaxReasoningBudget {
		return req, false
	}
	req.MaxTokens = min(2*req.MaxTokens, MaxReasoningBudget)
	return req, true
}

// spentError fails a request whose final reply spent its budget reasoning
// and shows nothing, unless the request keeps such replies (KeepSpent):
// its caller would read an empty answer.
func spentError(req Request, resp Response) error {
	if req.KeepSpent || !SpentOnReasoning(req, resp) || resp.Text != "" {
		return nil
	}
	return fmt.Errorf("%w: %w: %s: %d of the %d completion tokens went to reasoning and none to the answer (finish_reason length)",
		ErrRejected, ErrBudgetSpentReasoning, req.describe(), resp.ReasoningTokens, req.MaxTokens)
}
