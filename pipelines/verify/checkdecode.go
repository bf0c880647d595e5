package verify

import "unicode/utf8"

// decodePlainRequest reads the usual answers-check line, an object of
// exactly the members "gold" and "pred" (in either order), both strings
// of valid UTF-8 with no \u escape, and JSON whitespace around: what
// json.Unmarshal into a checkRequest gives for it, without reflection
// (decoding the JSON was a tenth of checking a short answer). Any other
// line, valid or not, reports false, and json.Unmarshal reads it (and
// words its error). FuzzPlainRequestDecodesAsJSON compares the two.
func decodePlainRequest(line []byte) (gold, pred string, ok bool) {
	i := skipJSONSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return "", "", false
	}
	var haveGold, havePred bool
	for member := 0; member < 2; member++ {
		i = skipJSONSpace(line, i+1)
		key, next, ok := plainJSONString(line, i)
		if !ok {
			return "", "", false
		}
		i = skipJSONSpace(line, next)
		if i >= len(line) || line[i] != ':' {
			return "", "", false
		}
		i = skipJSONSpace(line, i+1)
		value, next, ok := plainJSONString(line, i)
		if !ok {
			return "", "", false
		}
		switch {
		case key == "gold" && !haveGold:
			gold, haveGold = value, true
		case key == "pred" && !havePred:
			pred, havePred = value, true
		default:
			return "", "", false
		}
		i = skipJSONSpace(line, next)
		want := byte(',')
		if member == 1 {
			want = '}'
		}
		if i >= len(line) || line[i] != want {
			return "", "", false
		}
	}
	if skipJSONSpace(line, i+1) != len(line) {
		return "", "", false
	}
	return gold, pred, true
}

// skipJSONSpace is the index of the first byte at or after i that is not
// JSON whitespace.
func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// plainJSONString decodes the JSON string starting at b[i] (its opening
// quote) and returns it with the index past its closing quote, or false
// if there is none, or it holds a control character, a \u escape or
// invalid UTF-8 (which json replaces).
func plainJSONString(b []byte, i int) (s string, next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return "", 0, false
	}
	start := i + 1
	escaped, wide := false, false
	for j := start; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			raw := b[start:j]
			if wide && !utf8.Valid(raw) {
				return "", 0, false
			}
			if !escaped {
				return string(raw), j + 1, true
			}
			return unescapePlain(raw), j + 1, true
		case c == '\\':
			if j+1 >= len(b) || unescaped[b[j+1]] == 0 {
				return "", 0, false
			}
			escaped = true
			j++
		case c < 0x20:
			return "", 0, false
		case c >= utf8.RuneSelf:
			wide = true
		}
	}
	return "", 0, false
}

// unescaped is what each escape letter but u stands for.
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// unescapePlain decodes raw, whose escapes plainJSONString has checked.
func unescapePlain(raw []byte) string {
	out := make([]byte, 0, len(raw))
	for j := 0; j < len(raw); j++ {
		if raw[j] == '\\' {
			j++
			out = append(out, unescaped[raw[j]])
			continue
		}
		out = append(out, raw[j])
	}
	return string(out)
}
