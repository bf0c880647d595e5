// Package simulatetest starts the in-repo simulator for tests and
// benchmarks, as net/http/httptest starts servers: it takes a testing.TB,
// so only tests import it and the datg binary never links package testing
// (cmd/datg's TestBinaryLinksNoTesting checks).
package simulatetest

import (
	"testing"

	"github.com/datg/datg/internal/simulate"
)

// Start serves endpoints for a test or benchmark, each answering from the
// run in data (when not empty), and closes them when the test ends. It
// returns them and their base URLs.
func Start(tb testing.TB, data string, cfgs ...simulate.Config) ([]*simulate.Endpoint, []string) {
	tb.Helper()
	for i := range cfgs {
		if data != "" {
			cfgs[i].Data = data
		}
	}
	eps, err := simulate.StartMany(cfgs...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		for _, e := range eps {
			e.Close()
		}
	})
	urls := make([]string, len(eps))
	for i, e := range eps {
		urls[i] = e.URL
	}
	return eps, urls
}
