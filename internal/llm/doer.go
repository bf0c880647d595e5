package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
)

// maxResponseBytes bounds a response body; a 16k-token completion with its
// token ids is well under a megabyte.
const maxResponseBytes = 64 << 20

// exchange carries one request's extra body fields to the HTTP client and
// brings back the raw response, through the request's context.
type exchange struct {
	extra  map[string]any
	status int
	header http.Header
	body   []byte
}

type exchangeKey struct{}

// doer is the HTTP client go-openai sends through.
type doer struct{ http *http.Client }

func (d doer) Do(req *http.Request) (*http.Response, error) {
	ex, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if ex != nil && len(ex.extra) > 0 && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body, err = spliceFields(body, ex.extra)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := d.http.Do(req)
	if err != nil || ex == nil {
		return resp, err
	}
	// Read the whole body here: a connection dropped mid-body fails the
	// request as a transport fault, and the raw bytes stay available.
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	resp.Body.Close()
	ex.status, ex.header = resp.StatusCode, resp.Header
	if err != nil {
		return nil, fmt.Errorf("reading response: %w", err)
	}
	if len(raw) > maxResponseBytes {
		return nil, fmt.Errorf("response larger than %d bytes: %w", maxResponseBytes, ErrMalformed)
	}
	ex.body = raw
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	return resp, nil
}

// spliceFields adds fields to a JSON object's top level.
func spliceFields(obj []byte, fields map[string]any) ([]byte, error) {
	obj = bytes.TrimSpace(obj)
	if len(obj) < 2 || obj[0] != '{' || obj[len(obj)-1] != '}' {
		return nil, fmt.Errorf("request body is not a JSON object")
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := append([]byte(nil), obj[:len(obj)-1]...)
	empty := len(bytes.TrimSpace(obj[1:len(obj)-1])) == 0
	for _, k := range keys {
		v, err := json.Marshal(fields[k])
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", k, err)
		}
		if !empty {
			out = append(out, ',')
		}
		empty = false
		kb, _ := json.Marshal(k)
		out = append(out, kb...)
		out = append(out, ':')
		out = append(out, v...)
	}
	return append(out, '}'), nil
}
