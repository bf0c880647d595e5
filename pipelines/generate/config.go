package generate

import (
	"github.com/datg/datg/internal/store"

	_ "embed"
	"fmt"
	"io"
	"slices"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/study"
)

//go:embed study.json
var studyJSON []byte

// Study is what to sample: the paper's settings by default (study.json).
type Study struct {
	Models            []string       `json:"models"`
	Directions        []string       `json:"directions"`
	Langs             []string       `json:"langs"` // x ranges over the non-English ones
	Levels            []string       `json:"levels"`
	Seeds             []int64        `json:"seeds"`
	Temperature       float64        `json:"temperature"`
	TopP              float64        `json:"top_p"`
	RepetitionPenalty float64        `json:"repetition_penalty"`
	TopK              int            `json:"top_k"`   // -1 (off) or at least 1, always sent (study.json: Qwen3's 20)
	Budgets           map[string]int `json:"budgets"` // max completion tokens per level
	API               string         `json:"api"`     // "completions" (raw Qwen3 prompt) or "chat"
	SlotsPerEndpoint  int            `json:"slots_per_endpoint"`
	Limit             int            `json:"limit,omitempty"` // first N problems of each level; 0 = all
}

// DefaultStudy is the paper's study as checked in.
func DefaultStudy() Study {
	s, err := parseStudy(studyJSON, "study.json", Study{})
	if err != nil {
		panic("generate: embedded study.json: " + err.Error())
	}
	return s
}

// Validate checks the study against the known languages, levels and
// directions, and its numbers against their ranges. Each problem is an
// inputerr.FieldError naming the Study field.
func (s Study) Validate() error {
	var p inputerr.Problems
	if len(s.Models) == 0 {
		p.Add("Models", "none given")
	}
	if len(s.Seeds) == 0 {
		p.Add("Seeds", "none given")
	}
	if len(s.Directions) == 0 {
		p.Add("Directions", "none given")
	}
	for _, d := range s.Directions {
		if !slices.Contains(study.Directions, study.Direction(d)) {
			p.Add("Directions", "unknown direction %q (known: %v)", d, study.Directions)
		}
	}
	for _, l := range s.Langs {
		if _, err := study.LookupLanguage(l); err != nil {
			p.Add("Langs", "%w", err)
		}
	}
	if len(s.Levels) == 0 {
		p.Add("Levels", "none given")
	}
	for _, l := range s.Levels {
		if !study.ValidLevel(l) {
			p.Add("Levels", "unknown level %q (known: %v)", l, study.Levels)
		} else if s.Budgets[l] <= 0 {
			p.Add("Budgets", "no token budget for level %s", l)
		}
	}
	for _, rp := range s.rangeProblems() {
		p.Nested(rp.configError())
	}
	if s.API != "completions" && s.API != "chat" {
		p.Add("API", "%q is neither completions nor chat", s.API)
	}
	for _, f := range []struct {
		name string
		list []string
	}{{"Models", s.Models}, {"Directions", s.Directions}, {"Langs", s.Langs}, {"Levels", s.Levels}} {
		if d := firstDuplicate(f.list); d != "" {
			p.Add(f.name, "lists %q twice", d)
		}
	}
	seeds := make([]string, len(s.Seeds))
	for i, v := range s.Seeds {
		seeds[i] = fmt.Sprint(v)
	}
	if d := firstDuplicate(seeds); d != "" {
		p.Add("Seeds", "lists %s twice", d)
	}
	return p.Err()
}

func firstDuplicate(list []string) string {
	seen := map[string]bool{}
	for _, v := range list {
		if seen[v] {
			return v
		}
		seen[v] = true
	}
	return ""
}

// targets are the non-English languages of the study: what x ranges over.
func (s Study) targets() []string {
	var xs []string
	for _, l := range s.Langs {
		if l != study.English && !slices.Contains(xs, l) {
			xs = append(xs, l)
		}
	}
	return xs
}

// Config is one generate run.
type Config struct {
	Data      string // run directory
	Study     Study
	Endpoints []string // base URLs of the servers
	APIKey    string   // from the environment; never stored or logged
	// Pool is how requests are sent. Its SlotsPerEndpoint is not read:
	// Study.SlotsPerEndpoint (the study file's slots_per_endpoint) is the
	// one setting of the slots (see target).
	Pool llm.Options
	// KeepGoing writes the traces that finished even when some requests
	// failed for good (the run still reports the failures).
	KeepGoing bool
	// Prompts is the prompt set; nil sends the builtin one.
	Prompts *prompts.Set
	Stderr  io.Writer
}

// DefaultConfig is the paper's study (study.json) with the default pool,
// writing to data/run; it has no endpoints.
func DefaultConfig() Config {
	return Config{Data: store.DefaultDir, Study: DefaultStudy(), Pool: llm.DefaultOptions()}
}

// Validate checks the run. Each problem with a field of the Config (or of
// its Study: Study.Models) is an inputerr.FieldError naming it.
func (c Config) Validate() error {
	var p inputerr.Problems
	if c.Data == "" {
		p.Add("Data", "none given")
	}
	if len(c.Endpoints) == 0 {
		p.Add("Endpoints", "none given (one vLLM server per GPU)")
	}
	p.NestedIn("Study", c.Study.Validate())
	p.Nested(c.target().Pool.Validate())
	return p.Err()
}

// target is the servers the run sends to, and how: the one place the
// study's slots per endpoint become the pool's.
func (c Config) target() llm.Target {
	t := llm.Target{Endpoints: c.Endpoints, APIKey: c.APIKey, Pool: c.Pool}
	t.Pool.SlotsPerEndpoint = c.Study.SlotsPerEndpoint
	return t
}
