package imports

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/datg/datg/internal/bounds"
	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/strictjson"
	"github.com/datg/datg/internal/traceids"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// Config is one import.
type Config struct {
	Kind    string // traces, dags, alignments or annotations
	In      string // JSONL file
	Data    string
	Aligner string // name of who aligned (alignments; default import:<file>)
}

// Summary counts what an import did.
type Summary struct {
	Records  int
	Replaced int // rows (traces, DAGs, alignments, annotations) that were in the run and were replaced
	// Changed counts the replaced DAGs whose content differs: alignments
	// made against them are stale until aligned again.
	Changed int
	Invalid int // DAGs that failed validation, alignments without a usable reply
	// Capped counts the alignments' evidence spans a cap of the locator
	// stopped (alignment_errors kind locate-capped).
	Capped int
}

// Kinds of import.
var Kinds = []string{"traces", "dags", "alignments", "annotations"}

// Run imports cfg.In into the run.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	switch cfg.Kind {
	case "traces":
		return importTraces(ctx, cfg)
	case "dags":
		return importDAGs(ctx, cfg)
	case "alignments":
		return importAlignments(ctx, cfg)
	case "annotations":
		return importAnnotations(ctx, cfg)
	}
	panic("imports: Validate let kind " + cfg.Kind + " through")
}

// DefaultConfig imports into the default run directory; Kind and In are
// for the caller to say.
func DefaultConfig() Config { return Config{Data: store.DefaultDir} }

// Validate checks the kind and that there is a file to read.
func (c Config) Validate() error {
	var p inputerr.Problems
	if !slices.Contains(Kinds, c.Kind) {
		p.Add("Kind", "unknown import %q (%v)", c.Kind, Kinds)
	}
	if c.In == "" {
		p.Add("In", "no file to import")
	}
	p.Nested(store.CheckDir(c.Data))
	return p.Err()
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
	TopK              *float64 `json:"top_k"`
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
	known, err := knownProblems(cfg.Data)
	if err != nil {
		return Summary{}, err
	}
	// Each trace is checked against the traces the run already holds (one
	// row per trace): in sorted runs too, read with the table at the end,
	// when there is a table.
	held, err := store.NumRows(cfg.Data, schema.Traces.Table)
	if err != nil {
		return Summary{}, err
	}
	var collisions *traceids.Collisions
	if held > 0 {
		collisions = traceids.NewCollisions(m.LineKeys("held-ids"), m.LineKeys("held-identities"))
	}
	// A trace's identity and id may each be given once. They are checked
	// at the end, or at the first other error, in sorted runs rather than
	// sets held to the end (about 70 bytes a trace with the writer's keys):
	// firstRefused reports the repeat, or the trace the table holds, a check
	// line by line stops at.
	identities, ids := m.LineKeys("identities"), m.LineKeys("ids")
	firstRefused := func() error {
		_, line, first, found, err := identities.FirstRepeat()
		if err != nil {
			return err
		}
		id, idLine, _, idFound, err := ids.FirstRepeat()
		if err != nil {
			return err
		}
		heldLine := 0 // the first line whose trace collides with one the table holds
		var heldErr error
		if collisions != nil {
			if heldLine, heldErr = collisions.First(cfg.Data); heldLine == 0 && heldErr != nil {
				return heldErr
			}
		}
		// A line's identity is checked before its id, and both before the
		// traces the table holds.
		earliest := func(l int, others ...int) bool {
			for _, o := range others {
				if o != 0 && o < l {
					return false
				}
			}
			return l != 0
		}
		if !found {
			line = 0
		}
		if !idFound {
			idLine = 0
		}
		switch {
		case earliest(line, idLine, heldLine):
			return inputerr.At(cfg.In, line, fmt.Errorf("%w: same model, languages, problem, seed and method as line %d", ErrDuplicate, first))
		case earliest(idLine, heldLine):
			return inputerr.Field(cfg.In, idLine, "trace_id", fmt.Errorf("%w: %s is used twice", ErrDuplicate, id))
		case heldLine != 0:
			if errors.Is(heldErr, traceids.ErrHeldUnderAnotherID) {
				heldErr = fmt.Errorf("%w; give that id or none", heldErr)
			}
			return inputerr.Field(cfg.In, heldLine, "trace_id", fmt.Errorf("%w: %w", ErrDuplicate, heldErr))
		}
		return nil
	}
	var sum Summary
	err = eachRecord(ctx, cfg.In, f, func(line int, rec *traceRecord) error {
		row, err := rec.trace()
		if err != nil {
			var fe *fieldError
			if errors.As(err, &fe) {
				return inputerr.Field(cfg.In, line, fe.field, fmt.Errorf("%w: %w", ErrBadRecord, fe.err))
			}
			return inputerr.At(cfg.In, line, err)
		}
		row.Source, row.CreatedAt, row.TextHash = source, now, transforms.TextHash(row.Text)
		if !known[row.ProblemID] {
			return inputerr.Field(cfg.In, line, "problem_id", fmt.Errorf("%w: %s is not in the problems table (ingest it first)", ErrBadRecord, row.ProblemID))
		}
		key := traceids.KeyOf(&row)
		if err := identities.Add(key, line); err != nil {
			return err
		}
		if err := ids.Add(row.TraceID, line); err != nil {
			return err
		}
		// One row per trace: a trace replaces the row of the same identity,
		// under the same id (checked by firstRefused).
		if collisions != nil {
			if err := collisions.Add(row.TraceID, key, line); err != nil {
				return err
			}
		}
		sum.Records++
		return m.Write(row)
	})
	if err != nil {
		// A repeat, or a trace the table holds, on this line or an
		// earlier one is the error a check line by line would have
		// stopped at (the writer's own refusal of a repeated id among
		// them).
		if ctx.Err() == nil {
			if rerr := firstRefused(); rerr != nil {
				return sum, rerr
			}
		}
		return sum, err
	}
	if err := firstRefused(); err != nil {
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

type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return e.field + ": " + e.err.Error() }

// bad is a problem with one field; format may wrap an error with %w.
func bad(field, format string, args ...any) error {
	return &fieldError{field: field, err: fmt.Errorf(format, args...)}
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
	// Checked before anything shows them in a message.
	fields := [][2]string{{"model", *r.Model}, {"input_lang", *r.InputLang}, {"reasoning_lang", *r.ReasoningLang},
		{"level", *r.Level}, {"problem_id", *r.ProblemID}, {"method", *r.Method}}
	for _, f := range []struct {
		name string
		v    *string
	}{{"trace_id", r.TraceID}, {"direction", r.Direction}, {"finish_reason", r.FinishReason}} {
		if f.v != nil {
			fields = append(fields, [2]string{f.name, *f.v})
		}
	}
	if err := identifiers(fields...); err != nil {
		return t, err
	}
	if *r.Model == "" {
		return t, bad("model", "empty")
	}
	if _, err := study.LookupLanguage(*r.InputLang); err != nil {
		return t, bad("input_lang", "%v", err)
	}
	if _, err := study.LookupLanguage(*r.ReasoningLang); err != nil {
		return t, bad("reasoning_lang", "%v", err)
	}
	level := *r.Level
	if !study.ValidLevel(level) {
		return t, bad("level", "%q is not one of %v", level, study.Levels)
	}
	pl, _, err := transforms.ParseProblemID(*r.ProblemID)
	if err != nil {
		return t, bad("problem_id", "%v", err)
	}
	if pl != level {
		return t, bad("problem_id", "%s is not a %s problem", *r.ProblemID, level)
	}
	if !slices.Contains(study.Methods, study.Method(*r.Method)) {
		return t, bad("method", "%q is not one of %v", *r.Method, study.Methods)
	}
	dir, err := study.DirectionOf(*r.InputLang, *r.ReasoningLang)
	if err != nil {
		return t, bad("reasoning_lang", "%v", err)
	}
	if r.Direction != nil && *r.Direction != string(dir) {
		return t, bad("direction", "%q, but the languages make it %s", *r.Direction, dir)
	}
	seed, ok := integer(*r.Seed)
	if !ok {
		return t, bad("seed", "%v is not an integer", *r.Seed)
	}
	toks, err := tokenCount(*r.CompletionTokens)
	if err != nil {
		return t, bad("completion_tokens", "%w", err)
	}
	t = schema.Trace{
		Model: *r.Model, InputLang: *r.InputLang, ReasoningLang: *r.ReasoningLang, Direction: string(dir),
		Level: level, ProblemID: *r.ProblemID, Seed: seed, Method: *r.Method, Text: *r.Text,
		CompletionTokens: toks,
	}
	if r.FinishReason != nil {
		t.FinishReason = *r.FinishReason
		t.Truncated = t.FinishReason == "length"
	}
	if r.PromptTokens != nil {
		if t.PromptTokens, err = tokenCount(*r.PromptTokens); err != nil {
			return t, bad("prompt_tokens", "%w", err)
		}
	}
	if r.MaxTokens != nil {
		b, err := budget(*r.MaxTokens)
		if err != nil {
			return t, bad("max_tokens", "%w", err)
		}
		t.MaxTokens = &b
	}
	if t.MaxTokens != nil && *t.MaxTokens > 0 && t.CompletionTokens >= *t.MaxTokens {
		t.Truncated = true
	}
	// The sampling settings are optional (NULL when not given); given, they
	// must be ones a server takes.
	sampling := []struct {
		name  string
		v     *float64
		dst   **float64
		check func(float64) error
	}{{"temperature", r.Temperature, &t.Temperature, bounds.Temperature}, {"top_p", r.TopP, &t.TopP, bounds.TopP},
		{"repetition_penalty", r.RepetitionPenalty, &t.RepetitionPenalty, bounds.RepetitionPenalty}}
	for _, f := range sampling {
		if f.v == nil {
			continue
		}
		if err := f.check(*f.v); err != nil {
			return t, bad(f.name, "%w", err)
		}
		v := *f.v
		*f.dst = &v
	}
	if r.TopK != nil {
		k, ok := integer(*r.TopK)
		if !ok || bounds.RecordedTopK(int(k)) != nil {
			return t, bad("top_k", "%v is neither -1 or 0 (off) nor a whole number of at least 1", *r.TopK)
		}
		t.TopK = &k
	}
	t.TraceID = traceids.KeyOf(&t)
	if r.TraceID != nil {
		if *r.TraceID == "" {
			return t, bad("trace_id", "empty")
		}
		t.TraceID = *r.TraceID
	}
	return t, nil
}

// tokenCount reads a recorded token count: an integer in
// [0, bounds.MaxTokenCount].
func tokenCount(f float64) (int64, error) {
	n, ok := integer(f)
	if !ok {
		return 0, fmt.Errorf("%v is not a token count", f)
	}
	return n, bounds.TokenCount(n)
}

// budget reads a request's token budget: 0 (unknown) or an integer in
// [1, bounds.MaxBudget].
func budget(f float64) (int64, error) {
	n, ok := integer(f)
	if !ok {
		return 0, fmt.Errorf("%v is not a token budget", f)
	}
	if n == 0 {
		return 0, nil
	}
	return n, bounds.Budget(int(n))
}

// decodeStrict decodes one JSON object with no unknown fields, no key given
// twice and nothing after it. Below the record's own fields keys compare
// exactly: an alignment's audit_results is keyed by node ids, which are
// case-sensitive.
func decodeStrict(b []byte, v any) error {
	_, err := strictjson.Decode(b, v, strictjson.Options{ExactNested: true})
	var se *strictjson.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, strictjson.ErrTrailingData):
		return fmt.Errorf("%w: text after the JSON object", ErrBadRecord)
	case errors.As(err, &se):
		// A record is one line: the line is the caller's to name.
		return fmt.Errorf("%w: %w", ErrBadRecord, se.Err)
	}
	return fmt.Errorf("%w: %w", ErrBadRecord, err)
}

// knownProblems is the set of ingested problem ids.
func knownProblems(dir string) (map[string]bool, error) {
	known := map[string]bool{}
	type idOnly struct {
		ProblemID string `parquet:"problem_id"`
	}
	err := store.ScanProjection(dir, schema.Problems.Table, func(r *idOnly) error {
		known[r.ProblemID] = true
		return nil
	})
	if errors.Is(err, store.ErrNoTable) {
		return nil, fmt.Errorf("no problems in %s: ingest the benchmark before importing traces", dir)
	}
	return known, err
}

func integer(f float64) (int64, bool) {
	if f != math.Trunc(f) || math.IsInf(f, 0) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// eachRecord decodes every non-blank line strictly into a record and calls
// fn with it; a line that is not one is an error naming the file and line.
func eachRecord[R any](ctx context.Context, path string, r io.Reader, fn func(line int, rec *R) error) error {
	return eachLine(path, r, func(line int, b []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := decodeRecord[R](path, line, b)
		if err != nil {
			return err
		}
		return fn(line, rec)
	})
}

// decodeRecord reads line number line of the file path, b, into a record:
// its strings must be Unicode text, and the JSON one strict object.
func decodeRecord[R any](path string, line int, b []byte) (*R, error) {
	// Unicode first: a key that is not text would otherwise be reported as
	// an unknown field spelt with U+FFFD.
	if err := checkText(path, line, "", b); err != nil {
		return nil, err
	}
	var rec R
	if err := decodeStrict(b, &rec); err != nil {
		return nil, inputerr.At(path, line, err)
	}
	return &rec, nil
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
