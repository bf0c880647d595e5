package transforms

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// TestTextHashIsSHA256 checks TextHash (the text's bytes hashed in place)
// against the first 16 hex digits of SHA-256 over a copy of them, and
// that it copies nothing: a long trace's text was copied once per stage.
func TestTextHashIsSHA256(t *testing.T) {
	long := strings.Repeat("Sawa, hebu nifikirie $x$ 数学 \xff ", 3000)
	for _, text := range []string{"", "a", "<think>\nhello</think>", long, long[1:], long[:len(long)-3]} {
		sum := sha256.Sum256([]byte(text))
		if got, want := TextHash(text), hex.EncodeToString(sum[:8]); got != want {
			t.Fatalf("TextHash(%d bytes) = %s, want %s", len(text), got, want)
		}
	}
	if n := testing.AllocsPerRun(20, func() { TextHash(long) }); n > 1 {
		t.Errorf("TextHash allocates %.0f times on %d bytes; want only its result", n, len(long))
	}
}
