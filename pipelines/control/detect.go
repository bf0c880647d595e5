package control

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/datg/datg/internal/jsonl"
	"github.com/datg/datg/transforms/loop"
)

// ErrBadLine means a line of `datg loop detect`'s input is not a request.
var ErrBadLine = errors.New("bad input line")

// detectRequest is one line of `datg loop detect`'s input.
type detectRequest struct {
	Tokens *[]int `json:"tokens"`
	Text   string `json:"text"`
	Budget *int   `json:"budget"`
}

// detectResult is one line of its output: the detector's statistics, or
// the error of a bad line.
type detectResult struct {
	*loop.Stats
	Error string `json:"error,omitempty"`
}

// DetectLines reads JSONL {"tokens": [...], "text": "...", "budget": B} from
// r and writes the loop detector's statistics for each line, in order, to
// w, as the partial trace looks at its checkpoint. A bad line gets
// {"error": ...} in its place and the rest go on; the error returned then
// names the first bad line and wraps ErrBadLine.
func DetectLines(ctx context.Context, r io.Reader, w io.Writer) (lines int, err error) {
	var firstBad error
	bad := 0
	lines, err = jsonl.Map(ctx, r, w, func(n int, line []byte) (any, bool) {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil, true // a blank line (a trailing newline too many) is no request
		}
		st, lerr := detectLine(line)
		out := detectResult{Stats: st}
		if lerr != nil {
			out.Error = fmt.Sprintf("line %d: %v", n, lerr)
			if bad++; firstBad == nil {
				firstBad = fmt.Errorf("line %d: %w: %v", n, ErrBadLine, lerr)
			}
		}
		return out, false
	})
	if err == nil && firstBad != nil {
		err = fmt.Errorf("%w (%d of %d lines bad)", firstBad, bad, lines)
	}
	return lines, err
}

func detectLine(line []byte) (*loop.Stats, error) {
	var req detectRequest
	if err := json.Unmarshal(line, &req); err != nil {
		return nil, err
	}
	switch {
	case req.Tokens == nil:
		return nil, errors.New(`needs "tokens", the generated token ids`)
	case req.Budget == nil || *req.Budget < 4:
		return nil, errors.New(`needs "budget", the level's token budget B (at least 4; the checkpoint is B/4)`)
	}
	st := loop.Detect(*req.Tokens, req.Text, *req.Budget)
	return &st, nil
}
