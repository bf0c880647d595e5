package generate

import (
	"context"
	"fmt"
	"slices"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
)

// PromptMargin is the room, in tokens, left for a prompt beside a
// generation's budget when a server's context is checked: a PolyMath
// question in any of the study's languages with its system message and
// prefix is well under it. scripts/serve_vllm.sh adds the same margin
// (and a Formula-Retry scaffold's budget) to the largest budget.
const PromptMargin = 2048

// Session is a started generation run: its plan, the journaled client
// (open until Close), and what the servers said of themselves.
type Session struct {
	Plan    *Plan
	Client  llm.Journaled
	Servers []llm.ServerInfo
	Close   func() error
}

// ServersJSON is the servers' description as table metadata.
func (s Session) ServersJSON() string { return llm.ServersJSON(s.Servers) }

// Start plans a validated run's jobs, opens the pool and the journal, and
// asks the servers for their models and context length: a plan whose
// longest request (the largest budget, promptTokens of prompt besides)
// does not fit an endpoint's max_model_len, or whose model an endpoint
// does not serve, is refused before anything is sent. Generation and the
// test-time controls start alike; stage names the run in messages.
func (c Config) Start(ctx context.Context, stage string, promptTokens int) (Session, error) {
	p, err := NewPlan(c.Data, c.Study)
	if err != nil {
		return Session{}, err
	}
	p.prompts = c.Prompts
	if p.Size() == 0 {
		return Session{}, inputerr.Invalid(fmt.Errorf("nothing to %s: directions %v over languages %v give no query", stage, c.Study.Directions, c.Study.Langs))
	}
	client, closeJournal, err := c.target().Open(c.Data, stage, c.Stderr)
	if err != nil {
		return Session{}, err
	}
	s := Session{Plan: p, Client: client, Close: closeJournal}
	s.Servers = client.Pool.Probe(ctx)
	longest := 0
	for _, level := range c.Study.Levels {
		longest = max(longest, c.Study.Budgets[level])
	}
	for _, model := range slices.Sorted(slices.Values(c.Study.Models)) {
		if err := llm.CheckFit(s.Servers, model, longest+promptTokens); err != nil {
			closeJournal()
			return Session{}, fmt.Errorf("%s: %w", stage, err)
		}
	}
	return s, nil
}
