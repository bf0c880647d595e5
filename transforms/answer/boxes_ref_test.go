package answer

// The box and gap readers as they were before issue 19, kept as the oracle
// the linear ones must agree with.

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// refBoxesIn is boxesIn before issue 19: each box's braces are matched
// by scanning from its opening, to the end of the text when it never
// closes.
func refBoxesIn(text string) []box {
	var out []box
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '\\')
		if j < 0 {
			break
		}
		at := i + j
		rest := text[at:]
		var n int
		switch {
		case strings.HasPrefix(rest, `\boxed`):
			n = len(`\boxed`)
		case strings.HasPrefix(rest, `\fbox`):
			n = len(`\fbox`)
		default:
			i = at + 1
			continue
		}
		k := at + n
		for k < len(text) && text[k] == ' ' {
			k++
		}
		if k < len(text) && text[k] == '{' {
			if content, ok := balanced(text[k:]); ok {
				end := k + len(content) + 2
				out = append(out, box{start: at, end: end, content: content})
				i = end
				continue
			}
		}
		i = at + n
	}
	return out
}

// refJoinsValues is joinsValues before issue 19 (any nesting, textCmdRe
// searched in the whole gap): joinsValues reports whether the text between two values only joins
// them: spaces, commas, math delimiters, a conjunction in any of the
// study's languages (and, et, dan, и, 和, และ, ...), and names the next
// value is assigned to.
func refJoinsValues(gap string) bool {
	g := strings.TrimSpace(gap)
	for n := 0; g != "" && n < 64; n++ {
		cut := false
		for _, t := range gapTokens {
			if strings.HasPrefix(g, t) {
				g, cut = g[len(t):], true
				break
			}
		}
		if !cut {
			if loc := textCmdRe().FindStringIndex(g); loc != nil && loc[0] == 0 {
				inner, ok := balanced(g[loc[1]-1:])
				if !ok || !refJoinsValues(inner) {
					return false
				}
				g, cut = g[loc[1]+len(inner)+1:], true
			}
		}
		if !cut {
			if w := gapWordRe().FindString(g); w != "" && conjunctions[strings.ToLower(w)] != "" {
				g, cut = g[len(w):], true
			} else if l := labelRe().FindString(g); l != "" {
				g, cut = g[len(l):], true
			}
		}
		if !cut {
			return false
		}
		g = strings.TrimSpace(g)
	}
	return g == ""
}

// tokenText is a random text of n pieces from tokens.
func tokenText(rng *rand.Rand, tokens []string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(tokens[rng.IntN(len(tokens))])
	}
	return b.String()
}

var boxTokens = []string{`\boxed`, `\boxed{`, `\fbox`, `\fbox {`, ` `, `{`, `}`, `\`, `\\`, `\{`, `\}`, "1", "x", ", ", "$", `\frac{1}{2}`, "\n"}

var gapTestTokens = []string{`\text{`, `\mbox {`, `\text{ and }`, "}", "{", " and ", " et ", " or ", ", ", "; ", "$", `\(`, `\)`, `\quad`, " ",
	"x_2 =", `\alpha =`, "so", "\n", `\`, "和", "および", "**"}

// The linear box reader finds the boxes the old one found, on the texts
// of the grader's test cases and on random texts of braces, backslashes
// and boxes.
func TestBoxesAsBefore(t *testing.T) {
	texts := corpusTexts(t)
	rng := rand.New(rand.NewPCG(19, 12))
	for range 20000 {
		texts = append(texts, tokenText(rng, boxTokens, 1+rng.IntN(40)))
	}
	for _, text := range texts {
		if got, want := boxesIn(text), refBoxesIn(text); !slices.Equal(got, want) {
			t.Fatalf("boxesIn(%q):\n got %+v\nwant %+v", text, got, want)
		}
	}
}

// The gap reader decides as the old one did, except on \text{} nested
// deeper than maxGapNesting, which joins nothing.
func TestGapsAsBefore(t *testing.T) {
	gaps := corpusTexts(t)
	rng := rand.New(rand.NewPCG(19, 13))
	for range 50000 {
		gaps = append(gaps, tokenText(rng, gapTestTokens, rng.IntN(12)))
	}
	for i := range 200 {
		depth := 1 + i%(maxGapNesting+3)
		gaps = append(gaps, strings.Repeat(`\text{ and `, depth)+strings.Repeat("}", depth))
	}
	joined := 0
	for _, gap := range gaps {
		got, want := joinsValues(gap), refJoinsValues(gap)
		if got == want {
			if got {
				joined++
			}
			continue
		}
		if want && !got && len(textCmdRe().FindAllStringIndex(gap, -1)) > maxGapNesting {
			continue // nested deeper than the reader goes
		}
		t.Fatalf("joinsValues(%q) = %v, before %v", gap, got, want)
	}
	if joined < 500 {
		t.Fatalf("only %d of %d gaps join values: the corpus does not exercise the reader", joined, len(gaps))
	}
}

// FuzzBoxesAsBefore: any text has the boxes the old reader found, and any
// gap joins as before (nesting aside).
func FuzzBoxesAsBefore(f *testing.F) {
	for _, s := range []string{`\boxed{1}, \boxed{2}`, `\boxed{\boxed{`, `\\boxed{a\}b}`, `\fbox {x} \boxed {y`, `\text{ and } `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := boxesIn(text), refBoxesIn(text); !slices.Equal(got, want) {
			t.Fatalf("boxesIn(%q):\n got %+v\nwant %+v", text, got, want)
		}
		if got, want := joinsValues(text), refJoinsValues(text); got != want && !(want && len(textCmdRe().FindAllStringIndex(text, -1)) > maxGapNesting) {
			t.Fatalf("joinsValues(%q) = %v, before %v", text, got, want)
		}
		// Time: the work stays linear whatever the text.
		work := 0
		scannedBytes = &work
		boxesIn(text)
		scannedBytes = nil
		if work > 4*len(text)+16 {
			t.Fatalf("boxesIn read %d bytes of a %d-byte text", work, len(text))
		}
	})
}
