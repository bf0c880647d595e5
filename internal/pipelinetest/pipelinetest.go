// Package pipelinetest holds what the tests of datg's pipeline stages share,
// as net/http/httptest does for servers: a run directory holding the demo
// problem set, pool options that retry at once, the in-repo simulator
// serving the demo's worked solutions over loopback HTTP, request counts
// taken from it, and the LLM stages run in sequence to set up the stage
// under test.
//
// It sits above the stages (it runs ingest, references and dags) and only
// tests import it, so the binary never links it. A stage's tests that use
// it are external test packages (package dags_test); the compiler refuses
// the import cycle an in-package test would make.
package pipelinetest

import (
	"context"
	"crypto/sha256"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/pipelines/ingest"
	"github.com/datg/datg/pipelines/references"
	"github.com/datg/datg/schema"
)

// Model names the stages use with the simulator (any name is served).
const (
	ReferenceModel = "sim-reference"
	DAGModel       = "sim-dag-builder"
	AlignModel     = "sim-aligner"
)

// DemoRun ingests the demo problem set (5 problems per level in 12
// languages) into a fresh run directory and returns it.
func DemoRun(tb testing.TB) string {
	tb.Helper()
	cfg := ingest.DefaultConfig()
	cfg.Src, cfg.Data, cfg.PerLevel = testenv.Demo(tb), tb.TempDir(), 5
	if _, err := ingest.Run(context.Background(), cfg); err != nil {
		tb.Fatal(err)
	}
	return cfg.Data
}

// QuickPool is the default pool with backoffs and cooldowns of
// milliseconds, so tests that meet injected faults retry at once.
func QuickPool() llm.Options {
	o := llm.DefaultOptions()
	o.BackoffBase, o.BackoffMax = time.Millisecond, 20*time.Millisecond
	o.CooldownBase, o.CooldownMax = 20*time.Millisecond, 100*time.Millisecond
	o.Patience = time.Second
	o.MaxAttempts = 15
	return o
}

// Solutions is the demo's worked solutions (data/demo/solutions.jsonl).
func Solutions(tb testing.TB) string {
	tb.Helper()
	return filepath.Join(testenv.Demo(tb), "solutions.jsonl")
}

// SimConfig is one healthy simulated endpoint that writes the demo's
// worked solutions into its derivations and traces.
func SimConfig(tb testing.TB) simulate.Config {
	tb.Helper()
	c := simulate.DefaultConfig()
	c.Solutions = Solutions(tb)
	return c
}

// Sim is a simulated endpoint served over loopback HTTP for one test.
type Sim struct {
	URL    string // base URL, ending in /v1
	Server *simulate.Server
}

// StartSim serves a simulated endpoint configured by cfg (answering from
// the run in data, when not empty) until the test ends. It is closed the
// way httptest closes a server, which drops at once the connections a
// client opened but never used (simulate.Endpoint.Close gives them a short
// grace).
func StartSim(tb testing.TB, data string, cfg simulate.Config) *Sim {
	tb.Helper()
	if data != "" {
		cfg.Data = data
	}
	srv, err := simulate.NewServer(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	tb.Cleanup(ts.Close)
	return &Sim{URL: ts.URL + "/v1", Server: srv}
}

// Simulator serves SimConfig with the given content faults, answering from
// the run in data, until the test ends.
func Simulator(tb testing.TB, data string, content simulate.ContentFaults) *Sim {
	tb.Helper()
	c := SimConfig(tb)
	c.Content = content
	return StartSim(tb, data, c)
}

// Target is an LLM target for model on the endpoints, with QuickPool.
func Target(model string, urls ...string) llm.Target {
	return llm.Target{Endpoints: urls, Model: model, API: llm.APIChat, Pool: QuickPool()}
}

// Served counts the full responses the servers wrote, and how many of them
// answered a request body that had been answered before (a call paid
// twice).
func Served(servers ...*simulate.Server) (total int64, dup int) {
	seen := map[string]int{}
	for _, s := range servers {
		total += s.Stats().Served
		for k, n := range s.Served() {
			seen[k] += n
		}
	}
	for _, n := range seen {
		if n > 1 {
			dup += n - 1
		}
	}
	return total, dup
}

// References writes perProblem accepted reference derivations of the first
// limit problems of each level, sampled from sim (in at most 4 * perProblem
// attempts), and fails the test on an error.
func References(tb testing.TB, data string, sim *Sim, limit, perProblem int) references.Summary {
	tb.Helper()
	cfg := references.DefaultConfig()
	cfg.Data, cfg.Target, cfg.Limit = data, Target(ReferenceModel, sim.URL), limit
	cfg.PerProblem, cfg.MaxAttempts = perProblem, 4*perProblem
	sum, err := references.Run(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return sum
}

// DAGs builds a DAG from every accepted reference of the run with sim as
// the builder, and fails the test on an error.
func DAGs(tb testing.TB, data string, sim *Sim) dags.Summary {
	tb.Helper()
	cfg := dags.DefaultConfig()
	cfg.Data, cfg.Target = data, Target(DAGModel, sim.URL)
	sum, err := dags.Run(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return sum
}

// FileHashes hashes the bytes of each table's committed file in the run, by
// table name: tests compare them to tell a table replaced from one left as
// it was.
func FileHashes(tb testing.TB, data string, tables ...*schema.Table) map[string][32]byte {
	tb.Helper()
	out := map[string][32]byte{}
	for _, t := range tables {
		b, err := os.ReadFile(store.FilePath(data, t))
		if err != nil {
			tb.Fatal(err)
		}
		out[t.Name] = sha256.Sum256(b)
	}
	return out
}
