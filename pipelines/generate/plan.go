package generate

import (
	"fmt"
	"iter"
	"sort"
	"strings"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// Job is one trace to sample. Jobs are enumerated on demand, not held, so a
// run of any size keeps a constant number of them in memory.
type Job struct {
	Key       transforms.TraceKey
	Direction string
	Question  string // in the input language
	Budget    int    // the level's token budget
	prompts   *prompts.Set
}

// Plan is the set of jobs of a run.
type Plan struct {
	study      Study
	problems   map[string]string // lang + "\x00" + problem_id -> question
	levelKs    map[string][]int  // level -> problem indexes in use
	pairs      [][2]string       // (input, reasoning) language pairs, in direction order
	directions []string
	prompts    *prompts.Set // the run's prompt set (nil: the builtin one)
}

// NewPlan checks that every question the study needs is ingested.
func NewPlan(dir string, s Study) (*Plan, error) {
	p := &Plan{study: s, problems: map[string]string{}, levelKs: map[string][]int{}}
	for _, d := range s.Directions {
		if study.Direction(d) == study.EnEn {
			p.pairs = append(p.pairs, [2]string{study.English, study.English})
			p.directions = append(p.directions, d)
			continue
		}
		for _, x := range s.targets() {
			in, out, _ := study.Direction(d).Pair(x)
			p.pairs = append(p.pairs, [2]string{in, out})
			p.directions = append(p.directions, d)
		}
	}
	wantLevel := map[string]bool{}
	for _, l := range s.Levels {
		wantLevel[l] = true
	}
	enKs := map[string][]int{}
	err := store.Scan(dir, schema.Problems, func(r *schema.Problem) error {
		if !wantLevel[r.Level] {
			return nil
		}
		p.problems[r.Lang+"\x00"+r.ProblemID] = r.Question
		if r.Lang == study.English {
			enKs[r.Level] = append(enKs[r.Level], int(r.K))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading problems (run datg ingest first): %w", err)
	}
	var missing []string
	for _, level := range s.Levels {
		ks := enKs[level]
		sort.Ints(ks)
		if len(ks) == 0 {
			return nil, fmt.Errorf("no English %s problems ingested: %w", level, ErrMissingProblem)
		}
		if s.Limit > 0 && len(ks) > s.Limit {
			ks = ks[:s.Limit]
		}
		p.levelKs[level] = ks
		for _, k := range ks {
			id := transforms.ProblemID(level, k)
			for _, pair := range p.pairs {
				if _, ok := p.problems[pair[0]+"\x00"+id]; !ok && len(missing) < 5 {
					missing = append(missing, pair[0]+"/"+id)
				}
			}
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the problems table lacks %s (ingest those languages): %w", strings.Join(missing, ", "), ErrMissingProblem)
	}
	return p, nil
}

// Size is the number of jobs.
func (p *Plan) Size() int {
	n := 0
	for _, ks := range p.levelKs {
		n += len(ks)
	}
	return n * len(p.pairs) * len(p.study.Models) * len(p.study.Seeds)
}

// Each calls yield for every job in a fixed order (model, level, problem,
// direction, language, seed) until yield returns false.
func (p *Plan) Each(yield func(Job) bool) {
	for _, model := range p.study.Models {
		for _, level := range p.study.Levels {
			for _, k := range p.levelKs[level] {
				id := transforms.ProblemID(level, k)
				for i, pair := range p.pairs {
					for _, seed := range p.study.Seeds {
						j := Job{
							Key: transforms.TraceKey{Model: model, InputLang: pair[0], ReasoningLang: pair[1],
								Level: level, ProblemID: id, Seed: seed, Method: string(study.Base)},
							Direction: p.directions[i],
							Question:  p.problems[pair[0]+"\x00"+id],
							Budget:    p.study.Budgets[level],
							prompts:   p.prompts,
						}
						if !yield(j) {
							return
						}
					}
				}
			}
		}
	}
}

// Keys are the identities of the plan's traces under a method (study.Base
// for the direction probe; a control's method for its traces).
func (p *Plan) Keys(method study.Method) iter.Seq[transforms.TraceKey] {
	return func(yield func(transforms.TraceKey) bool) {
		p.Each(func(j Job) bool {
			j.Key.Method = string(method)
			return yield(j.Key)
		})
	}
}

// Conversation is the job's query: system message and prefix in the
// reasoning language (from the run's prompt set), the problem in the input
// language.
func (j Job) Conversation() transforms.Conversation {
	lang, err := j.prompts.Language(j.Key.ReasoningLang)
	if err != nil {
		panic(err) // languages were validated with the study
	}
	return transforms.Conversation{System: lang.System, User: j.Question, Prefix: lang.Prefix}
}

// Prompts is the job's prompt set (never nil).
func (j Job) Prompts() *prompts.Set {
	if j.prompts == nil {
		return prompts.Builtin()
	}
	return j.prompts
}

// request is the job's LLM call.
func (p *Plan) request(j Job) llm.Request {
	return Query(p.study.API, j.Key.Model, j.Conversation(), Sampling{
		MaxTokens: j.Budget, Temperature: p.study.Temperature, TopP: p.study.TopP,
		RepetitionPenalty: p.study.RepetitionPenalty, TopK: p.study.TopK, Seed: j.Key.Seed})
}
