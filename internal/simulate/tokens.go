package simulate

import (
	"hash/fnv"
	"unicode"
	"unicode/utf8"
)

// tokenize splits text into the simulator's tokens: runs of up to four ASCII
// letters or digits, or one other character, each carrying the whitespace
// before it. Their concatenation is the text. It stands in for a real
// tokenizer closely enough for budgets and repetition statistics.
func tokenize(s string) []string {
	var toks []string
	start := 0
	i := 0
	for i < len(s) {
		// leading whitespace belongs to the next token
		for i < len(s) {
			r, w := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsSpace(r) {
				break
			}
			i += w
		}
		if i >= len(s) {
			break
		}
		if isASCIIAlnum(s[i]) {
			j := i
			for j < len(s) && j-i < 4 && isASCIIAlnum(s[j]) {
				j++
			}
			i = j
		} else {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
		}
		toks = append(toks, s[start:i])
		start = i
	}
	if start < len(s) {
		toks = append(toks, s[start:])
	}
	return toks
}

func countTokens(s string) int { return len(tokenize(s)) }

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// tokenID maps a token to a stable id in Qwen3's vocabulary range.
func tokenID(tok string) int {
	h := fnv.New32a()
	h.Write([]byte(tok))
	return int(h.Sum32() % 151643)
}
