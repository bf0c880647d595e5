package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestLineAndSummary(t *testing.T) {
	var buf bytes.Buffer
	p := Start(&buf, "generate", 10)
	p.Extra = func() string { return "endpoints 2/3 up" }
	p.Skip(4)
	p.start = time.Now().Add(-2 * time.Second)
	p.Done(100)
	p.Done(300)
	p.Fail()
	line := p.line()
	for _, want := range []string{"generate 7/10 (70.0%)", "/s", "tok/s", "ETA ", "reused 4", "failed 1", "endpoints 2/3 up"} {
		if !strings.Contains(line, want) {
			t.Errorf("progress line %q lacks %q", line, want)
		}
	}
	if buf.Len() != 0 {
		t.Fatalf("redrew on a non-terminal: %q", buf.String())
	}
	p.Finish()
	p.Finish()
	if got := buf.String(); !strings.HasPrefix(got, "generate: 2 done, 4 reused (journaled, or the same as another request), 1 failed, 400 tokens in ") || strings.Count(got, "\n") != 1 {
		t.Fatalf("summary %q", got)
	}
}

// A quiet progress (a dry run's) writes no summary: not even "0 done".
func TestQuietWritesNothing(t *testing.T) {
	var buf bytes.Buffer
	p := Start(&buf, "align", 10)
	p.Quiet()
	p.Finish()
	if buf.Len() != 0 {
		t.Fatalf("a quiet progress wrote %q", buf.String())
	}
}
