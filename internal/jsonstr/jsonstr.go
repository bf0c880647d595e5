// Package jsonstr holds what datg's two fast JSON string readers share:
// answers check's request reader (pipelines/verify) and the Math-Verify
// grader's one-pass decoder into runes (transforms/mathverify). Both read
// only strings whose escapes are single letters (a \u escape sends the
// line to encoding/json), and both are tested against ByByte.
package jsonstr

import "unicode/utf8"

// Unescaped is what each escape letter but u stands for; 0 where the
// letter makes no escape the fast readers take.
var Unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// ByByte reads the JSON string starting at b[i] the plain way: a switch
// on every byte, utf8.Valid on the whole string, then the escapes
// replaced. It returns the string and the index after its closing quote;
// ok is false where a fast reader must refuse (no opening quote, no
// closing one, a control byte, ill-formed UTF-8, or an escape not in
// Unescaped). It is the reference those readers are compared with.
func ByByte(b []byte, i int) (s string, next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return "", 0, false
	}
	start := i + 1
	for j := start; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			raw := b[start:j]
			if !utf8.Valid(raw) {
				return "", 0, false
			}
			out := make([]byte, 0, len(raw))
			for k := 0; k < len(raw); k++ {
				if raw[k] == '\\' {
					k++
					out = append(out, Unescaped[raw[k]])
					continue
				}
				out = append(out, raw[k])
			}
			return string(out), j + 1, true
		case c == '\\':
			if j+1 >= len(b) || Unescaped[b[j+1]] == 0 {
				return "", 0, false
			}
			j++
		case c < 0x20:
			return "", 0, false
		}
	}
	return "", 0, false
}
