package verify

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/datg/datg/internal/parallel"
	"github.com/datg/datg/internal/progress"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms"
)

// Config is one verify run.
type Config struct {
	Data string
	// Grader decides the answers table: math-verify (the paper's, the
	// default; also when empty) or multilingual. Every grader's verdicts go
	// to verdicts.
	Grader string
	Stderr io.Writer
}

// DefaultConfig grades with the default grader.
func DefaultConfig() Config { return Config{Data: store.DefaultDir, Grader: DefaultGrader()} }

// Validate checks the grader's name.
func (c Config) Validate() error {
	_, err := lookupGrader(c.Grader)
	return err
}

// Summary counts the verdicts of the chosen grader.
type Summary struct {
	Traces, Correct, NoAnswer int
	GoldUnparsed              int // traces whose gold the grader could not read
	// Disagree counts the traces another grader judged otherwise.
	Disagree int
}

// gradedTrace is a trace's verdicts, by grader, and its text's hash.
type gradedTrace struct {
	verdicts []verdict
	hash     string
}

// Run grades every trace with every grader and rewrites the answers table
// (the chosen grader's verdicts) and the verdicts table (all of them), in
// one commit. A trace whose problem has no gold answer is an error, and
// nothing is written.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	// Problems and traces are read from one generation of the run.
	snap, err := store.PinValid(cfg, cfg.Data)
	if err != nil {
		return Summary{}, err
	}
	defer snap.Close()
	// Gold answers are parsed once per problem and grader, not per trace.
	type parsed struct {
		raw   string
		golds []gold // by grader, in graders order
	}
	golds := map[string]parsed{}
	err = store.Scan(snap.Dir, schema.Problems, func(p *schema.Problem) error {
		if _, ok := golds[p.ProblemID]; !ok {
			g := parsed{raw: p.Answer}
			for _, gr := range graders {
				g.golds = append(g.golds, gr.newGold(p.Answer))
			}
			golds[p.ProblemID] = g
		}
		return nil
	})
	if err != nil {
		return Summary{}, fmt.Errorf("reading problems: %w", err)
	}
	chosen, _ := lookupGrader(cfg.Grader)
	tx, err := store.Begin(cfg.Data, store.Meta{Stage: "verify", ConfigHash: store.HashConfig(chosen.name)})
	if err != nil {
		return Summary{}, err
	}
	defer tx.Abort()
	answers, err := store.CreateIn(tx, schema.Answers)
	if err != nil {
		return Summary{}, err
	}
	verdicts, err := store.CreateIn(tx, schema.Verdicts)
	if err != nil {
		return Summary{}, err
	}
	var sum Summary
	stderr := cfg.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	total, err := store.NumRows(snap.Dir, schema.Traces.Table)
	if err != nil {
		return Summary{}, err
	}
	prog := progress.Start(stderr, "verify", int(total))
	defer prog.Finish()
	// write writes one trace's verdicts and counts them.
	write := func(t *schema.Trace, gt gradedTrace) error {
		g, vs, hash := golds[t.ProblemID], gt.verdicts, gt.hash
		var mine verdict
		rows := make([]schema.Verdict, len(graders))
		for i, gr := range graders {
			v := vs[i]
			rows[i] = schema.Verdict{TraceID: t.TraceID, Grader: gr.name, Extracted: v.Extracted, HasAnswer: v.HasAnswer,
				Correct: v.Correct, Reason: v.Reason, FoundIn: v.Where, TextHash: hash}
			if gr.name == chosen.name {
				mine = v
			}
		}
		for _, r := range rows {
			if r.Correct != mine.Correct {
				sum.Disagree++
				break
			}
		}
		sum.Traces++
		if mine.Correct {
			sum.Correct++
		}
		if !mine.HasAnswer {
			sum.NoAnswer++
		}
		if mine.Reason == ReasonGoldUnparsed {
			sum.GoldUnparsed++
		}
		prog.Done(0)
		if err := verdicts.Write(rows...); err != nil {
			return err
		}
		return answers.Write(schema.Answer{TraceID: t.TraceID, Extracted: mine.Extracted, HasAnswer: mine.HasAnswer,
			Correct: mine.Correct, Gold: g.raw, Reason: mine.Reason, FoundIn: mine.Where, Grader: chosen.name, TextHash: hash})
	}
	// Traces are read in batches; each batch is graded on every CPU and
	// written in order (grading a long trace is most of verify's time).
	const batchSize = 256
	batch := make([]schema.Trace, 0, batchSize)
	graded := make([]gradedTrace, batchSize)
	flush := func() error {
		g := parallel.New(ctx, runtime.GOMAXPROCS(0))
		for i := range batch {
			if g.Stopped() {
				break
			}
			g.Go(func(context.Context) error {
				t := &batch[i]
				gl := golds[t.ProblemID]
				vs := make([]verdict, len(graders))
				for k := range graders {
					vs[k] = gl.golds[k].grade(t.Text, t.Truncated)
				}
				graded[i] = gradedTrace{verdicts: vs, hash: transforms.TextHash(t.Text)}
				return nil
			})
		}
		if err := g.Wait(nil); err != nil {
			return err
		}
		for i := range batch {
			if err := write(&batch[i], graded[i]); err != nil {
				return err
			}
		}
		batch = batch[:0]
		return nil
	}
	err = store.Scan(snap.Dir, schema.Traces, func(t *schema.Trace) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, ok := golds[t.ProblemID]; !ok {
			return fmt.Errorf("trace %s: problem %s: %w (ingest it first)", t.TraceID, t.ProblemID, ErrNoGold)
		}
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
		return sum, fmt.Errorf("grading traces: %w", err)
	}
	return sum, tx.Commit()
}
