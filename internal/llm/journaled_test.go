package llm_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/datg/datg/internal/journal"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/progress"
)

// Identical requests in flight at once are sent once and share the
// response; the journal then answers them all.
func TestIdenticalRequestsInFlightAreSentOnce(t *testing.T) {
	c := simConfig()
	c.Latency = 200 * time.Millisecond // long enough for all to meet in flight
	eps := start(t, c)
	pool, err := llm.NewPool([]string{eps[0].URL}, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	client := llm.NewJournaled(pool, j)

	// 8 jobs, 2 distinct requests.
	var got [8]string
	prog := progress.Start(io.Discard, "test", 8)
	defer prog.Finish()
	err = llm.Fanout(context.Background(), client, prog,
		func(yield func(int, llm.Request) bool) error {
			for i := range got {
				if !yield(i, swahiliRequest(i%2)) {
					break
				}
			}
			return nil
		},
		func(i int, _ llm.Request, resp llm.Response, _ bool) error { got[i] = resp.Text; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if n := eps[0].Server.Stats().Served; n != 2 {
		t.Fatalf("server answered %d requests for 2 distinct ones", n)
	}
	for i := range got {
		if got[i] == "" || got[i] != got[i%2] {
			t.Fatalf("job %d got %q, want job %d's response", i, got[i], i%2)
		}
	}
	if done, skipped, _ := prog.Counts(); done != 2 || skipped != 6 {
		t.Fatalf("progress counted %d done, %d skipped", done, skipped)
	}
}
