package llm_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/datg/datg/internal/journal"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/progress"
)

// A dry run sends nothing, counts what is journaled apart from what is
// left, and estimates the completion tokens left from the journal's means
// for the same model and budget (the budget itself where it has none).
func TestDryRunCountsAndEstimatesWithoutSending(t *testing.T) {
	eps := start(t, simConfig())
	dir := t.TempDir()
	fanout := func(opts llm.Options, reqs []llm.Request) error {
		pool, err := llm.NewPool([]string{eps[0].URL}, opts)
		if err != nil {
			t.Fatal(err)
		}
		j, err := journal.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		return llm.Fanout(context.Background(), llm.NewJournaled(pool, j), progress.Start(io.Discard, "test", len(reqs)),
			func(yield func(int, llm.Request) bool) error {
				for i, r := range reqs {
					if !yield(i, r) {
						break
					}
				}
				return nil
			},
			func(int, llm.Request, llm.Response, bool) error { return nil })
	}
	var reqs []llm.Request
	for i := range 8 {
		reqs = append(reqs, swahiliRequest(i))
	}
	if err := fanout(fastOptions(), reqs[:4]); err != nil {
		t.Fatal(err)
	}
	sent := eps[0].Server.Stats().Requests
	// The four answered: their mean completion tokens.
	j, _ := journal.Open(dir)
	var sum float64
	for _, k := range j.Keys() {
		var rec llm.Record
		j.Get(k, &rec)
		sum += float64(rec.Response.CompletionTokens)
	}
	j.Close()

	big := swahiliRequest(9)
	big.MaxTokens = 3000 // no journaled request of this budget
	opts := fastOptions()
	dry := &llm.DryRun{PriceInput: 1, PriceOutput: 2}
	opts.DryRun = dry
	err := fanout(opts, append(reqs, big))
	if !errors.Is(err, llm.ErrDryRun) {
		t.Fatalf("got %v, want ErrDryRun", err)
	}
	if n := eps[0].Server.Stats().Requests; n != sent {
		t.Fatalf("a dry run sent %d requests", n-sent)
	}
	var out bytes.Buffer
	dry.Report(&out, "stage")
	report := out.String()
	wantCompletion := fmt.Sprintf("~%.0f completion", 4*sum/4+3000)
	for _, want := range []string{"4 request(s) already journaled", "5 requests to send", wantCompletion, "4 from journal means, 1 at the budget", "Batch API",
		"budget: max_tokens 512 for 4, max_tokens 3000 for 1"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	// A server with no Batch API (Model Studio) gets no price of one.
	dry.NoBatchAPI = true
	out.Reset()
	dry.Report(&out, "stage")
	if strings.Contains(out.String(), "Batch API") || !strings.Contains(out.String(), "cost at 1/2 per million") {
		t.Errorf("report without a Batch API:\n%s", out.String())
	}
}
