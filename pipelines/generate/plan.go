package generate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms"
)

// job is one trace to sample. Jobs are enumerated on demand, not held, so a
// run of any size keeps a constant number of them in memory.
type job struct {
	key       transforms.TraceKey
	direction string
	question  string
	budget    int
}

// plan is the set of jobs of a run.
type plan struct {
	study      Study
	problems   map[string]string // lang + "\x00" + problem_id -> question
	levelKs    map[string][]int  // level -> problem indexes in use
	pairs      [][2]string       // (input, reasoning) language pairs, in direction order
	directions []string
}

// newPlan checks that every question the study needs is ingested.
func newPlan(dir string, s Study) (*plan, error) {
	p := &plan{study: s, problems: map[string]string{}, levelKs: map[string][]int{}}
	for _, d := range s.Directions {
		if d == transforms.EnEn {
			p.pairs = append(p.pairs, [2]string{transforms.English, transforms.English})
			p.directions = append(p.directions, d)
			continue
		}
		for _, x := range s.targets() {
			in, out, _ := transforms.DirectionPairs(d, x)
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
		if r.Lang == transforms.English {
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

// size is the number of jobs.
func (p *plan) size() int {
	n := 0
	for _, ks := range p.levelKs {
		n += len(ks)
	}
	return n * len(p.pairs) * len(p.study.Models) * len(p.study.Seeds)
}

// each calls yield for every job in a fixed order (model, level, problem,
// direction, language, seed) until yield returns false.
func (p *plan) each(yield func(job) bool) {
	for _, model := range p.study.Models {
		for _, level := range p.study.Levels {
			for _, k := range p.levelKs[level] {
				id := transforms.ProblemID(level, k)
				for i, pair := range p.pairs {
					for _, seed := range p.study.Seeds {
						j := job{
							key: transforms.TraceKey{Model: model, InputLang: pair[0], ReasoningLang: pair[1],
								Level: level, ProblemID: id, Seed: seed, Method: "base"},
							direction: p.directions[i],
							question:  p.problems[pair[0]+"\x00"+id],
							budget:    p.study.Budgets[level],
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

// conversation is the job's query: system message and prefix in the
// reasoning language, the problem in the input language.
func (j job) conversation() transforms.Conversation {
	lang, err := prompts.Lookup(j.key.ReasoningLang)
	if err != nil {
		panic(err) // languages were validated with the study
	}
	return transforms.Conversation{System: lang.System, User: j.question, Prefix: lang.Prefix}
}

// request is the job's LLM call.
func (p *plan) request(j job) llm.Request {
	conv := j.conversation()
	seed := j.key.Seed
	req := llm.Request{
		Model:       j.key.Model,
		MaxTokens:   j.budget,
		Temperature: p.study.Temperature,
		TopP:        p.study.TopP,
		Seed:        &seed,
		// vLLM's own sampling field; sent even at 1 so the run's setting is
		// explicit on the wire and in the cache key.
		Extra: map[string]any{"repetition_penalty": p.study.RepetitionPenalty},
	}
	if p.study.TopK > 0 {
		req.Extra["top_k"] = p.study.TopK
	}
	if p.study.API == "chat" {
		req.API = llm.APIChat
		req.Messages = []llm.Message{
			{Role: "system", Content: conv.System},
			{Role: "user", Content: conv.User},
			{Role: "assistant", Content: conv.AssistantStart()},
		}
		req.Extra["continue_final_message"] = true
		req.Extra["add_generation_prompt"] = false
		// Qwen3's own template renders a final assistant message after an
		// empty, closed <think></think>, which would switch thinking off;
		// this template renders the turn as RenderQwen3 does.
		req.Extra["chat_template"] = transforms.ChatMLContinueTemplate
	} else {
		req.API = llm.APICompletions
		req.Prompt = transforms.RenderQwen3(conv)
	}
	return req
}
