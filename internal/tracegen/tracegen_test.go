package tracegen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// mathDelimiters are the pairs KaTeX's auto-render finds (its default
// delimiters, display first so that $$ is not read as two $), which the
// viewer renders a trace with.
var mathDelimiters = [][2]string{{"$$", "$$"}, {`\[`, `\]`}, {`\(`, `\)`}, {"$", "$"}}

// nestedMath is the offset of the first opening delimiter found inside
// math (-1: none), and whether the text ends inside math.
func nestedMath(text string) (offset int, open bool) {
	closer := ""
	for i := 0; i < len(text); i++ {
		rest := text[i:]
		if closer != "" && strings.HasPrefix(rest, closer) {
			i += len(closer) - 1
			closer = ""
			continue
		}
		for _, d := range mathDelimiters {
			if !strings.HasPrefix(rest, d[0]) {
				continue
			}
			if closer != "" {
				return i, true
			}
			closer = d[1]
			i += len(d[0]) - 1
			break
		}
	}
	return -1, closer != ""
}

func TestNestedMathFindsNesting(t *testing.T) {
	for text, want := range map[string]int{
		`a $x$ b \(y\) c $$z$$ \[w\]`: -1,
		`If $x \(n^2\) + 1$`:          6,
		`\(a $b$\)`:                   4,
		`$$a \[b\]$$`:                 4,
	} {
		if got, _ := nestedMath(text); got != want {
			t.Errorf("nestedMath(%q) = %d, want %d", text, got, want)
		}
	}
}

// TestMathIsNeverNested writes traces from every demo language's
// questions, whose own $...$ spans are split across words, and finds no
// math inside math and none left open: each renders as TeX.
func TestMathIsNeverNested(t *testing.T) {
	langs, err := os.ReadDir(testenv.Demo(t))
	if err != nil {
		t.Fatal(err)
	}
	english := testenv.DemoQuestions(t, "en")
	traces := 0
	for _, l := range langs {
		if _, err := os.Stat(filepath.Join(testenv.Demo(t), l.Name(), "low.jsonl")); err != nil {
			continue
		}
		prose := testenv.DemoQuestions(t, l.Name())
		for seed := uint64(1); seed <= 20; seed++ {
			text := Write(Trace{Prose: prose, English: english, Bytes: 30_000, Cut: seed%4 == 0, Answer: `\frac{3}{4}`, Seed: seed})
			traces++
			if at, open := nestedMath(text); at >= 0 {
				t.Fatalf("%s, seed %d: math inside math at byte %d: %q", l.Name(), seed, at, text[max(0, at-60):min(len(text), at+20)])
			} else if open {
				t.Fatalf("%s, seed %d: the text ends inside math", l.Name(), seed)
			}
		}
	}
	if traces < 100 {
		t.Fatalf("only %d traces written: is data/demo there?", traces)
	}
}
