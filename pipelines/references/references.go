package references

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/datg/datg/internal/bounds"
	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/progress"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/traceids"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
	"github.com/datg/datg/transforms/mathverify"
)

// Config is one references run.
type Config struct {
	Data        string
	Target      llm.Target
	PerProblem  int // accepted references wanted per problem (the paper: 5)
	MaxAttempts int // attempts allowed per problem
	Temperature float64
	TopP        float64
	MaxTokens   int   // 0: DefaultMaxTokens, or llm.ReasoningBudget where the budget counts the model's reasoning
	Seed        int64 // attempt a is sampled with seed Seed + a
	Levels      []string
	Limit       int          // first N problems of each level; 0 = all
	Prompts     *prompts.Set // --prompts DIR; nil sends the builtin set
	// Derivation is what of a reply becomes the reference (its trace's
	// text, and what the DAG builder reads): the model's reasoning, then
	// its answer (study.FromReasoning, the paper's: its DAG prompt converts
	// a chain of thought), or the answer alone (study.FromAnswer, for a
	// model that hides its reasoning).
	Derivation study.Derivation
	Stderr     io.Writer
}

// MaxAttempts bounds --attempts, and so an attempt's number and a
// reference's index.
const MaxAttempts = 1000

// Grader is the grader that accepts a reference: the paper accepts those
// whose final answer agrees with the gold one "under our
// answer-verification protocol", Math-Verify.
const Grader = study.MathVerify

// Reasons of a rejection besides the grader's (mathverify.Reason*).
const (
	// ReasonNoReasoning: the derivation is the reasoning and the reply had
	// none.
	ReasonNoReasoning = "no-reasoning"
	// ReasonLength: the budget cut the reply (finish_reason length), so it
	// has no final answer of its own, whatever answer it last wrote.
	ReasonLength = "length"
)

// DefaultMaxTokens is the budget of a derivation where the budget does not
// count hidden reasoning (MaxTokens 0 picks it, or llm.ReasoningBudget
// where it does).
const DefaultMaxTokens = 16384

// DefaultConfig asks for five references per problem (the paper's five)
// in at most 12 attempts (datg's choice: the paper does not say how many
// it allowed), derived from the model's reasoning.
func DefaultConfig() Config {
	return Config{Data: store.DefaultDir, PerProblem: 5, MaxAttempts: 12, Temperature: 0.7, TopP: 0.95,
		Seed: 1000, Levels: study.Strings(study.Low, study.Medium, study.High), Target: llm.Target{API: llm.APIChat, Pool: llm.DefaultOptions()},
		Derivation: study.FromReasoning}
}

// Validate checks the run.
func (c Config) Validate() error {
	var p inputerr.Problems
	p.Nested(c.Target.Validate())
	if c.PerProblem < 1 || c.PerProblem > c.MaxAttempts {
		p.Add("PerProblem", "need 1 <= %d <= MaxAttempts (%d)", c.PerProblem, c.MaxAttempts)
	}
	if c.MaxAttempts > MaxAttempts {
		p.Add("MaxAttempts", "%d is more than %d", c.MaxAttempts, MaxAttempts)
	}
	if c.MaxTokens != 0 {
		p.Check("MaxTokens", bounds.Budget(c.MaxTokens))
	}
	p.Check("Temperature", bounds.Temperature(c.Temperature))
	p.Check("TopP", bounds.TopP(c.TopP))
	p.Check("Seed", bounds.Seed(c.Seed))
	for _, l := range c.Levels {
		if !study.ValidLevel(l) {
			p.Add("Levels", "unknown level %q", l)
		}
	}
	if c.Limit < 0 {
		p.Add("Limit", "must not be negative")
	}
	if _, err := study.ParseDerivation(string(c.Derivation)); err != nil {
		p.Check("Derivation", err)
	}
	return p.Err()
}

// Summary counts what a run did.
type Summary struct {
	Problems, Complete int
	Attempts, Accepted int
	Short              []string // problems with fewer accepted references than wanted
	// Grown counts the attempts asked again with a larger budget because
	// the first reply spent its budget reasoning; Spent those that spent
	// it still (not accepted, the reason saying so).
	Grown, Spent int
}

type problem struct {
	schema.Problem
	gold     mathverify.Gold
	attempts int
	accepted int
}

type attempt struct {
	p *problem
	n int
}

// Run samples references until every problem has enough or has used its
// attempts, then writes derivations and the reference traces.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	problems, err := loadProblems(cfg)
	if err != nil {
		return Summary{}, err
	}
	// The tables are locked from here to the commit, so no import slips a
	// trace in between the check below and the write.
	out, err := openOutput(cfg)
	if err != nil {
		return Summary{}, err
	}
	defer out.tx.Abort()
	// The reference traces this run may write (ref_index 0..per-problem-1
	// of each problem) must not collide with imported traces.
	if err := traceids.CheckPlan(cfg.Data, func(yield func(transforms.TraceKey) bool) {
		for _, p := range problems {
			for ref := 0; ref < cfg.PerProblem; ref++ {
				if !yield(referenceKey(cfg.Target.Model, p.Level, p.ProblemID, ref)) {
					return
				}
			}
		}
	}); err != nil {
		return Summary{}, err
	}
	client, closeJournal, err := cfg.Target.Open(cfg.Data, "references", cfg.Stderr)
	if err != nil {
		return Summary{}, err
	}
	defer closeJournal()
	budget := client.Pool.Budget(cfg.Target.Model, cfg.MaxTokens, DefaultMaxTokens)
	var grown, spent int

	var mu sync.Mutex
	var results []result
	prog := progress.Start(cfg.Stderr, "references", len(problems)*cfg.PerProblem)
	defer prog.Finish() // on every error path too; Finish is idempotent
	for round := 0; ; round++ {
		var batch []attempt
		for _, p := range problems {
			need := min(cfg.PerProblem-p.accepted, cfg.MaxAttempts-p.attempts)
			for i := 0; i < need; i++ {
				batch = append(batch, attempt{p, p.attempts})
				p.attempts++
			}
		}
		if len(batch) == 0 {
			break
		}
		// A round's failures end the run: the next round would ask for
		// replacements of requests that may succeed on a rerun.
		err := llm.Fanout(ctx, client, prog,
			func(yield func(attempt, llm.Request) bool) error {
				for _, a := range batch {
					if !yield(a, request(cfg, a, budget)) {
						break
					}
				}
				return nil
			},
			func(a attempt, req llm.Request, resp llm.Response, _ bool) error {
				r := grade(cfg.Derivation, a, req, resp)
				r.row.PromptSet = cfg.Prompts.Hash()
				mu.Lock()
				defer mu.Unlock()
				if req.MaxTokens > budget {
					grown++
				}
				if llm.SpentOnReasoning(req, resp) {
					spent++
				}
				results = append(results, r)
				if r.row.Accepted {
					a.p.accepted++
				}
				return nil
			},
			llm.LogFailures(func(a attempt) string { return a.p.ProblemID }))
		if err != nil {
			return Summary{}, err
		}
		if round == 0 && cfg.Derivation == study.FromReasoning && len(results) > 0 && !slices.ContainsFunc(results, func(r result) bool { return r.reasoned }) {
			return Summary{}, fmt.Errorf("%w in any of its %d replies, and --derivation reasoning makes the references of its reasoning: "+
				"use a thinking model that returns it (Qwen3.6-Plus on Model Studio: --server modelstudio), or --derivation answer "+
				"for the model's answers (the replies are kept: a rerun asks nothing again)", ErrNoReasoning, len(results))
		}
	}
	prog.Finish()
	sum := Summary{Problems: len(problems), Grown: grown, Spent: spent}
	for _, p := range problems {
		sum.Attempts += p.attempts
		if p.accepted >= cfg.PerProblem {
			sum.Complete++
		} else {
			sum.Short = append(sum.Short, fmt.Sprintf("%s (%d of %d)", p.ProblemID, p.accepted, cfg.PerProblem))
		}
	}
	return sum, out.write(cfg, problems, results, &sum)
}

// referenceKey is the identity of a problem's ref-th reference trace.
func referenceKey(model, level, problemID string, ref int) transforms.TraceKey {
	return transforms.TraceKey{Model: model, InputLang: study.English, ReasoningLang: study.English,
		Level: level, ProblemID: problemID, Seed: int64(ref), Method: string(study.Reference)}
}

func loadProblems(cfg Config) ([]*problem, error) {
	want := map[string]bool{}
	for _, l := range cfg.Levels {
		want[l] = true
	}
	var out []*problem
	err := store.Scan(cfg.Data, schema.Problems, func(p *schema.Problem) error {
		if p.Lang == study.English && want[p.Level] && (cfg.Limit == 0 || int(p.K) < cfg.Limit) {
			out = append(out, &problem{Problem: *p, gold: mathverify.NewGold(p.Answer)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading problems (run datg ingest first): %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no English problems of levels %v in %s", cfg.Levels, cfg.Data)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Level != out[j].Level {
			return slices.Index(study.Levels, study.Level(out[i].Level)) < slices.Index(study.Levels, study.Level(out[j].Level))
		}
		return out[i].K < out[j].K
	})
	return out, nil
}

// request is attempt a with the given budget. A reply that spends it
// reasoning is kept, graded as it is (no answer) and counted.
func request(cfg Config, a attempt, budget int) llm.Request {
	seed := cfg.Seed + int64(a.n)
	req := llm.Request{
		API: cfg.Target.API, Model: cfg.Target.Model, MaxTokens: budget, KeepSpent: true,
		Temperature: cfg.Temperature, TopP: cfg.TopP, Seed: &seed, Sample: a.n,
	}
	user := cfg.Prompts.ReferenceUser(prompts.ReferenceInput{Question: a.p.Question})
	if req.API == llm.APIChat {
		// The server renders the messages into one text and tokenizes it
		// as a raw prompt, control tokens and all (RenderChatML breaks them).
		req.Messages = []llm.Message{{Role: "system", Content: transforms.NeutralizeChatTokens(cfg.Prompts.ReferenceSystem())},
			{Role: "user", Content: transforms.NeutralizeChatTokens(user)}}
	} else {
		req.Prompt = transforms.RenderChatML(cfg.Prompts.ReferenceSystem(), user)
	}
	return req
}

// result is one graded attempt.
type result struct {
	row      schema.Reference
	text     string           // the derivation as a trace text
	reasoned bool             // the reply held reasoning
	sent     llm.SentSampling // the sampling the request sent
	served   string           // the model id the server answered with
}

// grade makes the reply's derivation (its trace text) and grades it with
// Math-Verify, as datg verify would grade the reference trace.
func grade(derivation study.Derivation, a attempt, req llm.Request, resp llm.Response) result {
	text, reasoned := derivationText(derivation, resp)
	v := a.p.gold.Grade(text)
	accepted, reason := v.Correct, v.Reason
	switch {
	case derivation == study.FromReasoning && !reasoned:
		accepted, reason = false, ReasonNoReasoning
	case resp.FinishReason == "length":
		accepted, reason = false, ReasonLength
	}
	if llm.SpentOnReasoning(req, resp) {
		reason = fmt.Sprintf("the model spent its budget reasoning (%d of %d completion tokens, max_completion_tokens %d): %s",
			resp.ReasoningTokens, resp.CompletionTokens, req.MaxTokens, reason)
	}
	return result{
		row: schema.Reference{
			ProblemID: a.p.ProblemID, Attempt: int32(a.n), Accepted: accepted, RefIndex: -1, Model: req.Model,
			Reasoning: resp.Reasoning, Response: resp.Text, Extracted: v.Extracted, Reason: reason,
			FinishReason: resp.FinishReason, PromptTokens: int64(resp.PromptTokens), CompletionTokens: int64(resp.CompletionTokens),
			RequestKey: req.Key().String(), Derivation: string(derivation), Grader: string(Grader),
		},
		text: text, reasoned: reasoned, sent: req.Sent(), served: resp.Model,
	}
}

// derivationText is the reply's derivation as a trace text, and whether
// the reply held reasoning. The reasoning, then the answer: the reply put
// back together in the think tags (a server's reasoning parser returns the
// two apart; a server without one, inline); or the answer alone: the
// content, or what follows </think>.
func derivationText(derivation study.Derivation, resp llm.Response) (text string, reasoned bool) {
	if resp.Split() {
		reasoned = strings.TrimSpace(resp.Reasoning) != ""
		if derivation == study.FromAnswer {
			return strings.TrimLeft(resp.Text, "\n"), reasoned
		}
		// The model opened its own <think> (the chat template does not),
		// and a reasoning parser dropped that tag with the one that
		// closed it.
		return transforms.ThinkOpen + resp.Continuation(), reasoned
	}
	before, after, inline := strings.Cut(resp.Text, transforms.ThinkClose)
	reasoned = inline && strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(before), strings.TrimSpace(transforms.ThinkOpen))) != ""
	if derivation == study.FromAnswer && inline {
		return strings.TrimLeft(after, "\n"), reasoned
	}
	return resp.Text, reasoned
}

// output is the run's commit: derivations and their reference traces,
// committed together.
type output struct {
	tx          *store.Tx
	derivations *store.Merger[schema.Reference]
	traces      *store.Merger[schema.Trace]
}

// openOutput starts the commit, taking the two tables' locks.
func openOutput(cfg Config) (*output, error) {
	meta := store.Meta{Stage: "references", ConfigHash: store.HashConfig(struct {
		Model string
		Cfg   Config
	}{cfg.Target.Model, Config{PerProblem: cfg.PerProblem, MaxAttempts: cfg.MaxAttempts, Temperature: cfg.Temperature,
		TopP: cfg.TopP, MaxTokens: cfg.MaxTokens, Seed: cfg.Seed, Derivation: cfg.Derivation}}), DryRun: cfg.Target.Pool.DryRun != nil}
	tx, err := store.Begin(cfg.Data, meta)
	if err != nil {
		return nil, err
	}
	out := &output{tx: tx}
	if out.derivations, err = store.MergeIn(tx, schema.References); err == nil {
		out.traces, err = store.MergeIn(tx, schema.Traces)
	}
	if err != nil {
		tx.Abort()
		return nil, err
	}
	return out, nil
}

// write numbers the accepted references of each problem in attempt order and
// merges derivations and the reference traces.
func (o *output) write(cfg Config, problems []*problem, results []result, sum *Summary) error {
	byProblem := map[string]*problem{}
	for _, p := range problems {
		byProblem[p.ProblemID] = p
	}
	sort.Slice(results, func(i, j int) bool {
		a, b := results[i].row, results[j].row
		if a.ProblemID != b.ProblemID {
			return a.ProblemID < b.ProblemID
		}
		return a.Attempt < b.Attempt
	})
	next := map[string]int{}
	now := time.Now().UTC()
	for _, r := range results {
		p := byProblem[r.row.ProblemID]
		if r.row.Accepted && next[p.ProblemID] < cfg.PerProblem {
			ref := next[p.ProblemID]
			next[p.ProblemID]++
			sum.Accepted++
			key := referenceKey(r.row.Model, p.Level, p.ProblemID, ref)
			r.row.RefIndex, r.row.TraceID = int32(ref), transforms.TraceID(key)
			err := o.traces.Write(schema.Trace{
				TraceID: r.row.TraceID, Model: r.row.Model, InputLang: study.English, ReasoningLang: study.English,
				Direction: string(study.EnEn), Level: p.Level, ProblemID: p.ProblemID, Seed: int64(ref), Method: string(study.Reference),
				Text: r.text, TextHash: transforms.TextHash(r.text), CompletionTokens: r.row.CompletionTokens,
				PromptTokens: r.row.PromptTokens, FinishReason: r.row.FinishReason, Truncated: r.row.FinishReason == "length",
				MaxTokens: r.sent.MaxTokens, Temperature: r.sent.Temperature, TopP: r.sent.TopP, TopK: r.sent.TopK,
				RepetitionPenalty: r.sent.RepetitionPenalty, ServedModel: r.served,
				RequestKey: r.row.RequestKey, PromptSet: r.row.PromptSet, Source: "references", CreatedAt: now,
			})
			if err != nil {
				return err
			}
		}
		if err := o.derivations.Write(r.row); err != nil {
			return err
		}
	}
	return o.tx.Commit()
}
