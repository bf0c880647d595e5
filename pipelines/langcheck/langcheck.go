package langcheck

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/parallel"
	"github.com/datg/datg/internal/progress"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// Config is one langcheck run.
type Config struct {
	Data string
	// Detector decides the compliance table: study.Langdetect (the default,
	// also when empty) or study.Lingua.
	// Both run on every trace and both decisions go to detections.
	Detector string
	Workers  int // default: the number of CPUs
	Stderr   io.Writer
}

// DefaultConfig checks data/run with the paper's detector on every CPU.
func DefaultConfig() Config {
	return Config{Data: store.DefaultDir, Detector: string(study.Langdetect)}
}

// Validate checks the detector's name (an inputerr.FieldError naming
// Detector).
func (c Config) Validate() error {
	if slices.Contains(study.Detectors, study.Detector(c.detector())) {
		return nil
	}
	return inputerr.Invalid(inputerr.BadField("Detector", "%w %q (want %s)", ErrUnknownDetector, c.Detector, strings.Join(study.Strings(study.Detectors...), " or ")))
}

// detector is the chosen detector's name: Detector, or the default.
func (c Config) detector() string {
	if c.Detector == "" {
		return string(study.Langdetect)
	}
	return c.Detector
}

// Summary counts the results of the chosen detector.
type Summary struct {
	Detector          string
	Traces, Compliant int
	ByStatus          map[string]int
	// Disagree counts the traces the two detectors decide differently.
	Disagree int
}

// verdict is one detector's decision on one reasoning.
type verdict struct {
	detected  []string
	compliant bool
	status    study.ComplianceStatus
	shares    string
}

// reasoning is the text a detector checks (prefix, answer and math already
// removed) with what was learned of it in the pass that counted its letters.
type reasoning struct {
	text   string
	length int  // transforms.TextLength(text)
	valid  bool // utf8.ValidString(text)
}

// detector decides the compliance of a reasoning.
type detector interface {
	name() string
	settings() string
	check(requested string, r reasoning) (verdict, error)
}

// checker runs every detector on a trace.
type checker struct {
	detectors []detector // in Detectors' order
	chosen    int
}

func newChecker(chosen string) (*checker, error) {
	ld, err := newLangdetect()
	if err != nil {
		return nil, err
	}
	li, err := newLingua()
	if err != nil {
		return nil, err
	}
	c := &checker{detectors: []detector{ld, li}}
	for i, d := range c.detectors {
		if d.name() == chosen {
			c.chosen = i
		}
	}
	return c, nil
}

// check returns the trace's compliance row (the chosen detector's) and
// every detector's decision.
func (c *checker) check(t *schema.Trace) (schema.Compliance, []schema.Detection, error) {
	r, letters := reasoningOf(t)
	hash := textHash(t)
	length32 := int32(min(r.length, 1<<31-1))
	var comp schema.Compliance
	dets := make([]schema.Detection, len(c.detectors))
	for i, d := range c.detectors {
		v, err := d.check(t.ReasoningLang, r)
		if err != nil {
			return comp, nil, fmt.Errorf("trace %s: %s: %w", t.TraceID, d.name(), err)
		}
		dets[i] = schema.Detection{
			TraceID:   t.TraceID,
			Detector:  d.name(),
			Requested: t.ReasoningLang,
			Detected:  strings.Join(v.detected, ","),
			Compliant: v.compliant,
			Status:    string(v.status),
			Shares:    v.shares,
			Settings:  d.settings(),
			TextHash:  hash,
		}
		if i == c.chosen {
			comp = schema.Compliance{
				TraceID:   t.TraceID,
				Requested: t.ReasoningLang,
				Detected:  dets[i].Detected,
				Compliant: v.compliant,
				Status:    string(v.status),
				Chars:     int32(min(letters, 1<<31-1)),
				Length:    &length32,
				Shares:    v.shares,
				Detector:  d.name(),
				Settings:  d.settings(),
				TextHash:  hash,
			}
		}
	}
	return comp, dets, nil
}

// textHash is the trace's text_hash as the traces table holds it. Every
// stage that writes traces (import, generate, references) records
// transforms.TextHash(text) there, and the views and tables tell a stale
// check by comparing compliance's text_hash with that column, so the
// check records the column as read. Hashing the whole text again was an
// eighth of the stage's CPU time where SHA-256 has no SHA-NI instructions.
// A trace without one (built in memory) is hashed.
func textHash(t *schema.Trace) string {
	if t.TextHash != "" {
		return t.TextHash
	}
	return transforms.TextHash(t.Text)
}

// reasoningOf is the text whose language is checked: the reasoning the
// model wrote (without the direct-first prefix and the answer after
// </think>), math spans removed; with its letters (transforms.Letters),
// counted in the pass that strips the math.
func reasoningOf(t *schema.Trace) (r reasoning, letters int) {
	r.text, letters, r.length, r.valid = transforms.StripMathAndCount(transforms.ReasoningText(t.Text, t.Prefix))
	return r, letters
}

// checkedColumns are the traces' columns a check reads (checker.check):
// only these are decoded from the traces table, not the two dozen others.
type checkedColumns struct {
	TraceID       string `parquet:"trace_id"`
	ReasoningLang string `parquet:"reasoning_lang"`
	Text          string `parquet:"text"`
	Prefix        string `parquet:"prefix"`
	TextHash      string `parquet:"text_hash"`
}

// settings identifies the configuration in the tables' metadata.
func (c *checker) settings() []string {
	out := []string{"chosen " + c.detectors[c.chosen].name()}
	for _, d := range c.detectors {
		out = append(out, d.name()+": "+d.settings())
	}
	return out
}

// Run checks every trace with every detector and rewrites the compliance
// and detections tables in one commit.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	stderr := cfg.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	total, err := store.NumRows(cfg.Data, schema.Traces.Table)
	if err != nil {
		return Summary{}, err
	}
	if total == 0 {
		return Summary{}, fmt.Errorf("%w in %s (run datg generate or datg import traces)", ErrNoTraces, cfg.Data)
	}
	chk, err := newChecker(cfg.detector())
	if err != nil {
		return Summary{}, err
	}
	tx, err := store.Begin(cfg.Data, store.Meta{Stage: "langcheck", ConfigHash: store.HashConfig(chk.settings())})
	if err != nil {
		return Summary{}, err
	}
	defer tx.Abort()
	comps, err := store.CreateIn(tx, schema.Compliances)
	if err != nil {
		return Summary{}, err
	}
	dets, err := store.CreateIn(tx, schema.Detections)
	if err != nil {
		return Summary{}, err
	}
	prog := progress.Start(stderr, "langcheck", int(total))
	defer prog.Finish()
	sum := Summary{Detector: cfg.detector(), ByStatus: map[string]int{}}

	// Traces are read in batches; each batch is checked in parallel and
	// written in order.
	const batchSize = 256
	batch := make([]schema.Trace, 0, batchSize)
	flush := func() error {
		outC := make([]schema.Compliance, len(batch))
		outD := make([][]schema.Detection, len(batch))
		g := parallel.New(ctx, workers)
		for i := range batch {
			if g.Stopped() {
				break
			}
			g.Go(func(context.Context) error {
				var err error
				outC[i], outD[i], err = chk.check(&batch[i])
				prog.Done(0)
				return err
			})
		}
		if err := g.Wait(nil); err != nil {
			return err
		}
		for i, c := range outC {
			sum.Traces++
			sum.ByStatus[c.Status]++
			if c.Compliant {
				sum.Compliant++
			}
			if outD[i][0].Compliant != outD[i][1].Compliant {
				sum.Disagree++
			}
			if err := dets.Write(outD[i]...); err != nil {
				return err
			}
		}
		batch = batch[:0]
		return comps.Write(outC...)
	}
	err = store.ScanProjection(cfg.Data, schema.Traces.Table, func(t *checkedColumns) error {
		batch = append(batch, schema.Trace{TraceID: t.TraceID, ReasoningLang: t.ReasoningLang, Text: t.Text, Prefix: t.Prefix, TextHash: t.TextHash})
		if len(batch) == batchSize {
			return flush()
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	if err != nil {
		return sum, err
	}
	return sum, tx.Commit()
}
