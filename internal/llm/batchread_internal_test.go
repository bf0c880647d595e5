package llm

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/datg/datg/internal/journal"
)

// FuzzReadResults reads any bytes as a batch result file, of a declared
// size or none. It never panics, ends in nil, a cut download (retried) or
// ErrMalformed, calls a file read whole (its size declared) never a cut,
// and never takes one shorter than its size for a whole file.
func FuzzReadResults(f *testing.F) {
	req := Request{API: APIChat, Model: "gpt-4.1", MaxTokens: 16, Messages: []Message{{Role: "user", Content: "2+2?"}}}
	id := req.Key().String()
	answer := fmt.Sprintf(`{"id":"batch_req_1","custom_id":%q,"response":{"status_code":200,"request_id":"r","body":{"id":"c","object":"chat.completion","model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":"4"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}},"error":null}`, id)
	failed := fmt.Sprintf(`{"id":"batch_req_2","custom_id":%q,"response":null,"error":{"code":"batch_expired","message":"expired"}}`, id)
	for _, file := range []string{answer + "\n", failed + "\n", answer + "\n" + failed, answer[:40], "\n\n", "not json\n", `{"custom_id":""}`} {
		f.Add([]byte(file), int64(len(file)))
		f.Add([]byte(file), int64(0))
		f.Add([]byte(file), int64(len(file)+7))
	}
	pool, err := NewPool([]string{"http://127.0.0.1:1"}, DefaultOptions())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, file []byte, size int64) {
		j, err := journal.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		c := NewJournaled(pool, j)
		b := &batcher{pool: pool, stderr: io.Discard}
		st := &batchRun{want: map[string]Request{id: req}, settled: map[string]error{}, last: map[string]string{}}
		err = b.readResults(c, &submission{BatchID: "batch_1"}, bytes.NewReader(file), size, st)
		var cut *downloadError
		switch {
		case err != nil && !errors.As(err, &cut) && !errors.Is(err, ErrMalformed):
			t.Fatalf("error %v is neither a cut download nor ErrMalformed", err)
		case size == int64(len(file)) && len(file) > 0 && errors.As(err, &cut):
			t.Fatalf("a file read whole (%d bytes) taken for a cut download: %v", size, err)
		case size > int64(len(file)) && err == nil:
			t.Fatalf("%d of %d bytes read, and no cut download", len(file), size)
		}
	})
}
