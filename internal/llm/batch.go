package llm

import (
	"github.com/datg/datg/internal/inputerr"

	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/datg/datg/internal/journal"
	"github.com/datg/datg/internal/progress"
	openai "github.com/sashabaranov/go-openai"
)

// BatchOptions configure answering a stage's requests through OpenAI's
// Batch API (--batch) instead of one call each: half the price, answers
// within 24 hours.
type BatchOptions struct {
	Enabled bool
	// Poll is the pause between two retrievals of a running batch
	// (default 30 seconds).
	Poll time.Duration
	// Rounds bounds how many times one run submits a request: the first
	// batch, and a new one for what failed or expired (default 3).
	Rounds int
}

const (
	defaultBatchPoll   = 30 * time.Second
	defaultBatchRounds = 3
	// batchCallTimeout bounds one Files or Batch API call (an upload or a
	// download of up to 200 MB).
	batchCallTimeout = 15 * time.Minute
)

// Validate reports options that cannot work.
func (o BatchOptions) Validate() error {
	var p inputerr.Problems
	if o.Poll < 0 {
		p.Add("Poll", "batch poll interval %v must not be negative", o.Poll)
	}
	if o.Rounds < 0 {
		p.Add("Rounds", "batch rounds %d must not be negative", o.Rounds)
	}
	return p.Err()
}

// batchHook, when set (by tests), is called at each step of a
// submission ("uploaded", "logged upload", "created", "logged batch")
// and after each retrieval of a running batch ("polled").
var batchHook func(step string)

func hook(step string) {
	if batchHook != nil {
		batchHook(step)
	}
}

// batcher answers requests through the Batch API of the pool's first
// endpoint, and journals the answers as the online path does.
type batcher struct {
	opts   BatchOptions
	pool   *Pool
	client *openai.Client
	base   string // the endpoint as a Response names it
	log    *batchLog
	label  string
	stderr io.Writer
}

func newBatcher(pool *Pool, dir string, opts BatchOptions, label string, stderr io.Writer) (*batcher, error) {
	if pool.Server() != ServerOpenAI {
		return nil, inputerr.Invalid(inputerr.BadField("Batch.Enabled", "%w (these endpoints %s)", ErrBatchUnsupported, pool.kindSaid()))
	}
	if opts.Poll == 0 {
		opts.Poll = defaultBatchPoll
	}
	if opts.Rounds == 0 {
		opts.Rounds = defaultBatchRounds
	}
	log, err := openBatchLog(dir)
	if err != nil {
		return nil, err
	}
	if stderr == nil {
		stderr = io.Discard
	}
	e := pool.eps[0]
	return &batcher{opts: opts, pool: pool, client: e.client, base: strings.TrimSuffix(e.url, "/v1"), log: log, label: label, stderr: stderr}, nil
}

// run answers every request not journaled yet through batches: it first
// resumes the batches the log records for them (a run killed while they
// ran), submits the rest, polls until each batch ends, journals every
// answer, and submits what failed or expired again, up to Rounds times.
// It returns the requests it could not answer, each with its error
// (ErrRejected: the API refused it; ErrBatchUnanswered: no round answered
// it), and stops with ErrBatchFailed when a batch failed as a whole.
func (b *batcher) run(ctx context.Context, c Journaled, reqs []Request) (map[journal.Key]error, error) {
	want := map[string]Request{}
	for _, r := range reqs {
		k := r.Key()
		if _, dup := want[k.String()]; dup {
			continue
		}
		_, ok, err := c.lookup(k)
		if err != nil {
			return nil, err
		}
		if !ok {
			want[k.String()] = r
		}
	}
	st := &batchRun{want: want, settled: map[string]error{}, last: map[string]string{}}
	for submitted := 0; ; {
		pending, err := st.pending(c)
		if err != nil {
			return nil, err
		}
		if len(pending) == 0 {
			break
		}
		open, covered, err := b.resumable(ctx, pending)
		if err != nil {
			return nil, err
		}
		var fresh []Request
		for k, r := range pending {
			if !covered[k] {
				fresh = append(fresh, r)
			}
		}
		if len(fresh) > 0 && submitted < b.opts.Rounds {
			subs, err := b.submit(ctx, fresh)
			if err != nil {
				return nil, err
			}
			open = append(open, subs...)
			submitted++
		}
		if len(open) == 0 {
			break // every round used
		}
		if err := b.await(ctx, c, open, st); err != nil {
			return nil, err
		}
	}
	pending, err := st.pending(c)
	if err != nil {
		return nil, err
	}
	out := make(map[journal.Key]error, len(st.settled)+len(pending))
	for k, err := range st.settled {
		out[parseKeyHex(k)] = err
	}
	for k := range pending {
		err := fmt.Errorf("%w within %d batch round(s)", ErrBatchUnanswered, b.opts.Rounds)
		if why := st.last[k]; why != "" {
			err = fmt.Errorf("%w, last: %s", err, why)
		}
		out[parseKeyHex(k)] = err
	}
	return out, nil
}

// batchRun is what one run knows of its requests.
type batchRun struct {
	want    map[string]Request // not journaled when the run began, by key
	settled map[string]error   // refused by the API: not submitted again
	last    map[string]string  // why the latest batch did not answer it
}

// pending are the wanted requests neither journaled nor refused.
func (st *batchRun) pending(c Journaled) (map[string]Request, error) {
	out := map[string]Request{}
	for k, r := range st.want {
		if _, ok := st.settled[k]; ok {
			continue
		}
		_, ok, err := c.lookup(parseKeyHex(k))
		if err != nil {
			return nil, err
		}
		if !ok {
			out[k] = r
		}
	}
	return out, nil
}

// resumable are the logged batches still running that hold pending
// requests, and the keys they hold. An uploaded file whose batch was
// created but not recorded (killed in between) is found by its input
// file; one without a batch is abandoned.
func (b *batcher) resumable(ctx context.Context, pending map[string]Request) ([]*submission, map[string]bool, error) {
	var open []*submission
	covered := map[string]bool{}
	for _, s := range b.log.subs {
		if !s.open() || !coversAny(s, pending) {
			continue
		}
		if s.BatchID == "" {
			id, err := b.findBatch(ctx, s.InputFileID, s.FileCreatedAt)
			if err != nil {
				return nil, nil, err
			}
			if id == "" {
				if err := b.log.record(batchEntry{Event: batchAbandoned, InputFileID: s.InputFileID}); err != nil {
					return nil, nil, err
				}
				s.Abandoned = true
				continue
			}
			if err := b.log.record(batchEntry{Event: batchCreated, InputFileID: s.InputFileID, BatchID: id}); err != nil {
				return nil, nil, err
			}
			s.BatchID = id
		}
		fmt.Fprintf(b.stderr, "%s: resuming batch %s (%d requests)\n", b.label, s.BatchID, len(s.Keys))
		open = append(open, s)
		for _, k := range s.Keys {
			covered[k] = true
		}
	}
	return open, covered, nil
}

func coversAny(s *submission, pending map[string]Request) bool {
	for _, k := range s.Keys {
		if _, ok := pending[k]; ok {
			return true
		}
	}
	return false
}

// submit uploads the requests as input files (as many as OpenAI's limits
// need) and creates a batch of each. Each step is in the log before the
// next is taken, so a kill anywhere leaves no batch the next run cannot
// find.
func (b *batcher) submit(ctx context.Context, reqs []Request) ([]*submission, error) {
	sort.Slice(reqs, func(i, j int) bool {
		if reqs[i].API != reqs[j].API {
			return reqs[i].API < reqs[j].API
		}
		return reqs[i].Key().String() < reqs[j].Key().String()
	})
	var subs []*submission
	for len(reqs) > 0 {
		var lines []openai.BatchLineItem
		var keys []string
		size := 0
		api := reqs[0].API
		for len(reqs) > 0 && reqs[0].API == api && len(lines) < maxBatchLines {
			line, err := newBatchLine(reqs[0])
			if err != nil {
				return nil, err
			}
			n := len(line.MarshalBatchLineItem()) + 1
			if len(lines) > 0 && size+n > maxBatchBytes {
				break
			}
			size += n
			lines = append(lines, line)
			keys = append(keys, line.CustomID)
			reqs = reqs[1:]
		}
		s, err := b.submitFile(ctx, api, lines, keys)
		if err != nil {
			return nil, err
		}
		subs = append(subs, s)
	}
	return subs, nil
}

func (b *batcher) submitFile(ctx context.Context, api string, lines []openai.BatchLineItem, keys []string) (*submission, error) {
	var file openai.File
	err := b.call(ctx, "uploading the batch input file", func(ctx context.Context) (err error) {
		file, err = b.client.UploadBatchFile(ctx, openai.UploadBatchFileRequest{FileName: "datg-" + b.label + ".jsonl", Lines: lines})
		return err
	})
	if err != nil {
		return nil, err
	}
	hook("uploaded")
	s := &submission{InputFileID: file.ID, Keys: keys, FileCreatedAt: file.CreatedAt}
	if err := b.log.record(batchEntry{Event: batchUploaded, InputFileID: file.ID, Keys: keys, FileCreatedAt: file.CreatedAt}); err != nil {
		return nil, err
	}
	b.log.subs = append(b.log.subs, s)
	hook("logged upload")
	// A create whose reply was lost (no answer, a 5xx, a timeout) may have
	// created the batch: the next attempt looks for it before creating
	// another. A first attempt has nothing to look for.
	lost := false
	err = b.call(ctx, "creating the batch", func(ctx context.Context) error {
		if lost {
			if id, err := b.findBatch(ctx, file.ID, file.CreatedAt); err != nil || id != "" {
				s.BatchID = id
				return err
			}
		}
		batch, err := b.client.CreateBatch(ctx, openai.CreateBatchRequest{
			InputFileID: file.ID, Endpoint: batchEndpoint(api), CompletionWindow: "24h",
			Metadata: map[string]any{"datg_stage": b.label},
		})
		lost = err != nil
		s.BatchID = batch.ID
		return err
	})
	if err != nil {
		return nil, err
	}
	hook("created")
	if err := b.log.record(batchEntry{Event: batchCreated, InputFileID: file.ID, BatchID: s.BatchID}); err != nil {
		return nil, err
	}
	hook("logged batch")
	fmt.Fprintf(b.stderr, "%s: submitted batch %s (%d requests, input file %s)\n", b.label, s.BatchID, len(keys), file.ID)
	return s, nil
}

// findBatch is the id of the batch of an input file, "" when it has none.
// The list is newest first and paged by the last id seen (after); the
// search stops at the first batch created before the file (createdAt, the
// server's clock; 0 when unknown, from an older log: the whole list), as
// no batch of the file can be older than it.
func (b *batcher) findBatch(ctx context.Context, fileID string, createdAt int64) (string, error) {
	var after *string
	limit := 100
	for {
		var page openai.ListBatchResponse
		err := b.call(ctx, "listing batches", func(ctx context.Context) (err error) {
			page, err = b.client.ListBatch(ctx, after, &limit)
			return err
		})
		if err != nil {
			return "", err
		}
		for _, batch := range page.Data {
			if batch.InputFileID == fileID {
				return batch.ID, nil
			}
			if int64(batch.CreatedAt) < createdAt {
				return "", nil
			}
		}
		if !page.HasMore || len(page.Data) == 0 {
			return "", nil
		}
		last := page.Data[len(page.Data)-1].ID
		after = &last
	}
}

// terminal reports whether a batch status is final.
func terminal(status string) bool {
	switch status {
	case "completed", "failed", "expired", "cancelled":
		return true
	}
	return false
}

// await polls the batches until each ended, journaling each one's
// answers as it ends; it reports the batches that failed as a whole.
func (b *batcher) await(ctx context.Context, c Journaled, open []*submission, st *batchRun) error {
	total := 0
	for _, s := range open {
		total += len(s.Keys)
	}
	prog := progress.Start(b.stderr, b.label+" batch", total)
	defer prog.Finish()
	var mu sync.Mutex
	status := map[string]string{}
	prog.Extra = func() string {
		mu.Lock()
		defer mu.Unlock()
		var parts []string
		for _, s := range open {
			parts = append(parts, s.BatchID+" "+status[s.BatchID])
		}
		return strings.Join(parts, ", ")
	}
	seen := map[string]openai.BatchRequestCounts{}
	var failed []string
	for remaining := open; len(remaining) > 0; {
		var next []*submission
		for _, s := range remaining {
			var batch openai.BatchResponse
			err := b.callObject(ctx, "retrieving batch "+s.BatchID, func(ctx context.Context) (err error) {
				batch, err = b.client.RetrieveBatch(ctx, s.BatchID)
				return err
			})
			if errors.Is(err, errGone) {
				if err := b.abandon(c, s, st); err != nil {
					return err
				}
				continue
			}
			if err != nil {
				return err
			}
			was := seen[s.BatchID]
			now := batch.RequestCounts
			for i := was.Completed; i < now.Completed; i++ {
				prog.Done(0)
			}
			for i := was.Failed; i < now.Failed; i++ {
				prog.Fail()
			}
			seen[s.BatchID] = now
			hook("polled")
			mu.Lock()
			changed := status[s.BatchID] != batch.Status
			status[s.BatchID] = batch.Status
			mu.Unlock()
			if changed {
				// The batch id and status are the server's text.
				fmt.Fprintf(b.stderr, "%s: %s\n", b.label, printable(fmt.Sprintf("batch %s %s (%d of %d done, %d failed)", s.BatchID, batch.Status, now.Completed, now.Total, now.Failed), maxQuotedBytes))
			}
			if !terminal(batch.Status) {
				next = append(next, s)
				continue
			}
			if err := b.harvest(ctx, c, s, batch.Batch, st); err != nil {
				return err
			}
			if batch.Status == "failed" {
				failed = append(failed, fmt.Sprintf("batch %s (input file %s): %s", s.BatchID, s.InputFileID, batchErrors(batch.Batch)))
			}
			if err := b.log.record(batchEntry{Event: batchEnded, InputFileID: s.InputFileID, BatchID: s.BatchID, Status: batch.Status}); err != nil {
				return err
			}
			s.Ended = batch.Status
		}
		remaining = next
		if len(remaining) > 0 {
			if err := sleep(ctx, b.opts.Poll); err != nil {
				return err
			}
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%w: %s; answers of other batches are kept, and a rerun submits the failed batch's requests again", ErrBatchFailed, strings.Join(failed, "; "))
	}
	return nil
}

// abandon gives up a batch that answers 404 (expired, deleted, or not
// visible to this key's project): the log says so, and its requests not
// journaled are submitted again.
func (b *batcher) abandon(c Journaled, s *submission, st *batchRun) error {
	n, err := b.unanswered(c, s, st, fmt.Sprintf("batch %s answers 404", s.BatchID))
	if err != nil {
		return err
	}
	fmt.Fprintf(b.stderr, "%s: batch %s answers 404 (expired, deleted, or not visible to this API key's project): abandoned; its %d request(s) not answered yet are submitted again\n", b.label, s.BatchID, n)
	if err := b.log.record(batchEntry{Event: batchAbandoned, InputFileID: s.InputFileID, BatchID: s.BatchID}); err != nil {
		return err
	}
	s.Abandoned = true
	return nil
}

// unanswered counts the submission's requests this run still wants, and
// notes why for those without a reason yet.
func (b *batcher) unanswered(c Journaled, s *submission, st *batchRun, why string) (int, error) {
	n := 0
	for _, k := range s.Keys {
		if _, ok := st.want[k]; !ok {
			continue
		}
		if _, settled := st.settled[k]; settled {
			continue
		}
		_, done, err := c.lookup(parseKeyHex(k))
		if err != nil {
			return 0, err
		}
		if done {
			continue
		}
		n++
		if st.last[k] == "" {
			st.last[k] = why
		}
	}
	return n, nil
}

// batchErrors is what OpenAI says of a failed batch.
func batchErrors(batch openai.Batch) string {
	if batch.Errors == nil || len(batch.Errors.Data) == 0 {
		return "no reason given"
	}
	var parts []string
	for i, e := range batch.Errors.Data {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(batch.Errors.Data)-3))
			break
		}
		where := ""
		if e.Line != nil && *e.Line > 0 {
			where = fmt.Sprintf("line %d: ", *e.Line)
		}
		parts = append(parts, printable(fmt.Sprintf("%s%s: %s", where, e.Code, e.Message), maxQuotedBytes))
	}
	return strings.Join(parts, "; ")
}

// harvest journals every answer of an ended batch through the checks of
// the online path (acceptReply), and notes why the other lines have none.
func (b *batcher) harvest(ctx context.Context, c Journaled, s *submission, batch openai.Batch, st *batchRun) error {
	for _, id := range []*string{batch.OutputFileID, batch.ErrorFileID} {
		if id == nil || *id == "" {
			continue
		}
		err := b.download(ctx, c, s, *id, st)
		if errors.Is(err, errGone) {
			// Expired (after 30 days) or deleted: the answers read are
			// journaled; the rest are submitted again.
			n, err := b.unanswered(c, s, st, fmt.Sprintf("batch %s: file %s answers 404", s.BatchID, *id))
			if err != nil {
				return err
			}
			fmt.Fprintf(b.stderr, "%s: file %s of batch %s answers 404 (expired, deleted, or not visible to this API key's project): the answers already read are kept; %d request(s) not answered yet are submitted again\n", b.label, *id, s.BatchID, n)
			continue
		}
		if err != nil {
			return err
		}
	}
	// Journaled before the log says the batch ended: an answer is never
	// lost between the two.
	return c.Journal.Sync()
}

// download reads a batch's output or error file and journals its
// answers. The file is read as it downloads (it can be gigabytes), within
// one call's context; a download cut off at any byte is retried, and the
// lines already journaled are skipped the second time.
func (b *batcher) download(ctx context.Context, c Journaled, s *submission, id string, st *batchRun) error {
	var file openai.File
	err := b.callObject(ctx, "retrieving file "+id+" of batch "+s.BatchID, func(ctx context.Context) (err error) {
		file, err = b.client.GetFile(ctx, id)
		return err
	})
	if err != nil {
		return err
	}
	var readErr error
	err = b.callObject(ctx, "downloading file "+id+" of batch "+s.BatchID, func(ctx context.Context) error {
		raw, err := b.client.GetFileContent(ctx, id)
		if err != nil {
			return err
		}
		defer raw.Close()
		readErr = b.readResults(c, s, raw, int64(file.Bytes), st)
		var cut *downloadError
		if errors.As(readErr, &cut) {
			return cut.err // the connection, not the content: retried
		}
		return nil
	})
	if err != nil {
		return err
	}
	if readErr != nil {
		return fmt.Errorf("batch %s file %s: %w", s.BatchID, id, readErr)
	}
	return nil
}

// readResults reads the lines of a result file of size bytes (0: not
// known). A download that ends short of size, in a read error, or (size
// unknown) in a last line without its newline that does not parse is cut
// off: a downloadError, retried. A line that does not parse in a file read
// whole is the file's own fault.
func (b *batcher) readResults(c Journaled, s *submission, r io.Reader, size int64, st *batchRun) error {
	counted := &countingReader{r: r}
	br := bufio.NewReaderSize(counted, 1<<20)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return &downloadError{err} // the part of a line read is not used
		}
		end := err == io.EOF
		if end && size > 0 && counted.n < size {
			return &downloadError{fmt.Errorf("%w: the download ended after %d of the file's %d bytes", io.ErrUnexpectedEOF, counted.n, size)}
		}
		if len(bytes.TrimSpace(line)) > 0 {
			err := b.readResult(c, s, line, st)
			if err != nil && end && size <= 0 && errors.Is(err, errNotResultLine) {
				return &downloadError{fmt.Errorf("%w: the download ended in the middle of line %d", io.ErrUnexpectedEOF, n)}
			}
			if err != nil {
				return fmt.Errorf("line %d: %w", n, err)
			}
		}
		if end {
			return nil
		}
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// errNotResultLine is a line of a result file that is not a result.
var errNotResultLine = fmt.Errorf("%w: not a batch result line", ErrMalformed)

// errGone is a batch or file that answers 404: expired, deleted, or not
// visible to this API key's project. The batcher gives it up and submits
// its requests again; it never reaches the stage.
var errGone = errors.New("answers 404")

// downloadError is a file download cut off, as opposed to a line that
// cannot be read.
type downloadError struct{ err error }

func (e *downloadError) Error() string { return e.err.Error() }
func (e *downloadError) Unwrap() error { return e.err }

func (b *batcher) readResult(c Journaled, s *submission, line []byte, st *batchRun) error {
	var r batchResult
	if err := json.Unmarshal(line, &r); err != nil || r.CustomID == "" {
		return errNotResultLine
	}
	req, ok := st.want[r.CustomID]
	if !ok {
		return nil // not asked for by this run (or answered already)
	}
	key := parseKeyHex(r.CustomID)
	if _, done, err := c.lookup(key); err != nil || done {
		return err
	}
	if r.Error == nil && r.Response != nil && r.Response.StatusCode == 200 {
		var out Response
		err := acceptReply(r.Response.Body, req, &out)
		switch {
		case err == nil:
			out.Endpoint, out.Attempts, out.Batch = b.base, 1, s.BatchID
			out.ReceivedAt = time.Now().UnixMilli()
			if err := c.Journal.Put(c.freeKey(key), Record{Request: req, Response: out}); err != nil {
				return fmt.Errorf("journaling response: %w", err)
			}
		default:
			st.last[r.CustomID] = err.Error()
		}
		return nil
	}
	if r.Error == nil && r.Response != nil && rejectedStatus(r.Response.StatusCode) {
		st.settled[r.CustomID] = fmt.Errorf("%w: %s in batch %s: %s", ErrRejected, req.describe(), s.BatchID, r.failure())
		return nil
	}
	st.last[r.CustomID] = fmt.Sprintf("batch %s: %s", s.BatchID, r.failure())
	return nil
}

// call makes one Files or Batch API call, retrying what a retry can help
// (no answer, 5xx, 429) with the pool's backoff and attempts.
func (b *batcher) call(ctx context.Context, what string, f func(ctx context.Context) error) error {
	return b.callWith(ctx, what, false, f)
}

// callObject is call for a call on one batch or file: its 404 says the
// object is gone (errGone), not that the endpoint is wrong.
func (b *batcher) callObject(ctx context.Context, what string, f func(ctx context.Context) error) error {
	return b.callWith(ctx, what, true, f)
}

func (b *batcher) callWith(ctx context.Context, what string, object bool, f func(ctx context.Context) error) error {
	for attempt := 1; ; attempt++ {
		cctx, cancel := context.WithTimeout(ctx, batchCallTimeout)
		err := f(cctx)
		cancel()
		if err == nil {
			return nil
		}
		if object && ctx.Err() == nil && httpStatus(err) == http.StatusNotFound {
			return fmt.Errorf("%s: %s: %w", b.base, what, errGone)
		}
		switch classify(ctx, err, nil) {
		case canceled:
			return ctx.Err()
		case quota:
			return b.pool.redact(fmt.Errorf("%s: %s: %w: %w: %v", b.base, what, ErrFatal, ErrQuota, err))
		case faulted, overloaded, timedOut:
			if attempt < b.pool.opts.MaxAttempts {
				if err := sleep(ctx, b.pool.backoff(attempt)); err != nil {
					return err
				}
				continue
			}
		}
		return b.pool.redact(fmt.Errorf("%s: %s: %w: %v", b.base, what, ErrFatal, err))
	}
}

// httpStatus is the status of an API's error reply, 0 for no reply.
func httpStatus(err error) int {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		return apiErr.HTTPStatusCode
	case errors.As(err, &reqErr):
		return reqErr.HTTPStatusCode
	}
	return 0
}

func (b *batcher) close() error { return b.log.close() }

// parseKeyHex is the key a custom_id names; an id that is not a key (no
// line of datg's) gives a key no request has.
func parseKeyHex(s string) journal.Key {
	var k journal.Key
	if b, err := hex.DecodeString(s); err == nil && len(b) == len(k) {
		copy(k[:], b)
		return k
	}
	return journal.KeyOf([]byte("not a key: " + s))
}
