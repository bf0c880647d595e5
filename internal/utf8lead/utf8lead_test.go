package utf8lead

import (
	"testing"
	"unicode/utf8"
)

// Every lead byte with every second byte (the later ones continuation
// bytes at both ends of their range): the tables call a sequence well
// formed exactly when utf8.Valid does, and give its length.
func TestTablesAreUTF8(t *testing.T) {
	for c := range 256 {
		for c1 := range 256 {
			for _, rest := range []byte{0x80, 0xbf} {
				lead := Lead[c]
				n := int(lead & 7)
				seq := []byte{byte(c), byte(c1), rest, rest}
				if n == 0 {
					if c >= utf8.RuneSelf && utf8.FullRune(seq) {
						if r, size := utf8.DecodeRune(seq); r != utf8.RuneError || size != 1 {
							t.Fatalf("%#x leads %q, but Lead says it leads nothing", c, seq[:size])
						}
					}
					continue
				}
				b := Second[lead>>4]
				ours := byte(c1) >= b.Lo && byte(c1) <= b.Hi
				if valid := utf8.Valid(seq[:n]); ours != valid {
					t.Fatalf("% x: the tables say well formed %v, utf8.Valid %v", seq[:n], ours, valid)
				}
			}
		}
	}
}
