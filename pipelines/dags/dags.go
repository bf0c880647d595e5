package dags

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/datg/datg/internal/bounds"
	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/progress"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
	"github.com/datg/datg/transforms/datg"
)

// Budget is the size guidance of one level's DAGs, the paper's
// target_max_* placeholders. It is written into the DAG prompt as guidance
// ("aim for about"); no reply is ever checked against it (the only limits
// are transforms/datg's safety caps: 200 nodes, 32 parents).
type Budget struct {
	Nodes     int `json:"nodes"`      // about how many nodes to aim for
	DescChars int `json:"desc_chars"` // about how long a node description should be
	Parents   int `json:"parents"`    // about how many parents a node should have at most
}

// Config is one dags run.
type Config struct {
	Data string
	// Symbolic builds DAGs without an LLM; otherwise Target's model builds them.
	Symbolic bool
	Target   llm.Target
	// MaxTokens is the token budget of a reply; 0 takes DefaultMaxTokens,
	// or llm.ReasoningBudget for a model whose budget also pays for its
	// reasoning (an OpenAI reasoning model on a server that is not vLLM).
	MaxTokens      int
	Budgets        map[string]Budget // by level
	ReferenceModel string            // whose references to use, when several models wrote some
	Prompts        *prompts.Set      // --prompts DIR; nil sends the builtin set
	Stderr         io.Writer
}

// DefaultMaxTokens is the budget of a DAG reply that is only the reply
// (vLLM, and chat models that do not reason).
const DefaultMaxTokens = 8192

// DefaultConfig builds DAGs with an LLM, with budgets growing with the
// level, each reply with the token budget its model needs (MaxTokens 0).
func DefaultConfig() Config {
	return Config{
		Data:   store.DefaultDir,
		Target: llm.Target{API: llm.APIChat, Pool: llm.DefaultOptions()},
		Budgets: map[string]Budget{
			string(study.Low): {8, 60, 3}, string(study.Medium): {12, 60, 3}, string(study.High): {16, 60, 4}, string(study.Top): {20, 60, 4},
		},
	}
}

// Validate checks the run.
func (c Config) Validate() error {
	var p inputerr.Problems
	for _, level := range slices.Sorted(maps.Keys(c.Budgets)) {
		b := c.Budgets[level]
		if !study.ValidLevel(level) {
			p.Add("Budgets", "budget of unknown level %q (known: %v)", level, study.Levels)
		}
		if b.Nodes < 1 || b.DescChars < 1 || b.Parents < 1 || b.Nodes > datg.MaxNodes || b.Parents > datg.MaxParents || b.DescChars > 100_000 {
			p.Add("Budgets", "budget of %s: %d nodes, %d description characters, %d parents: each must be at least 1 (and at most %d nodes, %d parents, 100000 characters, the DAG caps)",
				level, b.Nodes, b.DescChars, b.Parents, datg.MaxNodes, datg.MaxParents)
		}
	}
	if !c.Symbolic {
		p.Nested(c.Target.Validate())
		if c.MaxTokens != 0 {
			p.Check("MaxTokens", bounds.Budget(c.MaxTokens))
		}
	}
	return p.Err()
}

// Summary counts the DAGs built.
type Summary struct {
	DAGs, Valid, Repaired int
	// Changed counts the DAGs that replaced one of different content: the
	// alignments made against those are stale until aligned again.
	Changed int
	// Grown counts the replies asked again with a larger budget because
	// the first spent its budget reasoning; Spent those still without a
	// DAG for that reason (invalid, the reason saying so).
	Grown, Spent int
}

// reference is one accepted derivation to build a DAG from, with its
// problem's level (which sets the DAG's budget).
type reference struct {
	row   schema.Reference
	level string
}

// derivation is what the DAG builder converts, as the reference was made
// (derivations.derivation): the answer alone (what follows a </think>
// when the reasoning came inline), or the reasoning, the answer being the
// final response beside it (a row of an older datg, which has no
// derivation, is such).
func (r reference) derivation() string {
	if r.row.Derivation == string(study.FromAnswer) {
		return strings.TrimLeft(transforms.AnswerPart(r.row.Response), "\n")
	}
	if r.row.Reasoning != "" {
		return r.row.Reasoning
	}
	return r.row.Response
}

// final is the final response quoted beside the derivation: the answer
// (the derivation itself, when it is the answer).
func (r reference) final() string {
	if r.row.Derivation == string(study.FromAnswer) {
		return r.derivation()
	}
	return r.row.Response
}

// Run builds a DAG from every accepted reference derivation.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	refs, err := loadReferences(cfg)
	if err != nil {
		return Summary{}, err
	}
	builder := datg.SymbolicBuilder
	if !cfg.Symbolic {
		builder = cfg.Target.Model
	}
	w, err := NewWriter(cfg.Data, store.Meta{Stage: "dags", ConfigHash: store.HashConfig(struct {
		Builder string
		Budgets map[string]Budget
	}{builder, cfg.Budgets}), DryRun: !cfg.Symbolic && cfg.Target.Pool.DryRun != nil})
	if err != nil {
		return Summary{}, err
	}
	defer w.Abort()
	var mu sync.Mutex
	var sum Summary
	add := func(row schema.DAG, nodes []schema.Node, edges []schema.Edge) error {
		mu.Lock()
		defer mu.Unlock()
		sum.DAGs++
		if row.Valid {
			sum.Valid++
		}
		if row.Repaired {
			sum.Repaired++
		}
		return w.Add(row, nodes, edges)
	}
	var budget int // the requests' (after the pool decides what the servers are)
	prog := progress.Start(cfg.Stderr, "dags", len(refs))
	defer prog.Finish() // on every error path too; Finish is idempotent
	if cfg.Symbolic {
		for _, r := range refs {
			text := r.derivation() // the answer alone, or the reasoning then the answer
			if r.row.Derivation != string(study.FromAnswer) {
				text += "\n" + r.row.Response
			}
			raw := datg.SymbolicDAGJSON(text, r.row.Extracted)
			row, nodes, edges, _ := Rows(r.row.ProblemID, int(r.row.RefIndex), raw, builder)
			if err := add(row, nodes, edges); err != nil {
				return sum, err
			}
			prog.Done(0)
		}
	} else {
		client, closeJournal, err := cfg.Target.Open(cfg.Data, "dags", cfg.Stderr)
		if err != nil {
			return sum, err
		}
		defer closeJournal()
		budget = client.Pool.Budget(cfg.Target.Model, cfg.MaxTokens, DefaultMaxTokens)
		err = llm.Fanout(ctx, client, prog,
			func(yield func(reference, llm.Request) bool) error {
				for _, r := range refs {
					if !yield(r, cfg.request(r, budget)) {
						break
					}
				}
				return nil
			},
			func(r reference, req llm.Request, resp llm.Response, _ bool) error {
				row, nodes, edges, err := cfg.build(ctx, client, r, req, resp)
				if err != nil {
					return err
				}
				mu.Lock()
				if req.MaxTokens > budget {
					sum.Grown++
				}
				if llm.SpentOnReasoning(req, resp) && !row.Valid {
					sum.Spent++
				}
				mu.Unlock()
				return add(row, nodes, edges)
			},
			llm.LogFailures(func(r reference) string { return ID(r.row.ProblemID, int(r.row.RefIndex)) }))
		if err != nil {
			return sum, err
		}
	}
	prog.Finish()
	if err := w.Commit(); err != nil {
		return sum, err
	}
	sum.Changed = w.Changed
	return sum, nil
}

// loadReferences reads the accepted references with their problems' levels.
func loadReferences(cfg Config) ([]reference, error) {
	snap, err := store.Pin(cfg.Data) // derivations and problems of one commit
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	var refs []reference
	models := map[string]bool{}
	err = store.Scan(snap.Dir, schema.References, func(r *schema.Reference) error {
		if r.Accepted && r.RefIndex >= 0 && (cfg.ReferenceModel == "" || r.Model == cfg.ReferenceModel) {
			refs = append(refs, reference{row: *r})
			models[r.Model] = true
		}
		return nil
	})
	if errors.Is(err, store.ErrNoTable) {
		return nil, fmt.Errorf("no derivations in %s (run datg references first)", cfg.Data)
	}
	if err != nil {
		return nil, err
	}
	if len(models) > 1 {
		var names []string
		for m := range models {
			names = append(names, m)
		}
		sort.Strings(names)
		return nil, inputerr.Invalid(inputerr.BadField("ReferenceModel", "references come from several models %v; choose one", names))
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("no accepted references in %s", cfg.Data)
	}
	levels := map[string]string{}
	err = store.ScanProjection(snap.Dir, schema.Problems.Table, func(p *problemLevel) error {
		levels[p.ProblemID] = p.Level
		return nil
	})
	for i := range refs {
		refs[i].level = levels[refs[i].row.ProblemID]
	}
	return refs, err
}

// problemLevel is the part of a problems row the DAG budget needs.
type problemLevel struct {
	ProblemID string `parquet:"problem_id"`
	Level     string `parquet:"level"`
}

func (cfg Config) budget(level string) Budget {
	if b, ok := cfg.Budgets[level]; ok {
		return b
	}
	return Budget{12, 60, 3}
}

// tailChars is how much of a derivation's end is quoted as its settled tail.
const tailChars = 1500

func (cfg Config) messages(r reference) []llm.Message {
	d := r.derivation()
	tail := d
	if rs := []rune(d); len(rs) > tailChars {
		tail = string(rs[len(rs)-tailChars:])
	}
	b := cfg.budget(r.level)
	user := cfg.Prompts.DAGUser(prompts.DAGInput{Derivation: d, Tail: tail, Final: r.final(),
		TargetMaxNodes: b.Nodes, TargetMaxDescChars: b.DescChars, TargetMaxParents: b.Parents})
	return []llm.Message{{Role: "system", Content: cfg.Prompts.DAGSystem()}, {Role: "user", Content: user}}
}

// request asks for the DAG of a reference with the given budget. A reply
// that spends the budget reasoning is kept, to be counted (Summary.Spent).
func (cfg Config) request(r reference, budget int) llm.Request {
	return llm.Request{API: llm.APIChat, Model: cfg.Target.Model, Messages: cfg.messages(r), MaxTokens: budget, TopP: 1, KeepSpent: true}
}

// build validates the reply to req and, when the DAG is invalid, asks once
// for a repair quoting the problem.
func (cfg Config) build(ctx context.Context, client llm.Journaled, r reference, req llm.Request, resp llm.Response) (schema.DAG, []schema.Node, []schema.Edge, error) {
	answer := transforms.AnswerPart(resp.Text) // a model without a reasoning parser returns its thinking inline
	row, nodes, edges, verr := Rows(r.row.ProblemID, int(r.row.RefIndex), answer, cfg.Target.Model)
	row.PromptTokens, row.CompletionTokens = int64(resp.PromptTokens), int64(resp.CompletionTokens)
	row.PromptSet = cfg.Prompts.Hash()
	if verr == nil {
		return row, nodes, edges, nil
	}
	if llm.SpentOnReasoning(req, resp) {
		// No DAG to repair, and a repair would spend the budget again.
		row.Reason = fmt.Sprintf("the builder spent its budget reasoning: %d of %d completion tokens were reasoning (finish_reason length, max_completion_tokens %d): %s",
			resp.ReasoningTokens, resp.CompletionTokens, req.MaxTokens, row.Reason)
		return row, nodes, edges, nil
	}
	repair := req
	repair.Messages = append(slices.Clip(req.Messages),
		llm.Message{Role: "assistant", Content: answer},
		llm.Message{Role: "user", Content: cfg.Prompts.DAGRepairUser(prompts.DAGRepairInput{Error: verr.Error()})})
	fixed, _, err := client.Do(ctx, repair)
	if err != nil {
		if llm.RequestFailed(err) {
			row.Reason += " (the repair request failed: " + err.Error() + ")"
			return row, nodes, edges, nil
		}
		return row, nodes, edges, err
	}
	row2, nodes2, edges2, _ := Rows(r.row.ProblemID, int(r.row.RefIndex), transforms.AnswerPart(fixed.Text), cfg.Target.Model)
	row2.Repaired = true
	row2.PromptSet = row.PromptSet
	row2.PromptTokens = row.PromptTokens + int64(fixed.PromptTokens)
	row2.CompletionTokens = row.CompletionTokens + int64(fixed.CompletionTokens)
	if !row2.Valid {
		row2.Reason = "after repair: " + row2.Reason + "; first reply: " + row.Reason
	}
	return row2, nodes2, edges2, nil
}
