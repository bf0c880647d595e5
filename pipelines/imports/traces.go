package imports

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms"
)

// Methods a trace may be produced by.
var Methods = []string{"base", "loop-retry", "formula-retry", "reference"}

// Config is one import.
type Config struct {
	Kind string // "traces"
	In   string // JSONL file
	Data string
}

// Summary counts what an import did.
type Summary struct {
	Records, Replaced int
}

// Run imports cfg.In into the run.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	switch cfg.Kind {
	case "traces":
		return importTraces(ctx, cfg)
	}
	return Summary{}, fmt.Errorf("unknown import %q (traces)", cfg.Kind)
}

// traceRecord is one line of a traces import. Pointers tell a missing
// field from a zero one.
type traceRecord struct {
	TraceID           *string  `json:"trace_id"`
	Model             *string  `json:"model"`
	InputLang         *string  `json:"input_lang"`
	ReasoningLang     *string  `json:"reasoning_lang"`
	Direction         *string  `json:"direction"`
	Level             *string  `json:"level"`
	ProblemID         *string  `json:"problem_id"`
	Seed              *float64 `json:"seed"`
	Method            *string  `json:"method"`
	Text              *string  `json:"text"`
	CompletionTokens  *float64 `json:"completion_tokens"`
	PromptTokens      *float64 `json:"prompt_tokens"`
	FinishReason      *string  `json:"finish_reason"`
	MaxTokens         *float64 `json:"max_tokens"`
	Temperature       *float64 `json:"temperature"`
	TopP              *float64 `json:"top_p"`
	RepetitionPenalty *float64 `json:"repetition_penalty"`
}

func importTraces(ctx context.Context, cfg Config) (Summary, error) {
	f, err := os.Open(cfg.In)
	if err != nil {
		return Summary{}, err
	}
	defer f.Close()
	m, err := store.NewMerger(cfg.Data, schema.Traces, store.Meta{Stage: "import traces", ConfigHash: store.HashConfig(filepath.Base(cfg.In))})
	if err != nil {
		return Summary{}, err
	}
	defer m.Abort()
	source := "import:" + filepath.Base(cfg.In)
	now := time.Now().UTC()
	seen := map[string]int{} // trace key -> line
	var sum Summary
	err = eachLine(cfg.In, f, func(line int, b []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		var rec traceRecord
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			return inputerr.At(cfg.In, line, fmt.Errorf("%w: %v", ErrBadRecord, err))
		}
		row, err := rec.trace()
		if err != nil {
			var fe *fieldError
			if errors.As(err, &fe) {
				return inputerr.Field(cfg.In, line, fe.field, fmt.Errorf("%w: %s", ErrBadRecord, fe.msg))
			}
			return inputerr.At(cfg.In, line, err)
		}
		row.Source, row.CreatedAt = source, now
		key := transforms.TraceID(transforms.TraceKey{Model: row.Model, InputLang: row.InputLang, ReasoningLang: row.ReasoningLang,
			Level: row.Level, ProblemID: row.ProblemID, Seed: row.Seed, Method: row.Method})
		if first, dup := seen[key]; dup {
			return inputerr.At(cfg.In, line, fmt.Errorf("%w: same model, languages, problem, seed and method as line %d", ErrDuplicate, first))
		}
		seen[key] = line
		if m.Has(row.TraceID) {
			return inputerr.Field(cfg.In, line, "trace_id", fmt.Errorf("%w: %s is used twice", ErrDuplicate, row.TraceID))
		}
		sum.Records++
		return m.Write(row)
	})
	if err != nil {
		return sum, err
	}
	if sum.Records == 0 {
		return sum, inputerr.At(cfg.In, 0, fmt.Errorf("%w: no traces in the file", ErrBadRecord))
	}
	if err := m.Commit(); err != nil {
		return sum, err
	}
	sum.Replaced = m.Replaced
	return sum, nil
}

type fieldError struct{ field, msg string }

func (e *fieldError) Error() string { return e.field + ": " + e.msg }

func bad(field, format string, args ...any) error {
	return &fieldError{field: field, msg: fmt.Sprintf(format, args...)}
}

func (r traceRecord) trace() (schema.Trace, error) {
	var t schema.Trace
	required := []struct {
		name string
		v    *string
	}{{"model", r.Model}, {"input_lang", r.InputLang}, {"reasoning_lang", r.ReasoningLang},
		{"level", r.Level}, {"problem_id", r.ProblemID}, {"method", r.Method}, {"text", r.Text}}
	for _, f := range required {
		if f.v == nil {
			return t, bad(f.name, "missing")
		}
	}
	if r.Seed == nil {
		return t, bad("seed", "missing")
	}
	if r.CompletionTokens == nil {
		return t, bad("completion_tokens", "missing")
	}
	if *r.Model == "" {
		return t, bad("model", "empty")
	}
	if _, err := prompts.Lookup(*r.InputLang); err != nil {
		return t, bad("input_lang", "%v", err)
	}
	if _, err := prompts.Lookup(*r.ReasoningLang); err != nil {
		return t, bad("reasoning_lang", "%v", err)
	}
	level := *r.Level
	if !transforms.ValidLevel(level) {
		return t, bad("level", "%q is not one of %v", level, transforms.Levels)
	}
	pl, _, err := transforms.ParseProblemID(*r.ProblemID)
	if err != nil {
		return t, bad("problem_id", "%v", err)
	}
	if pl != level {
		return t, bad("problem_id", "%s is not a %s problem", *r.ProblemID, level)
	}
	if !slices.Contains(Methods, *r.Method) {
		return t, bad("method", "%q is not one of %v", *r.Method, Methods)
	}
	dir, err := transforms.Direction(*r.InputLang, *r.ReasoningLang)
	if err != nil {
		return t, bad("reasoning_lang", "%v", err)
	}
	if r.Direction != nil && *r.Direction != dir {
		return t, bad("direction", "%q, but the languages make it %s", *r.Direction, dir)
	}
	seed, ok := integer(*r.Seed)
	if !ok {
		return t, bad("seed", "%v is not an integer", *r.Seed)
	}
	toks, ok := integer(*r.CompletionTokens)
	if !ok || toks < 0 || toks > math.MaxInt32 {
		return t, bad("completion_tokens", "%v is not a token count", *r.CompletionTokens)
	}
	t = schema.Trace{
		Model: *r.Model, InputLang: *r.InputLang, ReasoningLang: *r.ReasoningLang, Direction: dir,
		Level: level, ProblemID: *r.ProblemID, Seed: seed, Method: *r.Method, Text: *r.Text,
		CompletionTokens: int32(toks),
	}
	if r.FinishReason != nil {
		t.FinishReason = *r.FinishReason
		t.Truncated = t.FinishReason == "length"
	}
	counts := []struct {
		name string
		v    *float64
		dst  *int32
	}{{"prompt_tokens", r.PromptTokens, &t.PromptTokens}, {"max_tokens", r.MaxTokens, &t.MaxTokens}}
	for _, c := range counts {
		if c.v != nil {
			n, ok := integer(*c.v)
			if !ok || n < 0 || n > math.MaxInt32 {
				return t, bad(c.name, "%v is not a token count", *c.v)
			}
			*c.dst = int32(n)
		}
	}
	if t.MaxTokens > 0 && t.CompletionTokens >= t.MaxTokens {
		t.Truncated = true
	}
	if r.Temperature != nil {
		t.Temperature = *r.Temperature
	}
	if r.TopP != nil {
		t.TopP = *r.TopP
	}
	if r.RepetitionPenalty != nil {
		t.RepetitionPenalty = *r.RepetitionPenalty
	}
	t.TraceID = transforms.TraceID(transforms.TraceKey{Model: t.Model, InputLang: t.InputLang, ReasoningLang: t.ReasoningLang,
		Level: t.Level, ProblemID: t.ProblemID, Seed: t.Seed, Method: t.Method})
	if r.TraceID != nil {
		if *r.TraceID == "" {
			return t, bad("trace_id", "empty")
		}
		t.TraceID = *r.TraceID
	}
	return t, nil
}

func integer(f float64) (int64, bool) {
	if f != math.Trunc(f) || math.IsInf(f, 0) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// eachLine calls fn for every non-blank line with its 1-based number. Lines
// may be long (a 16k-token trace is ~100 KB).
func eachLine(path string, r io.Reader, fn func(line int, b []byte) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			if ferr := fn(line, b); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return inputerr.At(path, line, err)
		}
	}
}
