package scaffold

import (
	"strings"
	"testing"
	"time"
)

// TestManyNestedTagsLinear guards the one place where a naive rule 1 is
// quadratic (remove a tag, rescan from the start): the fuzzer stalled on
// bodies of repeated tags before cutAtClose scanned in one pass. Linear,
// 200,000 tags take well under a second; quadratic, minutes.
func TestManyNestedTagsLinear(t *testing.T) {
	const n = 200000
	body := strings.Repeat(openTag, n) + "- a = 1 + 2 = 3"
	start := time.Now()
	clean, removed := Sanitize(body)
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Sanitize of %d nested tags took %v", n, d)
	}
	if clean != "- a = 1 + 2 = ?" {
		t.Errorf("clean = %q", clean)
	}
	if len(removed) != n+1 || removed[n].Kind != kindResult {
		t.Errorf("got %d removals, want %d nested-open and one result", len(removed), n)
	}
}

func BenchmarkSanitize(b *testing.B) {
	body := strings.Repeat("- remaining_per_day = 16 - 3 - 4 = 9\n- eggs_per_day = 16\n", 50) + "Final answer: 63\n</execution_state>\nJibu"
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		Sanitize(body)
	}
}
