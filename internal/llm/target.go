package llm

import (
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
	var errs []error
	if len(t.Endpoints) == 0 {
		errs = append(errs, errors.New("no endpoint: pass --base-url URL (or --endpoints URL,...)"))
	}
	if t.Model == "" {
		errs = append(errs, errors.New("no model: pass --model NAME"))
	}
	if t.API != APIChat && t.API != APICompletions {
		errs = append(errs, fmt.Errorf("api %q is neither chat nor completions", t.API))
	}
	if err := t.Pool.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := t.Batch.Validate(); err != nil {
		errs = append(errs, err)
	}
	if server := ResolveServer(t.Pool.Server, t.Endpoints); t.Batch.Enabled && server != ServerOpenAI {
		errs = append(errs, fmt.Errorf("%w (these endpoints are %s)", ErrBatchUnsupported, server))
	}
	switch server := ResolveServer(t.Pool.Server, t.Endpoints); {
	case server == ServerVLLM && t.Pool.ReasoningEffort != "":
		errs = append(errs, errors.New("--reasoning-effort is for OpenAI's reasoning models, and these endpoints are vLLM (pass --server openai if they are OpenAI's)"))
	case server == ServerOpenAI && (IsReasoningModel(t.Model) || t.Pool.ReasoningEffort != "") && t.API != APIChat:
		errs = append(errs, fmt.Errorf("OpenAI serves %s on chat/completions only: pass --api chat", t.Model))
	}
	return inputerr.Invalid(errs...)
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
