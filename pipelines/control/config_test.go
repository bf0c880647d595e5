package control_test

import (
	"context"
	"errors"
	"math"
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
// and the study's are range-checked before any request.
func TestControlSettingsOutOfRange(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	eps, urls := simulatetest.Start(t, data, simulate.DefaultConfig())
	for name, c := range map[string]struct {
		edit func(*control.Config)
		want string
	}{
		"many trials":         {func(c *control.Config) { c.MaxTrials = 101 }, "max trials must be in [1, 100], not 101"},
		"first penalty":       {func(c *control.Config) { c.FirstPenalty = -1 }, "first-trial repetition penalty out of range"},
		"retry penalty":       {func(c *control.Config) { c.RetryPenalty = math.Inf(1) }, "retry repetition penalty out of range"},
		"scaffold temp":       {func(c *control.Config) { c.Scaffold.Temperature = 1e300 }, "scaffold temperature out of range"},
		"scaffold top_p":      {func(c *control.Config) { c.Scaffold.TopP = 0 }, "scaffold top_p out of range"},
		"scaffold penalty":    {func(c *control.Config) { c.Scaffold.RepetitionPenalty = math.NaN() }, "scaffold repetition penalty out of range"},
		"scaffold budget":     {func(c *control.Config) { c.Scaffold.MaxTokens = 3_000_000_000 }, "scaffold max tokens out of range"},
		"study temperature":   {func(c *control.Config) { c.Generation.Study.Temperature = 1e300 }, "temperature out of range"},
		"study budget":        {func(c *control.Config) { c.Generation.Study.Budgets["low"] = 3_000_000_000 }, "budgets.low out of range"},
		"study top_p":         {func(c *control.Config) { c.Generation.Study.TopP = -5 }, "top_p out of range"},
		"study penalty":       {func(c *control.Config) { c.Generation.Study.RepetitionPenalty = -1 }, "repetition_penalty out of range"},
		"study seeds":         {func(c *control.Config) { c.Generation.Study.Seeds = []int64{-42} }, "seeds out of range"},
		"study top_k":         {func(c *control.Config) { c.Generation.Study.TopK = -7 }, "top_k out of range"},
		"study slots":         {func(c *control.Config) { c.Generation.Study.SlotsPerEndpoint = 1 << 20 }, "slots_per_endpoint out of range"},
		"formula scaffold up": {func(c *control.Config) { c.Method = study.FormulaRetry; c.Scaffold.MaxTokens = 0 }, "scaffold max tokens out of range"},
	} {
		cfg := control.DefaultConfig()
		cfg.Generation.Data, cfg.Method, cfg.Generation.Endpoints, cfg.Generation.Pool = data, study.LoopRetry, urls, pipelinetest.QuickPool()
		cfg.Generation.Study.Levels, cfg.Generation.Study.Limit = []string{"low"}, 1
		c.edit(&cfg)
		_, err := control.Run(context.Background(), cfg)
		if !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
		if name != "many trials" && !errors.Is(err, bounds.ErrOutOfRange) {
			t.Errorf("%s: %v is not ErrOutOfRange", name, err)
		}
	}
	if n, _ := pipelinetest.Served(eps[0].Server); n != 0 {
		t.Fatalf("%d requests reached the server", n)
	}
}
