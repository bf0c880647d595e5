// Package jsonl runs the JSON-lines filters of the command line (datg
// answers check, datg loop detect): one JSON value out for each request
// line in, in order.
package jsonl

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
)

// Map reads lines from r and writes, for each, the JSON encoding of what fn
// returns (HTML left unescaped) to w. fn gets the 1-based line number and
// the line with its newline; when it returns skip, nothing is written for
// that line. It returns how many lines it read.
func Map(ctx context.Context, r io.Reader, w io.Writer, fn func(n int, line []byte) (out any, skip bool)) (lines int, err error) {
	br := bufio.NewReaderSize(r, 1<<16)
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for {
		if err := ctx.Err(); err != nil {
			return lines, err
		}
		line, rerr := br.ReadBytes('\n')
		if len(line) == 0 && errors.Is(rerr, io.EOF) {
			return lines, nil
		}
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return lines, rerr
		}
		lines++
		if out, skip := fn(lines, line); !skip {
			if err := enc.Encode(out); err != nil {
				return lines, err
			}
		}
		if errors.Is(rerr, io.EOF) {
			return lines, nil
		}
	}
}
