package langcheck

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/datg/datg/internal/progress"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms"
	"github.com/pemistahl/lingua-go"
	"golang.org/x/sync/errgroup"
)

// Segmenting: about segmentSize characters each, at most maxSegments.
const (
	segmentSize = 200
	maxSegments = 24
)

// DetectorName records the identifier and its settings in the table.
const DetectorName = "lingua-go v1.4.0 low-accuracy mode, 12 languages, 24 segments x 200 chars, share >= 0.1"

// Config is one langcheck run.
type Config struct {
	Data    string
	Workers int // default: the number of CPUs
	Stderr  io.Writer
}

// Summary counts the results.
type Summary struct {
	Traces, Compliant int
	ByStatus          map[string]int
}

// Detector identifies the study's languages.
type Detector struct {
	lingua lingua.LanguageDetector
	codes  map[lingua.Language]string
}

// NewDetector builds a detector restricted to the study's languages, with
// their models loaded (lingua is then safe for concurrent use). Segments
// hold about 200 characters, where lingua's low-accuracy (trigram) mode is as
// reliable as the full one and 1.6 times faster.
func NewDetector() *Detector {
	d := &Detector{codes: map[lingua.Language]string{}}
	var langs []lingua.Language
	for _, l := range prompts.Languages() {
		ll := lingua.GetLanguageFromIsoCode639_1(lingua.GetIsoCode639_1FromValue(strings.ToUpper(l.Code)))
		langs = append(langs, ll)
		d.codes[ll] = l.Code
	}
	d.lingua = lingua.NewLanguageDetectorBuilder().FromLanguages(langs...).WithPreloadedLanguageModels().WithLowAccuracyMode().Build()
	return d
}

// Check decides the compliance of one trace.
func (d *Detector) Check(t *schema.Trace) schema.Compliance {
	text := transforms.StripMath(transforms.ReasoningText(t.Text, t.Prefix))
	letters := transforms.Letters(text)
	segs := transforms.Segments(text, segmentSize, maxSegments)
	langs := make([]string, len(segs))
	for i, s := range segs {
		if transforms.Letters(s) < 3 {
			continue
		}
		if l, ok := d.lingua.DetectLanguageOf(s); ok {
			langs[i] = d.codes[l]
		}
	}
	shares := transforms.LanguageShares(segs, langs)
	detected, compliant, status := transforms.Comply(t.ReasoningLang, letters, shares)
	return schema.Compliance{
		TraceID:   t.TraceID,
		Requested: t.ReasoningLang,
		Detected:  strings.Join(detected, ","),
		Compliant: compliant,
		Status:    status,
		Chars:     int32(letters),
		Shares:    formatShares(shares),
		Detector:  DetectorName,
		TextHash:  transforms.TextHash(t.Text),
	}
}

func formatShares(shares map[string]float64) string {
	langs := make([]string, 0, len(shares))
	for l := range shares {
		langs = append(langs, l)
	}
	transforms.SortByShare(langs, shares)
	parts := make([]string, len(langs))
	for i, l := range langs {
		parts[i] = fmt.Sprintf("%s:%.2f", l, shares[l])
	}
	return strings.Join(parts, ",")
}

// Run checks every trace and rewrites the compliance table.
func Run(ctx context.Context, cfg Config) (Summary, error) {
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
		return Summary{}, fmt.Errorf("no traces in %s (run datg generate or datg import traces)", cfg.Data)
	}
	w, err := store.Create(cfg.Data, schema.Compliances, store.Meta{Stage: "langcheck", ConfigHash: store.HashConfig(DetectorName)})
	if err != nil {
		return Summary{}, err
	}
	defer w.Abort()
	det := NewDetector()
	prog := progress.Start(stderr, "langcheck", int(total))
	defer prog.Finish()
	sum := Summary{ByStatus: map[string]int{}}

	// Traces are read in batches; each batch is checked in parallel and
	// written in order.
	const batchSize = 256
	batch := make([]schema.Trace, 0, batchSize)
	flush := func() error {
		out := make([]schema.Compliance, len(batch))
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(workers)
		for i := range batch {
			g.Go(func() error {
				if err := gctx.Err(); err != nil {
					return err
				}
				out[i] = det.Check(&batch[i])
				prog.Done(0)
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
		for _, c := range out {
			sum.Traces++
			sum.ByStatus[c.Status]++
			if c.Compliant {
				sum.Compliant++
			}
		}
		batch = batch[:0]
		return w.Write(out...)
	}
	err = store.Scan(cfg.Data, schema.Traces, func(t *schema.Trace) error {
		batch = append(batch, *t)
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
	return sum, w.Commit()
}
