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
// the line with its newline, in a buffer reused for the next line (a
// line of a long trace is 120 KB: a copy each was most of answers
// check's garbage), so fn must not keep it; what fn returns is encoded
// before the next line is read. When fn returns skip, nothing is written
// for that line. It returns how many lines it read.
func Map(ctx context.Context, r io.Reader, w io.Writer, fn func(n int, line []byte) (out any, skip bool)) (lines int, err error) {
	br := bufio.NewReaderSize(r, 1<<16)
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	var buf []byte // the line, reused
	for {
		if err := ctx.Err(); err != nil {
			return lines, err
		}
		line, rerr := readLine(br, buf[:0])
		buf = line
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

// readLine appends the next line of br, its newline included, to buf, as
// br.ReadBytes('\n') returns it, without allocating one.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		frag, err := br.ReadSlice('\n')
		buf = append(buf, frag...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return buf, err
		}
	}
}
