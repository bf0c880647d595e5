package llm_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/journal"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/progress"
	"github.com/datg/datg/internal/simulate"
)

// The batch tests run a fan-out of chat requests with --batch against the
// simulator speaking OpenAI's API, Files and Batch API included, over
// loopback HTTP.

func TestMain(m *testing.M) {
	if os.Getenv("LLM_BATCH_CHILD") != "" {
		os.Exit(batchChild())
	}
	os.Exit(m.Run())
}

func batchSim(b simulate.BatchConfig) simulate.Config {
	c := simConfig()
	c.Dialect = simulate.DialectOpenAI
	c.Batch = b
	return c
}

func batchTarget(url string, rounds int) llm.Target {
	o := fastOptions()
	o.Server = llm.ServerOpenAI
	return llm.Target{Endpoints: []string{url}, Model: "gpt-4.1", API: llm.APIChat, Pool: o,
		Batch: llm.BatchOptions{Enabled: true, Poll: time.Millisecond, Rounds: rounds}}
}

func batchRequests(n int) []llm.Request {
	var out []llm.Request
	for i := 0; i < n; i++ {
		seed := int64(100 + i)
		out = append(out, llm.Request{API: llm.APIChat, Model: "gpt-4.1", MaxTokens: 256, Temperature: 0, TopP: 1, Seed: &seed,
			Messages: []llm.Message{{Role: "system", Content: "You are terse."}, {Role: "user", Content: fmt.Sprintf("Question %d: what is %d + %d?", i, i, i)}}})
	}
	return out
}

// answered is what a fan-out handed to done, by request key.
type answered struct {
	mu     sync.Mutex
	resp   map[string]llm.Response
	cached map[string]bool
}

func runBatchFanout(t *testing.T, target llm.Target, data string, reqs []llm.Request) (*answered, error) {
	t.Helper()
	var log strings.Builder
	c, closeJournal, err := target.Open(data, "test", &syncWriter{w: &log})
	if err != nil {
		return nil, err
	}
	defer closeJournal()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("stderr of the fan-out:\n%s", log.String())
		}
	})
	got := &answered{resp: map[string]llm.Response{}, cached: map[string]bool{}}
	err = llm.Fanout(context.Background(), c, progress.Start(nil, "test", len(reqs)),
		func(yield func(int, llm.Request) bool) error {
			for i, r := range reqs {
				if !yield(i, r) {
					break
				}
			}
			return nil
		},
		func(_ int, req llm.Request, resp llm.Response, cached bool) error {
			got.mu.Lock()
			defer got.mu.Unlock()
			got.resp[req.Key().String()], got.cached[req.Key().String()] = resp, cached
			return nil
		},
		llm.LogFailures(func(i int) string { return fmt.Sprint("request ", i) }))
	return got, err
}

type syncWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// shapedKeys are the journal keys of the requests as the target sends them.
func shapedKeys(t *testing.T, target llm.Target, reqs []llm.Request) []string {
	t.Helper()
	var keys []string
	for _, r := range reqs {
		s, err := target.Pool.Shape(r)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, s.Key().String())
	}
	sort.Strings(keys)
	return keys
}

// servedOnce fails unless every request the server answered was answered
// exactly once, and returns how many it answered.
func servedOnce(t *testing.T, srv *simulate.Server) int {
	t.Helper()
	n := 0
	for body, times := range srv.Served() {
		if times != 1 {
			t.Errorf("request %.12s answered %d times", body, times)
		}
		n += times
	}
	return n
}

// The whole cycle: one batch holds every request (custom_id = its journal
// key), its answers are journaled, the fan-out hands them over as online
// answers, and nothing is sent online. The same requests sent online give
// the same journal keys and the same answers; a rerun sends nothing.
func TestBatchFullCycle(t *testing.T) {
	eps := start(t, batchSim(simulate.BatchConfig{StepPolls: 3}))
	target := batchTarget(eps[0].URL, 3)
	reqs := batchRequests(6)
	reqs = append(reqs, reqs[2]) // the same request twice is sent once
	data := t.TempDir()
	got, err := runBatchFanout(t, target, data, reqs)
	if err != nil {
		t.Fatal(err)
	}
	batches := eps[0].Server.Batches()
	if len(batches) != 1 {
		t.Fatalf("%d batches %+v, want one", len(batches), batches)
	}
	if got := batches[0].Status; got != "completed" {
		t.Fatalf("batch status %q, want completed", got)
	}
	keys := shapedKeys(t, target, reqs[:6])
	ids := slices.Sorted(slices.Values(batches[0].CustomIDs))
	if !slices.Equal(ids, keys) {
		t.Fatalf("batch custom_ids %v, want the requests' journal keys %v", ids, keys)
	}
	if n := servedOnce(t, eps[0].Server); n != 6 {
		t.Fatalf("server answered %d requests, want 6 (all in the batch, none online)", n)
	}
	for _, k := range keys {
		r, ok := got.resp[k]
		if !ok {
			t.Fatalf("request %.12s: no answer", k)
		}
		if r.Batch != batches[0].ID {
			t.Fatalf("request %.12s: answered by batch %q, want %s", k, r.Batch, batches[0].ID)
		}
		if r.Text == "" {
			t.Fatalf("request %.12s: an answer without text", k)
		}
	}

	// Online, against a server like the first: same keys, same answers.
	online := start(t, batchSim(simulate.BatchConfig{}))
	otarget := batchTarget(online[0].URL, 3)
	otarget.Batch = llm.BatchOptions{}
	ogot, err := runBatchFanout(t, otarget, t.TempDir(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if len(online[0].Server.Batches()) != 0 {
		t.Fatal("the online run created a batch")
	}
	if !slices.Equal(slices.Sorted(mapKeys(ogot.resp)), keys) {
		t.Fatalf("online keys %v, batch keys %v", slices.Sorted(mapKeys(ogot.resp)), keys)
	}
	for k, want := range ogot.resp {
		type answer struct {
			Text, FinishReason, Model      string
			PromptTokens, CompletionTokens int
		}
		of := func(r llm.Response) answer {
			return answer{r.Text, r.FinishReason, r.Model, r.PromptTokens, r.CompletionTokens}
		}
		if diff := cmp.Diff(of(want), of(got.resp[k])); diff != "" {
			t.Errorf("request %.12s: batch answer differs from online (-online +batch):\n%s", k, diff)
		}
	}

	// A rerun finds every answer in the journal.
	again, err := runBatchFanout(t, target, data, reqs)
	if err != nil {
		t.Fatal(err)
	}
	if len(eps[0].Server.Batches()) != 1 || servedOnce(t, eps[0].Server) != 6 {
		t.Fatal("the rerun sent requests again")
	}
	for _, k := range keys {
		if !again.cached[k] {
			t.Errorf("rerun: request %.12s not answered from the journal", k)
		}
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// An expired batch's unanswered lines, then a partially failed batch's
// failed line, are submitted again, each time alone: nothing answered is
// paid for twice.
func TestBatchResubmitsOnlyWhatIsMissing(t *testing.T) {
	eps := start(t, batchSim(simulate.BatchConfig{ExpireFirst: 1, ExpireAnswered: 2, PartialFirst: 1, FailedLines: 1}))
	target := batchTarget(eps[0].URL, 3)
	reqs := batchRequests(6)
	got, err := runBatchFanout(t, target, t.TempDir(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	batches := eps[0].Server.Batches()
	var sizes []int
	var statuses []string
	for _, b := range batches {
		sizes, statuses = append(sizes, len(b.CustomIDs)), append(statuses, b.Status)
	}
	if !slices.Equal(sizes, []int{6, 4, 1}) || !slices.Equal(statuses, []string{"expired", "completed", "completed"}) {
		t.Fatalf("batches of %v requests, statuses %v; want 6 (expired after 2), 4 (1 failed), 1", sizes, statuses)
	}
	// Each resubmission holds exactly what the one before did not answer.
	for i := 1; i < len(batches); i++ {
		for _, id := range batches[i].CustomIDs {
			if !slices.Contains(batches[i-1].CustomIDs, id) {
				t.Errorf("batch %d holds %.12s, which batch %d did not", i, id, i-1)
			}
		}
	}
	if n := servedOnce(t, eps[0].Server); n != 6 {
		t.Fatalf("server answered %d requests, want 6", n)
	}
	if len(got.resp) != 6 {
		t.Fatalf("%d answers, want 6", len(got.resp))
	}
}

// A batch that fails as a whole stops the stage with ErrBatchFailed and
// OpenAI's reason; a rerun submits its requests in a new batch.
func TestBatchFailedIsReportedAndRerunSubmitsAgain(t *testing.T) {
	eps := start(t, batchSim(simulate.BatchConfig{FailFirst: 1}))
	target := batchTarget(eps[0].URL, 3)
	reqs := batchRequests(3)
	data := t.TempDir()
	_, err := runBatchFanout(t, target, data, reqs)
	if !errors.Is(err, llm.ErrBatchFailed) || !strings.Contains(err.Error(), "token_limit_exceeded") {
		t.Fatalf("err = %v, want ErrBatchFailed naming token_limit_exceeded", err)
	}
	if n := servedOnce(t, eps[0].Server); n != 0 {
		t.Fatalf("a failed batch answered %d requests", n)
	}
	got, err := runBatchFanout(t, target, data, reqs)
	if err != nil {
		t.Fatal(err)
	}
	b := eps[0].Server.Batches()
	if len(b) != 2 {
		t.Fatalf("rerun: %d batches %+v, want the failed one and a new one", len(b), b)
	}
	if b[1].Status != "completed" {
		t.Fatalf("rerun: the new batch is %s, want completed", b[1].Status)
	}
	if len(got.resp) != 3 {
		t.Fatalf("rerun: %d answers, want 3", len(got.resp))
	}
}

// A request no round answers fails alone (ErrBatchUnanswered, an
// ErrFailedRequests of the stage), never sent online; the others are kept.
func TestBatchRoundsAreBounded(t *testing.T) {
	eps := start(t, batchSim(simulate.BatchConfig{PartialFirst: 10, FailedLines: 1}))
	target := batchTarget(eps[0].URL, 2)
	got, err := runBatchFanout(t, target, t.TempDir(), batchRequests(4))
	if !errors.Is(err, llm.ErrFailedRequests) || !strings.Contains(err.Error(), "no batch answered it") {
		t.Fatalf("err = %v, want one request that no batch answered", err)
	}
	if len(eps[0].Server.Batches()) != 2 || len(got.resp) != 3 {
		t.Fatalf("%d batches, %d answers; want 2 rounds and 3 answers", len(eps[0].Server.Batches()), len(got.resp))
	}
	if st := eps[0].Server.Stats(); st.Requests != 3 {
		t.Fatalf("server saw %d requests, want the 3 answered in batches (none online)", st.Requests)
	}
}

// --batch needs the Batch API: vLLM has none, so it is a usage error.
func TestBatchRefusedForVLLM(t *testing.T) {
	target := batchTarget("http://127.0.0.1:1/v1", 3)
	target.Pool.Server = llm.ServerVLLM
	err := target.Validate()
	if !errors.Is(err, llm.ErrBatchUnsupported) || !errors.Is(err, inputerr.ErrInvalidConfig) {
		t.Fatalf("err = %v, want ErrBatchUnsupported, a config error", err)
	}
}

// A batch log with an unreadable line (not a torn last one) stops the run
// naming the file and line: datg cannot tell what it already submitted.
func TestBatchLogCorruptIsReported(t *testing.T) {
	eps := start(t, batchSim(simulate.BatchConfig{}))
	data := t.TempDir()
	dir := llm.JournalDir(data)
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, llm.BatchLogName), []byte("{\"event\":\"uploaded\",\"input_file_id\":\"f\"}\nnot json\n{}\n"), 0o644)
	_, err := runBatchFanout(t, batchTarget(eps[0].URL, 3), data, batchRequests(1))
	if !errors.Is(err, llm.ErrBatchLog) || !strings.Contains(err.Error(), llm.BatchLogName+":2") {
		t.Fatalf("err = %v, want ErrBatchLog at line 2", err)
	}
}

// Killed (SIGKILL) at any step of a submission or while polling, a rerun
// resumes: the server sees exactly one batch created, and no request is
// answered twice. A batch created but not logged is found in the project's
// list of 2,000 earlier batches with one page read: the search stops at
// the first batch older than the uploaded file.
func TestBatchSurvivesKill(t *testing.T) {
	for _, step := range []string{"uploaded", "logged upload", "created", "logged batch", "polled"} {
		t.Run(step, func(t *testing.T) {
			eps := start(t, batchSim(simulate.BatchConfig{StepPolls: 3, ExistingBatches: 2000}))
			data := t.TempDir()
			killChildAt(t, eps[0].URL, data, step)
			got, err := runBatchFanout(t, batchTarget(eps[0].URL, 3), data, batchRequests(5))
			if err != nil {
				t.Fatal(err)
			}
			b := eps[0].Server.Batches()
			if len(b) != 1 {
				t.Fatalf("%d batches %+v, want exactly one", len(b), b)
			}
			if n := len(b[0].CustomIDs); n != 5 {
				t.Fatalf("the batch holds %d requests, want the 5", n)
			}
			if n := servedOnce(t, eps[0].Server); n != 5 || len(got.resp) != 5 {
				t.Fatalf("server answered %d, fan-out got %d; want 5 each", n, len(got.resp))
			}
			j, err := journal.Open(llm.JournalDir(data))
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			if j.Len() != 5 {
				t.Fatalf("journal holds %d records, want 5", j.Len())
			}
			if n := eps[0].Server.BatchCalls()["GET /v1/batches"]; n > 1 {
				t.Fatalf("%d list calls (GET /v1/batches), want at most one page", n)
			}
		})
	}
}

// batchChild runs the fan-out of TestBatchSurvivesKill and kills itself
// (SIGKILL) at step $KILL_AT.
func batchChild() int {
	at := os.Getenv("KILL_AT")
	llm.SetBatchHook(func(step string) {
		if step == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Minute)
		}
	})
	target := batchTarget(os.Getenv("URL"), 3)
	c, closeJournal, err := target.Open(os.Getenv("DATA"), "child", os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer closeJournal()
	err = llm.Fanout(context.Background(), c, nil,
		func(yield func(int, llm.Request) bool) error {
			for i, r := range batchRequests(5) {
				yield(i, r)
			}
			return nil
		},
		func(int, llm.Request, llm.Response, bool) error { return nil })
	fmt.Fprintln(os.Stderr, "child finished without being killed:", err)
	return 1
}
