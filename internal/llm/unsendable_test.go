package llm_test

import (
	"context"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/progress"
)

// A request refused before any HTTP request is sent (its body cannot be
// encoded, or go-openai refuses it) is a configuration error: it fails at
// once, blames no endpoint, and datg exits with status 2.
func TestUnsendableRequestIsAConfigError(t *testing.T) {
	cases := []struct {
		name, want string
		edit       func(*llm.Request)
	}{
		{"temperature beyond float32", "temperature", func(r *llm.Request) { r.Temperature = 1e300 }},
		{"temperature NaN", "temperature", func(r *llm.Request) { r.Temperature = math.NaN() }},
		{"top_p infinite", "top_p", func(r *llm.Request) { r.TopP = math.Inf(1) }},
		{"extra field NaN", "repetition_penalty", func(r *llm.Request) { r.Extra["repetition_penalty"] = math.NaN() }},
	}
	eps := start(t, simConfig())
	pool, err := llm.NewPool([]string{eps[0].URL}, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	j := openJournal(t, t.TempDir())
	client := llm.NewJournaled(pool, j)
	for _, c := range cases {
		req := swahiliRequest(0)
		c.edit(&req)
		for _, do := range []func() error{
			func() error { _, err := pool.Do(context.Background(), req); return err },
			func() error { _, _, err := client.Do(context.Background(), req); return err },
		} {
			err := do()
			if !errors.Is(err, llm.ErrBadRequestConfig) || !errors.Is(err, inputerr.ErrInvalidConfig) {
				t.Fatalf("%s: got %v, want ErrBadRequestConfig", c.name, err)
			}
			if llm.RequestFailed(err) || errors.Is(err, llm.ErrNoEndpoint) {
				t.Fatalf("%s: a configuration error passes for a server's fault: %v", c.name, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: the error does not say what is wrong: %v", c.name, err)
			}
		}
	}
	if st := eps[0].Server.Stats(); st.Requests != 0 {
		t.Fatalf("the server saw %d requests", st.Requests)
	}
	type blame struct {
		Up              bool
		Faults, Retries int64
	}
	if st := pool.Status()[0]; !st.Up || st.Faults != 0 || pool.Retries() != 0 {
		t.Fatalf("the endpoint was blamed (-want +got):\n%s", cmp.Diff(blame{true, 0, 0}, blame{st.Up, st.Faults, pool.Retries()}))
	}
	answeredAtOnce(t, "a good request afterwards", pool, swahiliRequest(0))
}

// In a fan-out, a configuration error stops the stage as one (exit 2), not
// as a failed request or a dead endpoint.
func TestUnsendableRequestStopsFanout(t *testing.T) {
	eps := start(t, simConfig())
	pool, _ := llm.NewPool([]string{eps[0].URL}, fastOptions())
	client := llm.NewJournaled(pool, openJournal(t, t.TempDir()))
	prog := progress.Start(io.Discard, "test", 4)
	defer prog.Finish()
	err := llm.Fanout(context.Background(), client, prog,
		func(yield func(int, llm.Request) bool) error {
			for i := 0; i < 4; i++ {
				req := swahiliRequest(i)
				req.Temperature = 1e300
				if !yield(i, req) {
					break
				}
			}
			return nil
		},
		func(int, llm.Request, llm.Response, bool) error { return nil },
		llm.LogFailures(func(i int) string { return "job" }))
	if !errors.Is(err, inputerr.ErrInvalidConfig) || errors.Is(err, llm.ErrFailedRequests) {
		t.Fatalf("got %v, want a configuration error", err)
	}
}

// An API key an HTTP header cannot carry is refused when the pool starts,
// not found out as a dead endpoint on every request.
func TestAPIKeyWithLineBreakIsAConfigError(t *testing.T) {
	eps := start(t, simConfig())
	o := fastOptions()
	o.APIKey = "sk-secret\n"
	_, err := llm.NewPool([]string{eps[0].URL}, o)
	if !errors.Is(err, inputerr.ErrInvalidConfig) {
		t.Fatalf("got %v, want a configuration error", err)
	}
	if strings.Contains(err.Error(), "sk-secret") {
		t.Fatalf("the key is in the error: %v", err)
	}
}
