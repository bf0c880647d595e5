package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/progress"
	"github.com/datg/datg/internal/simulate"
)

// The tests of this file put the Batch API path through the faults of a
// real service, on the simulator's strict Files and Batch API over
// loopback: downloads cut off, batches and files gone (404), a project
// with thousands of earlier batches, create replies lost, and requests the
// model refuses.

// fileContent downloads a file of the simulator as a client would.
func fileContent(t *testing.T, base, id string) []byte {
	t.Helper()
	resp, err := http.Get(base + "/files/" + id + "/content")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("downloading %s: status %d, %v", id, resp.StatusCode, err)
	}
	return b
}

// outputFile is the output file a clean batch of reqs has on a fresh
// simulator: the same bytes a test's own server will send (its answers
// and ids depend only on the requests and the order of calls).
func outputFile(t *testing.T, reqs []llm.Request) []byte {
	t.Helper()
	eps := start(t, batchSim(simulate.BatchConfig{}))
	if _, err := runBatchFanout(t, batchTarget(eps[0].URL, 3), t.TempDir(), reqs); err != nil {
		t.Fatal(err)
	}
	b := eps[0].Server.Batches()
	if len(b) != 1 || b[0].OutputFileID == "" {
		t.Fatalf("batches %+v, want one with an output file", b)
	}
	return fileContent(t, eps[0].URL, b[0].OutputFileID)
}

// cutPoints are the bytes a download is cut at: the first bytes, each
// line's end and the bytes around it, the middle of each line, and the
// last byte.
func cutPoints(file []byte) []int {
	points := []int{0, 1, 2, len(file) - 2, len(file) - 1}
	start := 0
	for i, c := range file {
		if c == '\n' {
			points = append(points, i-1, i, i+1, (start+i)/2)
			start = i + 1
		}
	}
	var out []int
	for _, p := range points {
		if p >= 0 && p < len(file) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// checkCutDownload runs a batch whose output file's first download stops
// after cutAt bytes, and fails unless the cut was retried: one batch,
// every request answered once, all journaled.
func checkCutDownload(t *testing.T, reqs []llm.Request, cutAt int, declared bool) {
	t.Helper()
	eps := start(t, batchSim(simulate.BatchConfig{CutDownloads: 1, CutAt: cutAt, CutDeclaresLength: declared}))
	got, err := runBatchFanout(t, batchTarget(eps[0].URL, 3), t.TempDir(), reqs)
	if err != nil {
		t.Fatalf("cut at byte %d (declared length %v): %v", cutAt, declared, err)
	}
	if b := eps[0].Server.Batches(); len(b) != 1 {
		t.Fatalf("cut at byte %d (declared length %v): %d batches, want 1: the cut lines were paid twice", cutAt, declared, len(b))
	}
	if n := servedOnce(t, eps[0].Server); n != len(reqs) || len(got.resp) != len(reqs) {
		t.Fatalf("cut at byte %d (declared length %v): server answered %d, fan-out got %d; want %d each", cutAt, declared, n, len(got.resp), len(reqs))
	}
	if c := eps[0].Server.BatchCalls()["GET /v1/files/{id}/content"]; c != 2 {
		t.Fatalf("cut at byte %d: %d downloads, want the cut one and its retry", cutAt, c)
	}
}

// A download cut at any byte (mid-line, on a line's end, before the last
// byte; with or without a Content-Length that gives it away) is retried:
// the stage goes on, and nothing is submitted or paid again.
func TestBatchDownloadCutAtAnyByteIsRetried(t *testing.T) {
	reqs := batchRequests(3)
	file := outputFile(t, reqs)
	for _, declared := range []bool{false, true} {
		for _, at := range cutPoints(file) {
			t.Run(fmt.Sprintf("declared=%v/at=%d", declared, at), func(t *testing.T) {
				checkCutDownload(t, reqs, at, declared)
			})
		}
	}
}

// FuzzBatchDownloadCut cuts the download at any byte the fuzzer picks.
func FuzzBatchDownloadCut(f *testing.F) {
	f.Add(uint16(0), false)
	f.Add(uint16(100), true)
	f.Add(uint16(700), false)
	f.Fuzz(func(t *testing.T, at uint16, declared bool) {
		checkCutDownload(t, batchRequests(2), int(at), declared)
	})
}

// A logged batch that now answers 404 (expired, deleted, or not the
// project of this key) is abandoned with a notice, and its requests are
// submitted again: the rerun finishes instead of stopping at it forever.
func TestBatchGoneIsAbandonedAndResubmitted(t *testing.T) {
	eps := start(t, batchSim(simulate.BatchConfig{StepPolls: 3}))
	data := t.TempDir()
	killChildAt(t, eps[0].URL, data, "logged batch")
	first := eps[0].Server.Batches()
	if len(first) != 1 {
		t.Fatalf("the killed run made %d batches, want 1", len(first))
	}
	eps[0].Server.Forget(first[0].ID)

	var stderr strings.Builder
	got, err := runBatchFanoutLog(t, batchTarget(eps[0].URL, 3), data, batchRequests(5), &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), first[0].ID) || !strings.Contains(stderr.String(), "404") {
		t.Fatalf("no notice that batch %s answers 404:\n%s", first[0].ID, stderr.String())
	}
	b := eps[0].Server.Batches()
	if len(b) != 2 || len(b[1].CustomIDs) != 5 || b[1].Status != "completed" {
		t.Fatalf("batches %+v, want the gone one and a new one of the 5 requests", b)
	}
	if len(got.resp) != 5 {
		t.Fatalf("%d answers, want 5", len(got.resp))
	}
	for _, r := range got.resp {
		if r.Batch != b[1].ID {
			t.Fatalf("an answer from batch %q, want %s", r.Batch, b[1].ID)
		}
	}
	// The log says the gone batch was abandoned: a third run sends nothing.
	if _, err := runBatchFanout(t, batchTarget(eps[0].URL, 3), data, batchRequests(5)); err != nil {
		t.Fatal(err)
	}
	if n := len(eps[0].Server.Batches()); n != 2 {
		t.Fatalf("the third run made %d batches in all, want 2", n)
	}
}

// An output file that answers 404 partway through its download (deleted
// or expired after OpenAI's 30 days) keeps the answers already downloaded;
// only the requests whose lines were not read are submitted again.
func TestBatchOutputFileGoneKeepsWhatWasDownloaded(t *testing.T) {
	reqs := batchRequests(5)
	file := outputFile(t, reqs)
	lines := bytes.SplitAfter(file, []byte("\n"))
	cutAt := len(lines[0]) + len(lines[1]) + 10 // two lines and a bit of the third
	eps := start(t, batchSim(simulate.BatchConfig{CutDownloads: 1, CutAt: cutAt, FilesGoneAfter: 1}))
	var stderr strings.Builder
	data := t.TempDir()
	got, err := runBatchFanoutLog(t, batchTarget(eps[0].URL, 3), data, reqs, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	b := eps[0].Server.Batches()
	if len(b) != 2 {
		t.Fatalf("batches %+v, want the first and one for what its gone file held", b)
	}
	if !strings.Contains(stderr.String(), b[0].OutputFileID) || !strings.Contains(stderr.String(), "404") {
		t.Fatalf("no notice that file %s answers 404:\n%s", b[0].OutputFileID, stderr.String())
	}
	var downloaded []string
	for _, l := range lines[:2] {
		var r struct {
			CustomID string `json:"custom_id"`
		}
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		downloaded = append(downloaded, r.CustomID)
	}
	for _, id := range b[1].CustomIDs {
		if slices.Contains(downloaded, id) {
			t.Errorf("request %.12s was downloaded from the first batch and submitted again", id)
		}
	}
	if len(b[1].CustomIDs) != 3 {
		t.Fatalf("the second batch holds %d requests, want the 3 not downloaded", len(b[1].CustomIDs))
	}
	if len(got.resp) != 5 {
		t.Fatalf("%d answers, want 5", len(got.resp))
	}
	for _, id := range downloaded {
		if r := got.resp[id]; r.Batch != b[0].ID {
			t.Errorf("request %.12s answered by batch %q, want the first, %s", id, r.Batch, b[0].ID)
		}
	}
}

// A project with 2,000 earlier batches: creating batches reads none of
// its batch list; only a create whose reply was lost looks for the batch
// it may have made, newest first, and stops at the first batch older than
// the uploaded file.
func TestBatchListSearchedOnlyAfterLostCreate(t *testing.T) {
	for _, c := range []struct {
		name  string
		cfg   simulate.BatchConfig
		lists int
	}{
		{"two submissions", simulate.BatchConfig{ExistingBatches: 2000, PartialFirst: 1}, 0},
		{"reply lost after the create", simulate.BatchConfig{ExistingBatches: 2000, LoseCreateReplies: 1}, 1},
		{"reply lost before the create", simulate.BatchConfig{ExistingBatches: 2000, DropCreates: 1}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			eps := start(t, batchSim(c.cfg))
			got, err := runBatchFanout(t, batchTarget(eps[0].URL, 3), t.TempDir(), batchRequests(4))
			if err != nil {
				t.Fatal(err)
			}
			calls := eps[0].Server.BatchCalls()
			if n := calls["GET /v1/batches"]; n != c.lists {
				t.Errorf("%d list calls (GET /v1/batches), want %d; all calls: %v", n, c.lists, calls)
			}
			if n := servedOnce(t, eps[0].Server); n != 4 || len(got.resp) != 4 {
				t.Fatalf("server answered %d, fan-out got %d; want 4 each", n, len(got.resp))
			}
			if c.cfg.PartialFirst == 0 && len(eps[0].Server.Batches()) != 1 {
				t.Fatalf("batches %+v, want one", eps[0].Server.Batches())
			}
		})
	}
}

// A request the model refuses is refused before anything is uploaded, as
// online before anything is sent: reasoning_effort for a model that does
// not reason (OpenAI answers 400 unsupported_parameter, found a day later
// in a batch), and what go-openai's own checks refuse online (effort
// "none" for gpt-6-astra).
func TestBatchRefusesBeforeUploadWhatTheModelRefuses(t *testing.T) {
	for _, c := range []struct{ model, effort string }{
		{"gpt-4.1", "medium"},
		{"gpt-4o-mini", "low"},
		{"gpt-6-astra", "none"},
	} {
		for _, batch := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/%s/batch=%v", c.model, c.effort, batch), func(t *testing.T) {
				eps := start(t, batchSim(simulate.BatchConfig{}))
				target := batchTarget(eps[0].URL, 3)
				target.Model, target.Pool.ReasoningEffort = c.model, c.effort
				if !batch {
					target.Batch = llm.BatchOptions{}
				}
				reqs := batchRequests(2)
				for i := range reqs {
					reqs[i].Model = c.model
				}
				_, err := runBatchFanout(t, target, t.TempDir(), reqs)
				if !errors.Is(err, llm.ErrBadRequestConfig) || !errors.Is(err, inputerr.ErrInvalidConfig) {
					t.Fatalf("err = %v, want ErrBadRequestConfig", err)
				}
				if calls := eps[0].Server.BatchCalls(); calls["POST /v1/files"] != 0 {
					t.Fatalf("uploaded before refusing: %v", calls)
				}
				if st := eps[0].Server.Stats(); st.Requests != 0 {
					t.Fatalf("the server saw %d requests", st.Requests)
				}
			})
		}
	}
}

// A dry run with --batch writes nothing: no journal directory, no LOCK,
// no batch log, and no call to the server.
func TestBatchDryRunWritesNothing(t *testing.T) {
	eps := start(t, batchSim(simulate.BatchConfig{}))
	data := t.TempDir()
	before := listDir(t, data)
	target := batchTarget(eps[0].URL, 3)
	target.Pool.DryRun = &llm.DryRun{}
	_, err := runBatchFanout(t, target, data, batchRequests(3))
	if !errors.Is(err, llm.ErrDryRun) {
		t.Fatalf("err = %v, want ErrDryRun", err)
	}
	if after := listDir(t, data); !slices.Equal(before, after) {
		t.Fatalf("the dry run wrote to the run directory: before %v, after %v", before, after)
	}
	if calls := eps[0].Server.BatchCalls(); len(calls) != 0 {
		t.Fatalf("the dry run called the Batch API: %v", calls)
	}

	// Over a journal that exists, it reads it and still writes nothing.
	if _, err := runBatchFanout(t, batchTarget(eps[0].URL, 3), data, batchRequests(2)); err != nil {
		t.Fatal(err)
	}
	before = listDir(t, data)
	dry := &llm.DryRun{}
	target.Pool.DryRun = dry
	if _, err := runBatchFanout(t, target, data, batchRequests(3)); !errors.Is(err, llm.ErrDryRun) {
		t.Fatalf("err = %v, want ErrDryRun", err)
	}
	if after := listDir(t, data); !slices.Equal(before, after) {
		t.Fatalf("the dry run wrote to the run directory: before %v, after %v", before, after)
	}
	var plan strings.Builder
	dry.Report(&plan, "test")
	if !strings.Contains(plan.String(), "2 request(s) already journaled") || !strings.Contains(plan.String(), "1 requests to send") {
		t.Fatalf("plan %q, want 2 journaled and 1 to send", plan.String())
	}
}

// listDir lists every file under dir with its size and modification time.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if path != dir {
			out = append(out, fmt.Sprintf("%s %d %v", path, info.Size(), info.ModTime().UnixNano()))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// killChildAt runs the fan-out of batchChild in a child process killed
// (SIGKILL) at the batch step.
func killChildAt(t *testing.T, url, data, step string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LLM_BATCH_CHILD=1", "URL="+url, "DATA="+data, "KILL_AT="+step)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child was not killed at %q: %v\n%s", step, err, stderr.String())
	}
}

// runBatchFanoutLog is runBatchFanout writing the fan-out's stderr to log.
func runBatchFanoutLog(t *testing.T, target llm.Target, data string, reqs []llm.Request, log *strings.Builder) (*answered, error) {
	t.Helper()
	w := &syncWriter{w: log}
	c, closeJournal, err := target.Open(data, "test", w)
	if err != nil {
		return nil, err
	}
	defer closeJournal()
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
		})
	if err != nil {
		t.Logf("stderr of the fan-out:\n%s", log.String())
	}
	return got, err
}
