package annotations

import (
	"github.com/datg/datg/internal/store"

	"slices"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/study"
)

// Config is one draw of the audit.
type Config struct {
	Data     string
	Out      string   // the JSONL file written
	Langs    []string // audited languages (reasoning languages of en-x traces)
	Levels   []string // difficulty levels, each a cell per language
	PerLevel int      // instances per (language, level)
	Seed     int64
	Aligner  string   // whose scores pick the best DAG and whose candidates are listed; empty: the run's only one
	Models   []string // empty: every model of the run
	Force    bool     // replace Out when it exists
}

// The paper's audit: four languages, 20 instances per level.
var (
	DefaultLangs    = []string{"fr", "sw", "bn", "te"}
	DefaultLevels   = study.Strings(study.Low, study.Medium, study.High)
	DefaultPerLevel = 20
	DefaultSeed     = int64(42)
)

// DefaultConfig is the paper's design.
func DefaultConfig() Config {
	return Config{Data: store.DefaultDir, Langs: slices.Clone(DefaultLangs), Levels: slices.Clone(DefaultLevels),
		PerLevel: DefaultPerLevel, Seed: DefaultSeed}
}

// Validate reports every problem of the configuration at once.
func (c Config) Validate() error {
	var p inputerr.Problems
	if c.Out == "" {
		p.Add("Out", "no output file")
	}
	if len(c.Langs) == 0 {
		p.Add("Langs", "no languages to sample")
	}
	for _, l := range c.Langs {
		if l == "" || l == "en" {
			p.Add("Langs", "language %q: the audit samples en-x traces of a non-English language", l)
		}
	}
	if len(c.Levels) == 0 {
		p.Add("Levels", "no levels to sample")
	}
	for _, l := range c.Levels {
		if !study.ValidLevel(l) {
			p.Add("Levels", "level %q is not one of %v", l, study.Levels)
		}
	}
	if dup := duplicate(c.Langs); dup != "" {
		p.Add("Langs", "language %q given twice", dup)
	}
	if dup := duplicate(c.Levels); dup != "" {
		p.Add("Levels", "level %q given twice", dup)
	}
	if c.PerLevel < 1 {
		p.Add("PerLevel", "%d: at least 1", c.PerLevel)
	}
	return p.Err()
}

func duplicate(xs []string) string {
	seen := map[string]bool{}
	for _, x := range xs {
		if seen[x] {
			return x
		}
		seen[x] = true
	}
	return ""
}
