package simulate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"time"
)

// BatchConfig shapes the simulated Batch API (/v1/batches): how many
// retrievals a batch takes to finish, and which batches fail. Batches are
// numbered in creation order; the first FailFirst fail, the next
// ExpireFirst expire, the next PartialFirst complete with some lines
// failed, and the rest complete.
type BatchConfig struct {
	// StepPolls is how many retrievals (GET /v1/batches/{id}) a batch spends
	// in each of validating, in_progress and finalizing (default 1): its
	// latency, counted in polls so that tests need no clock.
	StepPolls int
	// FailFirst batches fail validation (status failed, with OpenAI's
	// token_limit_exceeded error) and answer nothing.
	FailFirst int
	// ExpireFirst batches expire after answering ExpireAnswered lines
	// (default half of them, rounded down); the others are in the error
	// file with code batch_expired.
	ExpireFirst    int
	ExpireAnswered int
	// PartialFirst batches complete with their last FailedLines lines
	// (default 1) failed with a 500 in the error file.
	PartialFirst int
	FailedLines  int

	// ExistingBatches is how many batches of other input files the
	// project holds before the server starts (completed, created a day
	// ago and earlier): what a search of the batch list pages through.
	ExistingBatches int
	// LoseCreateReplies creates (POST /v1/batches) create their batch and
	// then drop the connection before the reply; DropCreates creates drop
	// it before creating anything. Either is a create whose reply is lost.
	LoseCreateReplies int
	DropCreates       int
	// CutDownloads downloads of a batch's output or error file stop after
	// CutAt bytes (at most the file's size less one). Without
	// CutDeclaresLength the reply has no Content-Length and the connection
	// just closes, so the client sees a clean end of the body; with it the
	// header declares the whole file.
	CutDownloads      int
	CutAt             int
	CutDeclaresLength bool
	// FilesGoneAfter, when set, makes a batch's output and error files
	// answer 404 after that many downloads of their content, as a file
	// deleted or expired (after 30 days) does.
	FilesGoneAfter int
}

// Validate reports settings that cannot work.
func (c BatchConfig) Validate() error {
	for _, n := range []int{c.StepPolls, c.FailFirst, c.ExpireFirst, c.ExpireAnswered, c.PartialFirst, c.FailedLines,
		c.ExistingBatches, c.LoseCreateReplies, c.DropCreates, c.CutDownloads, c.CutAt, c.FilesGoneAfter} {
		if n < 0 {
			return fmt.Errorf("settings must not be negative")
		}
	}
	return nil
}

// Batch statuses, as OpenAI names them.
const (
	batchValidating = "validating"
	batchInProgress = "in_progress"
	batchFinalizing = "finalizing"
	batchCompleted  = "completed"
	batchFailed     = "failed"
	batchExpired    = "expired"
	batchCancelling = "cancelling"
	batchCancelled  = "cancelled"
)

// batch is one simulated batch.
type batch struct {
	ID, InputFileID, Endpoint, Window string
	Status                            string
	auth                              string // its creator's Authorization header, sent with each line
	metadata                          any
	fault                             string // "", "fail", "expire", "partial"
	polls                             int    // retrievals in the current status
	times                             map[string]int64
	lines                             []batchLine
	next                              int // lines answered
	output, errs                      [][]byte
	completed, failed                 int
	validation                        []map[string]any
	outputFile, errorFile             *string
	existing                          bool // there before the server started (ExistingBatches)
}

// batchLine is one line of a batch input file.
type batchLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// BatchInfo is what a test sees of a batch.
type BatchInfo struct {
	ID, InputFileID, Status   string
	OutputFileID, ErrorFileID string // "" until the batch ends with one
	CustomIDs                 []string
}

// Batches lists the batches created so far (not the ExistingBatches), in
// creation order, forgotten ones included.
func (s *Server) Batches() []BatchInfo {
	a := s.batchAPI
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []BatchInfo
	for _, id := range a.order {
		b := a.batches[id]
		if b == nil {
			b = a.forgotten[id]
		}
		if b.existing {
			continue
		}
		info := BatchInfo{ID: b.ID, InputFileID: b.InputFileID, Status: b.Status}
		if b.outputFile != nil {
			info.OutputFileID = *b.outputFile
		}
		if b.errorFile != nil {
			info.ErrorFileID = *b.errorFile
		}
		if f := a.anyFile(b.InputFileID); f != nil {
			for _, l := range parseLinesLenient(f.Bytes) {
				info.CustomIDs = append(info.CustomIDs, l.CustomID)
			}
		}
		out = append(out, info)
	}
	return out
}

// Forget deletes a batch or a file: from then on it answers 404, as a
// batch or file that expired, was deleted, or belongs to another project
// does.
func (s *Server) Forget(id string) {
	a := s.batchAPI
	a.mu.Lock()
	defer a.mu.Unlock()
	if b := a.batches[id]; b != nil {
		a.forgotten[id] = b
		delete(a.batches, id)
	}
	if f := a.files[id]; f != nil {
		a.forgottenFiles[id] = f
		delete(a.files, id)
	}
}

// BatchCalls counts the Files and Batch API calls received, by route:
// "GET /v1/batches" (list), "POST /v1/batches" (create), "GET
// /v1/batches/{id}", "POST /v1/batches/{id}/cancel", "POST /v1/files",
// "GET /v1/files/{id}", "GET /v1/files/{id}/content".
func (s *Server) BatchCalls() map[string]int {
	a := s.batchAPI
	a.mu.Lock()
	defer a.mu.Unlock()
	return maps.Clone(a.calls)
}

// count records a call to the route. The caller does not hold a.mu.
func (a *batchAPI) count(route string) {
	a.mu.Lock()
	a.calls[route]++
	a.mu.Unlock()
}

// seed adds the ExistingBatches once, before the first call is answered.
func (s *Server) seed() {
	a := s.batchAPI
	a.seedOnce.Do(func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		n := s.cfg.Batch.ExistingBatches
		day := time.Now().Unix() - 24*3600
		for i := n - 1; i >= 0; i-- { // oldest first, as a.order is
			f := a.addFile(fmt.Sprintf("earlier-%d.jsonl", i), "batch", nil)
			f.CreatedAt = day - int64(i)
			b := &batch{ID: a.id("batch_"), InputFileID: f.ID, Endpoint: "/v1/chat/completions", Window: "24h",
				Status: batchCompleted, existing: true, times: map[string]int64{"created_at": day - int64(i), "completed_at": day - int64(i)}}
			a.batches[b.ID] = b
			a.order = append(a.order, b.ID)
		}
	})
}

// serveBatches answers /v1/batches: create, list, retrieve and cancel;
// rest is the path after /v1/batches, of an authorized request.
func (s *Server) serveBatches(w http.ResponseWriter, r *http.Request, rest string) {
	s.seed()
	a := s.batchAPI
	id, cancel := strings.CutSuffix(strings.TrimPrefix(rest, "/"), "/cancel")
	switch {
	case rest == "":
		a.count(r.Method + " /v1/batches")
	case cancel:
		a.count(r.Method + " /v1/batches/{id}/cancel")
	default:
		a.count(r.Method + " /v1/batches/{id}")
	}
	switch {
	case rest == "" && r.Method == http.MethodPost:
		s.createBatch(w, r)
	case rest == "" && r.Method == http.MethodGet:
		s.listBatches(w, r)
	case rest != "" && !cancel && r.Method == http.MethodGet:
		a.mu.Lock()
		defer a.mu.Unlock()
		b := a.found(w, id)
		if b == nil {
			return
		}
		s.advance(b)
		writeJSON(w, http.StatusOK, b.object())
	case rest != "" && cancel && r.Method == http.MethodPost:
		a.mu.Lock()
		defer a.mu.Unlock()
		b := a.found(w, id)
		if b == nil {
			return
		}
		if b.Status != batchValidating && b.Status != batchInProgress && b.Status != batchFinalizing {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "Cannot cancel a batch with status "+b.Status+".")
			return
		}
		b.enter(batchCancelling)
		writeJSON(w, http.StatusOK, b.object())
	default:
		writeError(w, http.StatusNotFound, "NotFoundError", "no route "+r.Method+" "+r.URL.Path)
	}
}

// found is the batch id, or nil once a 404 answers that there is none.
// The caller holds a.mu.
func (a *batchAPI) found(w http.ResponseWriter, id string) *batch {
	b := a.batches[id]
	if b == nil {
		writeError(w, http.StatusNotFound, "invalid_request_error", "No such Batch object: "+id)
	}
	return b
}

func (s *Server) createBatch(w http.ResponseWriter, r *http.Request) {
	var req struct {
		InputFileID      string `json:"input_file_id"`
		Endpoint         string `json:"endpoint"`
		CompletionWindow string `json:"completion_window"`
		Metadata         any    `json:"metadata"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "We could not parse the JSON body of your request.")
		return
	}
	bad := func(msg string) { writeError(w, http.StatusBadRequest, "invalid_request_error", msg) }
	switch {
	case req.Endpoint != "/v1/chat/completions" && req.Endpoint != "/v1/completions":
		bad(fmt.Sprintf("Invalid value for 'endpoint': %q is not supported.", req.Endpoint))
		return
	case req.CompletionWindow != "24h":
		bad(fmt.Sprintf("Invalid value for 'completion_window': %q; only 24h is supported.", req.CompletionWindow))
		return
	}
	a := s.batchAPI
	a.mu.Lock()
	defer a.mu.Unlock()
	cfg := s.cfg.Batch
	a.creates++
	if a.creates <= cfg.DropCreates {
		hangUp(w)
		return
	}
	f := a.files[req.InputFileID]
	if f == nil {
		bad("No such File object: " + req.InputFileID)
		return
	}
	if f.Purpose != "batch" {
		bad(fmt.Sprintf("File %s has purpose %q; a batch input file must have purpose batch.", f.ID, f.Purpose))
		return
	}
	n := a.created
	a.created++
	fault := ""
	switch {
	case n < cfg.FailFirst:
		fault = "fail"
	case n < cfg.FailFirst+cfg.ExpireFirst:
		fault = "expire"
	case n < cfg.FailFirst+cfg.ExpireFirst+cfg.PartialFirst:
		fault = "partial"
	}
	now := time.Now().Unix()
	b := &batch{ID: a.id("batch_"), InputFileID: f.ID, Endpoint: req.Endpoint, Window: req.CompletionWindow,
		auth: r.Header.Get("Authorization"), metadata: req.Metadata, fault: fault,
		times: map[string]int64{"created_at": now, "expires_at": now + 24*3600}}
	b.Status = batchValidating
	a.batches[b.ID] = b
	a.order = append(a.order, b.ID)
	if a.creates <= cfg.DropCreates+cfg.LoseCreateReplies {
		hangUp(w) // created, but the reply never arrives
		return
	}
	writeJSON(w, http.StatusOK, b.object())
}

// listBatches answers GET /v1/batches, newest first, paged by after and
// limit (default 20, at most 100).
func (s *Server) listBatches(w http.ResponseWriter, r *http.Request) {
	a := s.batchAPI
	a.mu.Lock()
	defer a.mu.Unlock()
	var ids []string
	for _, id := range a.order {
		if a.batches[id] != nil {
			ids = append(ids, id)
		}
	}
	slices.Reverse(ids)
	if after := r.URL.Query().Get("after"); after != "" {
		if i := slices.Index(ids, after); i >= 0 {
			ids = ids[i+1:]
		}
	}
	limit := 20
	if l, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && l >= 1 && l <= 100 {
		limit = l
	}
	more := len(ids) > limit
	ids = ids[:min(limit, len(ids))]
	data := []any{}
	for _, id := range ids {
		data = append(data, a.batches[id].object())
	}
	list := map[string]any{"object": "list", "data": data, "has_more": more, "first_id": nil, "last_id": nil}
	if len(ids) > 0 {
		list["first_id"], list["last_id"] = ids[0], ids[len(ids)-1]
	}
	writeJSON(w, http.StatusOK, list)
}

// enter moves the batch to a status, stamping its time.
func (b *batch) enter(status string) {
	b.Status, b.polls = status, 0
	b.times[status+"_at"] = time.Now().Unix()
}

// advance moves the batch on by one retrieval. The caller holds the
// store's lock.
func (s *Server) advance(b *batch) {
	step := max(s.cfg.Batch.StepPolls, 1)
	b.polls++
	switch b.Status {
	case batchValidating:
		if b.polls < step {
			return
		}
		s.validate(b)
	case batchInProgress:
		limit := len(b.lines)
		if b.fault == "expire" {
			limit = len(b.lines) / 2
			if n := s.cfg.Batch.ExpireAnswered; n > 0 {
				limit = min(n, len(b.lines))
			}
		}
		per := (len(b.lines) + step - 1) / step
		for end := min(b.next+per, limit); b.next < end; b.next++ {
			s.answer(b, b.next)
		}
		if b.next < limit {
			return
		}
		if b.fault == "expire" {
			for ; b.next < len(b.lines); b.next++ {
				b.lineError(b.lines[b.next], "batch_expired", "This request could not be executed before the completion window expired.")
			}
			b.enter(batchExpired)
			s.finish(b)
			return
		}
		b.enter(batchFinalizing)
	case batchFinalizing:
		if b.polls < step {
			return
		}
		b.enter(batchCompleted)
		s.finish(b)
	case batchCancelling:
		for ; b.next < len(b.lines); b.next++ {
			b.lineError(b.lines[b.next], "batch_cancelled", "This request was not executed: the batch was cancelled.")
		}
		b.enter(batchCancelled)
		s.finish(b)
	}
}

// validate reads the input file: a line that is not a request for the
// batch's endpoint fails the batch, as OpenAI's validation does.
func (s *Server) validate(b *batch) {
	a := s.batchAPI
	f := a.files[b.InputFileID]
	seen := map[string]bool{}
	add := func(line int, code, msg string) {
		b.validation = append(b.validation, map[string]any{"code": code, "message": msg, "param": nil, "line": line})
	}
	for i, raw := range bytes.Split(f.Bytes, []byte("\n")) {
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		var l batchLine
		switch err := json.Unmarshal(raw, &l); {
		case err != nil:
			add(i+1, "invalid_json_line", "This line is not parseable as valid JSON.")
		case l.CustomID == "":
			add(i+1, "missing_required_parameter", "Missing required parameter: 'custom_id'.")
		case seen[l.CustomID]:
			add(i+1, "duplicate_custom_id", fmt.Sprintf("The custom_id %q for this request is a duplicate of another request.", l.CustomID))
		case l.Method != http.MethodPost:
			add(i+1, "invalid_method", "Only the POST method is supported.")
		case l.URL != b.Endpoint:
			add(i+1, "mismatched_endpoint", fmt.Sprintf("The url %q of this request does not match the batch's endpoint %q.", l.URL, b.Endpoint))
		case !json.Valid(l.Body) || len(l.Body) == 0 || l.Body[0] != '{':
			add(i+1, "invalid_request", "The body of this request is not a JSON object.")
		}
		seen[l.CustomID] = true
		b.lines = append(b.lines, l)
	}
	if len(b.lines) == 0 {
		add(0, "empty_file", "The input file has no requests.")
	}
	if b.fault == "fail" && len(b.validation) == 0 {
		add(0, "token_limit_exceeded", "Enqueued token limit reached for this model in organization org-simulated. Please try again once some in_progress batches have been completed.")
	}
	if len(b.validation) > 0 {
		b.lines = nil
		b.enter(batchFailed)
		return
	}
	b.enter(batchInProgress)
}

// answer answers line i with the handler that answers online requests;
// in a partially failed batch its last lines fail instead.
func (s *Server) answer(b *batch, i int) {
	l := b.lines[i]
	if b.fault == "partial" && i >= len(b.lines)-max(s.cfg.Batch.FailedLines, 1) {
		b.lineResponse(l, http.StatusInternalServerError,
			[]byte(`{"error":{"message":"The server had an error processing your request.","type":"server_error","param":null,"code":null}}`))
		return
	}
	req := httptest.NewRequest(http.MethodPost, l.URL, bytes.NewReader(l.Body))
	req.Header.Set("Content-Type", "application/json")
	if b.auth != "" {
		req.Header.Set("Authorization", b.auth)
	}
	rec := httptest.NewRecorder()
	func() {
		// An injected dropped connection cannot hijack a recorder.
		defer func() {
			if recover() != nil {
				rec = httptest.NewRecorder()
				rec.Code = http.StatusInternalServerError
			}
		}()
		s.complete(rec, req, l.URL == "/v1/chat/completions")
	}()
	b.lineResponse(l, rec.Code, rec.Body.Bytes())
}

// lineResponse records a line's answer: a 200 with a JSON body in the
// output file, anything else in the error file.
func (b *batch) lineResponse(l batchLine, status int, body []byte) {
	if !json.Valid(body) {
		b.lineError(l, "server_error", fmt.Sprintf("The server answered status %d with a body that is not JSON.", status))
		return
	}
	line, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("batch_req_%s_%d", b.ID, len(b.output)+len(b.errs)),
		"custom_id": l.CustomID, "error": nil,
		"response": map[string]any{"status_code": status, "request_id": fmt.Sprintf("req_%s_%d", b.ID, len(b.output)+len(b.errs)), "body": json.RawMessage(body)}})
	if status == http.StatusOK {
		b.output = append(b.output, line)
		b.completed++
		return
	}
	b.errs = append(b.errs, line)
	b.failed++
}

// lineError records a line that got no response.
func (b *batch) lineError(l batchLine, code, msg string) {
	line, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("batch_req_%s_%d", b.ID, len(b.output)+len(b.errs)),
		"custom_id": l.CustomID, "response": nil, "error": map[string]any{"code": code, "message": msg}})
	b.errs = append(b.errs, line)
	b.failed++
}

// finish writes the output and error files of a batch that ended.
func (s *Server) finish(b *batch) {
	a := s.batchAPI
	if len(b.output) > 0 {
		f := a.addFile(b.ID+"_output.jsonl", "batch_output", append(bytes.Join(b.output, []byte("\n")), '\n'))
		b.outputFile = &f.ID
	}
	if len(b.errs) > 0 {
		f := a.addFile(b.ID+"_error.jsonl", "batch_output", append(bytes.Join(b.errs, []byte("\n")), '\n'))
		b.errorFile = &f.ID
	}
}

func (b *batch) object() map[string]any {
	o := map[string]any{"id": b.ID, "object": "batch", "endpoint": b.Endpoint, "input_file_id": b.InputFileID,
		"completion_window": b.Window, "status": b.Status, "output_file_id": b.outputFile, "error_file_id": b.errorFile,
		"errors": nil, "metadata": b.metadata,
		"request_counts": map[string]any{"total": len(b.lines), "completed": b.completed, "failed": b.failed}}
	for _, k := range []string{"created_at", "in_progress_at", "expires_at", "finalizing_at", "completed_at",
		"failed_at", "expired_at", "cancelling_at", "cancelled_at"} {
		o[k] = nil
		if t, ok := b.times[k]; ok {
			o[k] = t
		}
	}
	if len(b.validation) > 0 {
		o["errors"] = map[string]any{"object": "list", "data": b.validation}
	}
	return o
}

// parseLinesLenient reads the lines of an input file that parse.
func parseLinesLenient(b []byte) []batchLine {
	var out []batchLine
	for _, raw := range bytes.Split(b, []byte("\n")) {
		var l batchLine
		if json.Unmarshal(raw, &l) == nil && l.CustomID != "" {
			out = append(out, l)
		}
	}
	return out
}
