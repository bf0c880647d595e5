package align

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"

	"github.com/datg/datg/internal/bounds"
	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/parallel"
	"github.com/datg/datg/internal/progress"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
	"github.com/datg/datg/transforms/datg"
)

// Config is one align run.
type Config struct {
	Data string
	// Symbolic aligns without an LLM; otherwise Target's model aligns.
	Symbolic bool
	Target   llm.Target
	// MaxTokens is the token budget of a reply; 0 takes DefaultMaxTokens,
	// or llm.ReasoningBudget for a model whose budget also pays for its
	// reasoning (an OpenAI reasoning model on a server that is not vLLM).
	MaxTokens int
	// Which traces: by default base traces of en-en and en-x (the paper's
	// diagnosis). Empty filters keep everything.
	Directions, Models, Levels, Langs []string
	Limit                             int // first N problems of each level
	// References aligns each reference derivation to the other DAGs of its
	// problem instead (the reference-diversity analysis, appendix D).
	References bool
	// Methods are the methods of the traces to align (default: base, or
	// reference in References mode); controlled traces are loop-retry and
	// formula-retry.
	Methods []string
	// Seeds are the seeds of the traces to align. Empty aligns base
	// traces of the direction probe's seed only (study.ProbeSeed: the
	// paper diagnoses the probe, one trace per cell), and every seed of
	// the other methods (the controls sample three).
	Seeds []int64
	// Prompts is the prompt set (--prompts DIR); nil sends the builtin one.
	Prompts *prompts.Set
	Stderr  io.Writer
}

// DefaultMaxTokens is the budget of an alignment reply that is only the
// reply (vLLM, and chat models that do not reason).
const DefaultMaxTokens = 4096

// DefaultConfig aligns base en-en and en-x traces with an LLM, each reply
// with the budget its model needs (MaxTokens 0).
func DefaultConfig() Config {
	return Config{Data: store.DefaultDir, Directions: study.Strings(study.EnEn, study.EnX),
		Target: llm.Target{API: llm.APIChat, Pool: llm.DefaultOptions()}}
}

// Validate checks the run.
func (c Config) Validate() error {
	var p inputerr.Problems
	if !c.Symbolic {
		p.Nested(c.Target.Validate())
	}
	for _, d := range c.Directions {
		if !slices.Contains(study.Directions, study.Direction(d)) {
			p.Add("Directions", "unknown direction %q", d)
		}
	}
	if c.Limit < 0 {
		p.Add("Limit", "must not be negative")
	}
	if c.MaxTokens != 0 {
		p.Check("MaxTokens", bounds.Budget(c.MaxTokens))
	}
	return p.Err()
}

// Summary counts the alignments made.
type Summary struct {
	Alignments, Unusable, Unlocated, Problems int
	Capped                                    int // spans a cap of the locator stopped (alignment_errors kind locate-capped)
	// Grown counts the replies asked again with a larger budget because
	// the first spent its budget reasoning; Spent those still without an
	// alignment for that reason (kind budget-spent-reasoning, among
	// Unusable).
	Grown, Spent int
}

// job is one (trace, DAG) pair.
type job struct {
	trace *schema.Trace
	dag   *dags.Stored
}

// Run aligns every selected trace to the valid DAGs of its problem.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	// Traces and DAGs are read from one generation of the run, whatever
	// commits meanwhile.
	snap, err := store.PinValid(cfg, cfg.Data)
	if err != nil {
		return Summary{}, err
	}
	defer snap.Close()
	in := snap.Dir
	stored, err := dags.Load(in)
	if err != nil {
		return Summary{}, err
	}
	byProblem := dags.ByProblem(stored)
	if len(byProblem) == 0 {
		return Summary{}, fmt.Errorf("no valid DAGs in %s (run datg dags or import dags first)", cfg.Data)
	}
	total, err := cfg.count(in, byProblem)
	if err != nil {
		return Summary{}, err
	}
	if total == 0 {
		return Summary{}, inputerr.Invalid(fmt.Errorf("no trace matches the selection and has DAGs"))
	}
	aligner := datg.SymbolicAligner
	if !cfg.Symbolic {
		aligner = cfg.Target.Model
	}
	w, err := NewWriter(cfg.Data, store.Meta{Stage: "align", ConfigHash: store.HashConfig(aligner), DryRun: !cfg.Symbolic && cfg.Target.Pool.DryRun != nil})
	if err != nil {
		return Summary{}, err
	}
	defer w.Abort()
	var mu sync.Mutex
	var sum Summary
	add := func(r Result) error {
		mu.Lock()
		defer mu.Unlock()
		sum.Alignments++
		if r.Alignment.Status != string(study.AlignmentOK) {
			sum.Unusable++
		}
		sum.Unlocated += int(r.Alignment.Unlocated)
		sum.Problems += len(r.Errors)
		sum.Capped += r.Capped
		if r.grown {
			sum.Grown++
		}
		if r.spent {
			sum.Spent++
		}
		return w.Add(r)
	}
	prog := progress.Start(cfg.Stderr, "align", total)
	each := func(yield func(job) bool) error {
		return cfg.jobs(in, byProblem, yield)
	}
	if cfg.Symbolic {
		err = runSymbolic(ctx, each, add, prog)
	} else {
		err = cfg.runLLM(ctx, each, byProblem, add, prog)
	}
	prog.Finish()
	if err != nil {
		return sum, err
	}
	return sum, w.Commit()
}

// selected reports whether a trace is one to align: a base trace, or in
// reference mode a reference, that passes the filters.
func (cfg Config) selected(t *schema.Trace) bool {
	methods := cfg.Methods
	if len(methods) == 0 {
		methods = study.Strings(study.Base)
		if cfg.References {
			methods = study.Strings(study.Reference)
		}
	}
	if !slices.Contains(methods, t.Method) {
		return false
	}
	seeds := cfg.Seeds
	if len(seeds) == 0 && t.Method == string(study.Base) {
		seeds = []int64{study.ProbeSeed}
	}
	if len(seeds) > 0 && !slices.Contains(seeds, t.Seed) {
		return false
	}
	k := 0
	if _, n, err := transforms.ParseProblemID(t.ProblemID); err == nil {
		k = n
	}
	return (len(cfg.Directions) == 0 || slices.Contains(cfg.Directions, t.Direction)) &&
		(len(cfg.Models) == 0 || slices.Contains(cfg.Models, t.Model)) &&
		(len(cfg.Levels) == 0 || slices.Contains(cfg.Levels, t.Level)) &&
		(len(cfg.Langs) == 0 || slices.Contains(cfg.Langs, t.ReasoningLang)) &&
		(cfg.Limit == 0 || k < cfg.Limit)
}

// dagsFor are the DAGs a trace is aligned to: its problem's, less its own
// for a reference (its ref_index is its seed).
func (cfg Config) dagsFor(t *schema.Trace, byProblem map[string][]*dags.Stored) []*dags.Stored {
	all := byProblem[t.ProblemID]
	if !cfg.References {
		return all
	}
	var others []*dags.Stored
	for _, d := range all {
		if int64(d.Row.RefIndex) != t.Seed {
			others = append(others, d)
		}
	}
	return others
}

// keyColumns is what selecting traces needs, without their texts.
type keyColumns struct {
	ProblemID     string `parquet:"problem_id"`
	Method        string `parquet:"method"`
	Direction     string `parquet:"direction"`
	Model         string `parquet:"model"`
	Level         string `parquet:"level"`
	ReasoningLang string `parquet:"reasoning_lang"`
	Seed          int64  `parquet:"seed"`
}

func (cfg Config) count(in string, byProblem map[string][]*dags.Stored) (int, error) {
	n := 0
	err := store.ScanProjection(in, schema.Traces.Table, func(k *keyColumns) error {
		t := &schema.Trace{ProblemID: k.ProblemID, Method: k.Method, Direction: k.Direction, Model: k.Model, Level: k.Level,
			ReasoningLang: k.ReasoningLang, Seed: k.Seed}
		if cfg.selected(t) {
			n += len(cfg.dagsFor(t, byProblem))
		}
		return nil
	})
	return n, err
}

// errStop ends a scan early without an error.
var errStop = errors.New("stop")

// jobs streams the (trace, DAG) pairs; only the traces being aligned are
// held in memory.
func (cfg Config) jobs(in string, byProblem map[string][]*dags.Stored, yield func(job) bool) error {
	err := store.Scan(in, schema.Traces, func(t *schema.Trace) error {
		if !cfg.selected(t) {
			return nil
		}
		tr := *t
		for _, d := range cfg.dagsFor(&tr, byProblem) {
			if !yield(job{trace: &tr, dag: d}) {
				return errStop
			}
		}
		return nil
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

func runSymbolic(ctx context.Context, each func(func(job) bool) error, add func(Result) error, prog *progress.Progress) error {
	g := parallel.New(ctx, runtime.GOMAXPROCS(0))
	// A trace's jobs come one after another: they are aligned together,
	// its text read once (equations, repetitions, hash, span index)
	// for all its DAGs. A DAG's anchors are read once for all the traces
	// aligned to it (as many as the run has DAGs: memory does not grow
	// with the traces).
	nodes := map[*dags.Stored]*datg.SymbolicNodes{}
	var pending []job
	flush := func() {
		if len(pending) == 0 {
			return
		}
		batch := pending
		pending = nil
		var dagNodes []*datg.SymbolicNodes
		for _, j := range batch {
			n, ok := nodes[j.dag]
			if !ok {
				n = datg.ReadSymbolicDAG(j.dag.DAG)
				nodes[j.dag] = n
			}
			dagNodes = append(dagNodes, n)
		}
		g.Go(func(context.Context) error {
			trace := batch[0].trace
			symbolic, text := datg.ReadSymbolic(trace.Text), readTrace(trace)
			for i, j := range batch {
				raw := symbolic.NodesJSON(dagNodes[i])
				prog.Done(0)
				if err := add(text.rows(j.dag, datg.SymbolicAligner, raw)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	err := each(func(j job) bool {
		if g.Stopped() {
			return false
		}
		if len(pending) > 0 && pending[0].trace != j.trace {
			flush()
		}
		pending = append(pending, j)
		return true
	})
	if err == nil && !g.Stopped() {
		flush()
	}
	return g.Wait(err)
}

// request asks the aligner about one (trace, DAG) pair with the given
// budget; dagText is the DAG as the prompt shows it. A reply that spends
// the budget reasoning is kept, to be counted (budget-spent-reasoning).
func (cfg Config) request(j job, dagText string, budget int) llm.Request {
	lang := j.trace.ReasoningLang
	if l, err := cfg.Prompts.Language(lang); err == nil {
		lang = l.Name
	}
	user := cfg.Prompts.AlignUser(prompts.AlignInput{Language: lang, DAG: dagText, Trace: j.trace.Text})
	return llm.Request{API: llm.APIChat, Model: cfg.Target.Model, MaxTokens: budget, TopP: 1, KeepSpent: true,
		Messages: []llm.Message{{Role: "system", Content: cfg.Prompts.AlignSystem()}, {Role: "user", Content: user}}}
}

// retryOf is the second request for a reply that held no alignment. Sample
// is not sent, and at temperature 0 the same request gets the same reply:
// another sample needs a temperature and a seed.
func retryOf(req llm.Request) llm.Request {
	seed := int64(1)
	req.Sample, req.Temperature, req.Seed = 1, retryTemperature, &seed
	return req
}

// addUsage counts a call's tokens into the alignment it led to.
func addUsage(a *schema.Alignment, resp llm.Response) {
	a.PromptTokens += int64(resp.PromptTokens)
	a.CompletionTokens += int64(resp.CompletionTokens)
}

// retryTemperature samples the second request for a reply that held no
// alignment.
const retryTemperature = 0.6

func (cfg Config) runLLM(ctx context.Context, each func(func(job) bool) error, byProblem map[string][]*dags.Stored,
	add func(Result) error, prog *progress.Progress) error {
	client, closeJournal, err := cfg.Target.Open(cfg.Data, "align", cfg.Stderr)
	if err != nil {
		return err
	}
	defer closeJournal()
	budget := client.Pool.Budget(cfg.Target.Model, cfg.MaxTokens, DefaultMaxTokens)
	// Each DAG is encoded for the prompt once, not once per trace (dags.Load
	// gives every node a non-nil parents list, so it encodes as []).
	dagText := map[string]string{}
	for _, list := range byProblem {
		for _, d := range list {
			dagText[d.Row.DagID] = datg.EncodeJSON(d.DAG)
		}
	}
	return llm.Fanout(ctx, client, prog,
		func(yield func(job, llm.Request) bool) error {
			return each(func(j job) bool { return yield(j, cfg.request(j, dagText[j.dag.Row.DagID], budget)) })
		},
		func(j job, req llm.Request, resp llm.Response, _ bool) error {
			r := Rows(j.trace, j.dag, cfg.Target.Model, transforms.AnswerPart(resp.Text))
			addUsage(&r.Alignment, resp)
			r.Alignment.RequestKey = req.Key().String()
			r.Alignment.PromptSet = cfg.Prompts.Hash()
			r.grown = req.MaxTokens > budget
			if r.Alignment.Status != string(study.AlignmentOK) && llm.SpentOnReasoning(req, resp) {
				// Asked again at the same budget it would spend it again.
				r.spentReasoning(req, resp, budget)
				return add(r)
			}
			if r.Alignment.Status != string(study.AlignmentOK) {
				retry := retryOf(req)
				retry, again, _, err := client.DoSent(ctx, retry)
				if err == nil {
					r2 := Rows(j.trace, j.dag, cfg.Target.Model, again.Text)
					r2.grown = r.grown || retry.MaxTokens > budget
					r2.Alignment.PromptTokens, r2.Alignment.CompletionTokens = r.Alignment.PromptTokens, r.Alignment.CompletionTokens
					addUsage(&r2.Alignment, again)
					r2.Alignment.RequestKey = retry.Key().String()
					r2.Alignment.PromptSet = r.Alignment.PromptSet
					if r2.Alignment.Status != string(study.AlignmentOK) && llm.SpentOnReasoning(retry, again) {
						r2.spentReasoning(retry, again, budget)
					}
					r = r2
				} else if !llm.RequestFailed(err) {
					return err
				}
			}
			return add(r)
		},
		llm.LogFailures(func(j job) string { return j.trace.TraceID + " " + j.dag.Row.DagID }))
}
