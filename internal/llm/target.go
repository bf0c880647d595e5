package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/journal"
)

// Target is the servers and model an LLM stage talks to.
type Target struct {
	Endpoints []string // base URLs (one per GPU, or one hosted API)
	Model     string
	API       string // APIChat or APICompletions
	APIKey    string `json:"-"` // from the environment; never stored or logged
	Pool      Options
	// Batch sends the requests of each fan-out through OpenAI's Batch API
	// first (--batch); see fanoutBatched.
	Batch BatchOptions
}

// Validate reports a target that cannot work.
func (t Target) Validate() error {
	var p inputerr.Problems
	if len(t.Endpoints) == 0 {
		p.Add("Endpoints", "no endpoint (base URLs: one vLLM server per GPU, or one hosted API)")
	}
	if t.Model == "" {
		p.Add("Model", "no model")
	}
	if t.API != APIChat && t.API != APICompletions {
		p.Add("API", "%q is neither chat nor completions", t.API)
	}
	p.NestedIn("Pool", t.Pool.Validate())
	p.NestedIn("Batch", t.Batch.Validate())
	// What the endpoints are is known here only when --server said it or
	// they are OpenAI's host; else the servers tell when the pool opens,
	// and Options.Shape makes the checks below there. A batch is paid for
	// and waited on before any answer, so it needs the kind said.
	switch server := ResolveServer(t.Pool.Server, t.Endpoints); {
	case t.Batch.Enabled && server == "":
		p.Check("Batch.Enabled", fmt.Errorf("%w (say --server openai for an OpenAI-compatible API that has it)", ErrBatchUnsupported))
	case t.Batch.Enabled && server != ServerOpenAI:
		p.Check("Batch.Enabled", fmt.Errorf("%w (these endpoints are %s)", ErrBatchUnsupported, server))
	}
	switch server := ResolveServer(t.Pool.Server, t.Endpoints); {
	case server == ServerOpenAI && t.Pool.ReasoningEffort != "" && refusesReasoningEffort(t.Model):
		p.Add("Pool.ReasoningEffort", "%s", effortRefused(t.Model))
	case server == ServerModelStudio && t.Pool.ReasoningEffort != "":
		p.Add("Pool.ReasoningEffort", "is for OpenAI's reasoning models; Model Studio's thinking is enable_thinking, which datg always sends")
	case server == ServerModelStudio && t.API != APIChat:
		p.Add("API", "Model Studio serves %s on chat/completions only (its completions endpoint is for Qwen Coder models)", t.Model)
	case server == ServerVLLM && t.Pool.ReasoningEffort != "":
		p.Add("Pool.ReasoningEffort", "is for OpenAI's reasoning models, and these endpoints are vLLM (say the server is openai if they are OpenAI's)")
	case server == ServerOpenAI && (IsReasoningModel(t.Model) || t.Pool.ReasoningEffort != "") && t.API != APIChat:
		p.Add("API", "OpenAI serves %s on chat/completions only", t.Model)
	}
	return p.Err()
}

// JournalDir is where a run's LLM calls are journaled.
func JournalDir(data string) string { return filepath.Join(data, "journal", "llm") }

// Open starts the pool and opens the run's journal; close it when done.
func (t Target) Open(data string, stage string, stderr io.Writer) (Journaled, func() error, error) {
	opts := t.Pool
	opts.APIKey = t.APIKey
	if opts.Logf == nil && stderr != nil {
		opts.Logf = func(format string, args ...any) { fmt.Fprintf(stderr, "\n"+stage+": "+format+"\n", args...) }
	}
	pool, err := NewPool(t.Endpoints, opts)
	if err != nil {
		return Journaled{}, nil, err
	}
	// What the servers are decides every request's form, and so its
	// journal key: asked before the first is shaped.
	if err := pool.DecideServer(context.Background()); err != nil {
		return Journaled{}, nil, err
	}
	if opts.DryRun != nil {
		// A dry run reads the journal and writes nothing: no journal
		// directory, lock or batch log (it submits no batch).
		j, err := journal.OpenReadOnly(JournalDir(data))
		if err != nil {
			return Journaled{}, nil, err
		}
		return NewJournaled(pool, j), j.Close, nil
	}
	j, err := journal.Open(JournalDir(data))
	if err != nil {
		return Journaled{}, nil, err
	}
	if j.TornLines > 0 && stderr != nil {
		fmt.Fprintf(stderr, "%s: %d response(s) cut off by an earlier kill will be requested again\n", stage, j.TornLines)
	}
	c := NewJournaled(pool, j)
	if !t.Batch.Enabled {
		return c, j.Close, nil
	}
	if c.batch, err = newBatcher(pool, JournalDir(data), t.Batch, stage, stderr); err != nil {
		j.Close()
		return Journaled{}, nil, err
	}
	return c, func() error { return errors.Join(c.batch.close(), j.Close()) }, nil
}
