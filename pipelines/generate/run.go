package generate

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/progress"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/traceids"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// Summary says what a run did.
type Summary struct {
	Jobs, New, Resumed, Failed int
	Tokens                     int64
}

// Run samples every trace of the study that is not journaled yet, then
// merges all of the study's traces into the traces table.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	session, err := cfg.Start(ctx, "generate", PromptMargin)
	if err != nil {
		return Summary{}, err
	}
	defer session.Close()
	p, client := session.Plan, session.Client
	// Traces are written as their responses arrive (or, for journaled ones,
	// as they are enumerated), overlapping the table's encoding with the
	// requests; the new table replaces the old one only if the run succeeds.
	m, err := store.NewMerger(cfg.Data, schema.Traces, store.Meta{Stage: "generate", ConfigHash: store.HashConfig(cfg.Study), Servers: session.ServersJSON(), DryRun: cfg.Pool.DryRun != nil})
	if err != nil {
		return Summary{}, err
	}
	defer m.Abort()
	// A derived trace must not replace an imported one that has its id,
	// nor duplicate one imported under another id: refused before any
	// request is sent, with the table locked so no import slips in after.
	if err := traceids.CheckPlan(cfg.Data, p.Keys(study.Base)); err != nil {
		return Summary{}, err
	}
	var mu sync.Mutex
	var tokens int64
	write := func(jb Job, req llm.Request, resp llm.Response) error {
		mu.Lock()
		defer mu.Unlock()
		tokens += int64(resp.CompletionTokens)
		return m.Write(traceRow(jb, req, resp))
	}

	sum := Summary{Jobs: p.Size()}
	prog := progress.Start(cfg.Stderr, "generate", sum.Jobs)
	prog.Extra = func() string { return endpointSummary(client.Pool) }
	err = llm.Fanout(ctx, client, prog,
		func(yield func(Job, llm.Request) bool) error {
			p.Each(func(jb Job) bool { return yield(jb, p.request(jb)) })
			return nil
		},
		func(jb Job, req llm.Request, resp llm.Response, cached bool) error {
			if cached {
				sum.Resumed++ // called on the enumerating goroutine only
			}
			return write(jb, req, resp)
		},
		llm.LogFailures(func(jb Job) string {
			return fmt.Sprintf("%s %s %s->%s", jb.Key.Model, jb.Key.ProblemID, jb.Key.InputLang, jb.Key.ReasoningLang)
		}))
	prog.Finish()
	done, _, failed := prog.Counts()
	sum.New, sum.Failed, sum.Tokens = int(done), int(failed), tokens
	return sum, llm.Finish(err, cfg.KeepGoing, "traces", m.Commit)
}

// traceRow is the trace of a job's one response.
func traceRow(jb Job, req llm.Request, resp llm.Response) schema.Trace {
	t := jb.Trace(jb.Conversation(), resp.Continuation(), req, resp, "generate")
	t.CompletionTokens = int64(resp.CompletionTokens)
	t.Truncated = resp.FinishReason == "length" || (req.MaxTokens > 0 && resp.CompletionTokens >= req.MaxTokens)
	t.MaxTokens = req.Sent().MaxTokens
	t.CreatedAt = time.UnixMilli(resp.ReceivedAt).UTC()
	return t
}

func endpointSummary(p *llm.Pool) string {
	up, n := 0, 0
	for _, s := range p.Status() {
		n++
		if s.Up {
			up++
		}
	}
	s := fmt.Sprintf("endpoints %d/%d up", up, n)
	if r := p.Retries(); r > 0 {
		s += fmt.Sprintf(" retries %d", r)
	}
	return s
}
