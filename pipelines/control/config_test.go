package control_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/bounds"
	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/simulate/simulatetest"
	"github.com/datg/datg/pipelines/control"
	"github.com/datg/datg/study"
)

// The control's own settings (trials, penalties, the scaffold's sampling)
// and the study's are range-checked before any request, each problem
// naming its Config field.
func TestControlSettingsOutOfRange(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	eps, urls := simulatetest.Start(t, data, simulate.DefaultConfig())
	for name, c := range map[string]struct {
		edit  func(*control.Config)
		field string
		want  string
	}{
		"many trials":         {func(c *control.Config) { c.MaxTrials = 101 }, "MaxTrials", "MaxTrials: must be in [1, 100], not 101"},
		"first penalty":       {func(c *control.Config) { c.FirstPenalty = -1 }, "FirstPenalty", "FirstPenalty: out of range"},
		"retry penalty":       {func(c *control.Config) { c.RetryPenalty = math.Inf(1) }, "RetryPenalty", "RetryPenalty: out of range"},
		"scaffold temp":       {func(c *control.Config) { c.Scaffold.Temperature = 1e300 }, "Scaffold.Temperature", "Scaffold.Temperature: out of range"},
		"scaffold top_p":      {func(c *control.Config) { c.Scaffold.TopP = 0 }, "Scaffold.TopP", "Scaffold.TopP: out of range"},
		"scaffold penalty":    {func(c *control.Config) { c.Scaffold.RepetitionPenalty = math.NaN() }, "Scaffold.RepetitionPenalty", "Scaffold.RepetitionPenalty: out of range"},
		"scaffold budget":     {func(c *control.Config) { c.Scaffold.MaxTokens = 3_000_000_000 }, "Scaffold.MaxTokens", "Scaffold.MaxTokens: out of range"},
		"study temperature":   {func(c *control.Config) { c.Generation.Study.Temperature = 1e300 }, "Generation.Study.Temperature", "Generation.Study.Temperature: out of range"},
		"study budget":        {func(c *control.Config) { c.Generation.Study.Budgets["low"] = 3_000_000_000 }, "Generation.Study.Budgets", "Generation.Study.Budgets: low: out of range"},
		"study top_p":         {func(c *control.Config) { c.Generation.Study.TopP = -5 }, "Generation.Study.TopP", "Generation.Study.TopP: out of range"},
		"study penalty":       {func(c *control.Config) { c.Generation.Study.RepetitionPenalty = -1 }, "Generation.Study.RepetitionPenalty", "Generation.Study.RepetitionPenalty: out of range"},
		"study seeds":         {func(c *control.Config) { c.Generation.Study.Seeds = []int64{-42} }, "Generation.Study.Seeds", "Generation.Study.Seeds: out of range"},
		"study top_k":         {func(c *control.Config) { c.Generation.Study.TopK = -7 }, "Generation.Study.TopK", "Generation.Study.TopK: out of range"},
		"study slots":         {func(c *control.Config) { c.Generation.Study.SlotsPerEndpoint = 1 << 20 }, "Generation.Study.SlotsPerEndpoint", "Generation.Study.SlotsPerEndpoint: out of range"},
		"formula scaffold up": {func(c *control.Config) { c.Method = study.FormulaRetry; c.Scaffold.MaxTokens = 0 }, "Scaffold.MaxTokens", "Scaffold.MaxTokens: out of range"},
	} {
		cfg := control.DefaultConfig()
		cfg.Generation.Data, cfg.Method, cfg.Generation.Endpoints, cfg.Generation.Pool = data, study.LoopRetry, urls, pipelinetest.QuickPool()
		cfg.Generation.Study.Levels, cfg.Generation.Study.Limit = []string{"low"}, 1
		c.edit(&cfg)
		_, err := control.Run(context.Background(), cfg)
		if !errors.Is(err, inputerr.ErrInvalidConfig) {
			t.Errorf("%s: got %v, want an invalid configuration", name, err)
			continue
		}
		if got := fieldNames(err); !slices.Equal(got, []string{c.field}) {
			t.Errorf("%s: fields named %q, want %q", name, got, c.field)
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not say %q", name, err, c.want)
		}
		if name != "many trials" && !errors.Is(err, bounds.ErrOutOfRange) {
			t.Errorf("%s: %v is not ErrOutOfRange", name, err)
		}
	}
	if n, _ := pipelinetest.Served(eps[0].Server); n != 0 {
		t.Fatalf("%d requests reached the server", n)
	}
}

// fieldNames are the Config fields err names.
func fieldNames(err error) []string {
	var out []string
	for _, fe := range inputerr.Fields(err) {
		out = append(out, fe.Field)
	}
	return out
}
