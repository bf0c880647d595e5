// Command mvrefinputs writes the inputs on which datg's math-verify grader
// is measured against the real (Python) Math-Verify, as `datg answers
// check` reads them: one JSON object a line, {"gold": ..., "pred": ...}.
//
//   - long.jsonl: reasoning traces of real length written by
//     internal/tracegen from the demo questions' prose (none of the
//     paper's text), every study language, half about 30 KB (a 16k-token
//     budget) and half about 120 KB; one in six cut at the budget with no
//     answer; answers of several kinds (integers with and without
//     thousands separators, fractions, decimals, expressions); the gold
//     right for four traces in five, wrong for the fifth.
//   - mixed.jsonl: traces of every length, drawn as scripts/scaletraces
//     draws them (log-normal in tokens around the medians of the three
//     levels, cut at their budgets, 5 bytes a token), for agreement over
//     many more traces than long.jsonl holds; the gold as in long.jsonl.
//   - short.jsonl: one-line answers such as `so the answer is
//     $\boxed{140,892}$`, with varied numbers, forms (boxed or not,
//     thousands separators, fractions, decimals, roots, percentages,
//     units, "x = 5") and golds (the same value, often in another form;
//     one in four a wrong value).
//
// The output is the same for the same flags (fixed seeds), so both tools
// read byte-identical files and later runs can be compared with earlier.
//
//	go run ./scripts/mvrefinputs -demo data/demo -out /work/mvref/inputs
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/study"
)

// pair is one input line of `datg answers check`.
type pair struct {
	Gold string `json:"gold"`
	Pred string `json:"pred"`
}

func main() {
	demo := flag.String("demo", "data/demo", "the demo problem set, whose questions are the traces' prose")
	out := flag.String("out", ".", "the directory to write long.jsonl and short.jsonl in")
	longCount := flag.Int("long", 360, "long traces to write")
	mixedCount := flag.Int("mixed", 3000, "traces of every length to write")
	shortCount := flag.Int("short", 200_000, "short answers to write")
	flag.Parse()
	if err := run(*demo, *out, *longCount, *mixedCount, *shortCount); err != nil {
		fmt.Fprintln(os.Stderr, "mvrefinputs:", err)
		os.Exit(1)
	}
}

func run(demo, out string, longCount, mixedCount, shortCount int) error {
	langs := study.LanguageCodes()
	prose := map[string][]string{}
	for _, l := range langs {
		p, err := questions(filepath.Join(demo, l))
		if err != nil {
			return err
		}
		prose[l] = p
	}
	rng := rand.New(rand.NewPCG(26, 23))
	err := writePairs(filepath.Join(out, "long.jsonl"), longCount, func(i int) pair {
		lang := langs[i%len(langs)]
		size := 30_000
		if (i/len(langs))%2 == 1 {
			size = 120_000
		}
		a := drawAnswer(rng)
		gold := a.gold
		if rng.IntN(5) == 0 {
			gold = a.wrongGold
		}
		text := tracegen.Write(tracegen.Trace{
			Prose: prose[lang], English: prose[study.English], Bytes: size,
			Cut: i%6 == 5, Answer: a.pred, Seed: uint64(i + 1),
		})
		return pair{Gold: gold, Pred: text}
	})
	if err != nil {
		return err
	}
	// The three levels' median lengths and budgets in tokens, as
	// scripts/scaletraces draws them.
	levels := []struct{ median, budget float64 }{{1600, 4096}, {3600, 8192}, {7600, 16384}}
	mixedRng := rand.New(rand.NewPCG(26, 24)) // its own: the other files stay as they were without it
	err = writePairs(filepath.Join(out, "mixed.jsonl"), mixedCount, func(i int) pair {
		lang := langs[i%len(langs)]
		lv := levels[(i/len(langs))%len(levels)]
		tokens := lv.median * math.Exp(0.8*mixedRng.NormFloat64())
		cut := tokens >= lv.budget
		tokens = max(min(tokens, lv.budget), 50)
		a := drawAnswer(mixedRng)
		gold := a.gold
		if mixedRng.IntN(5) == 0 {
			gold = a.wrongGold
		}
		text := tracegen.Write(tracegen.Trace{
			Prose: prose[lang], English: prose[study.English], Bytes: int(tokens * 5),
			Cut: cut, Answer: a.pred, Seed: uint64(1_000_000 + i),
		})
		return pair{Gold: gold, Pred: text}
	})
	if err != nil {
		return err
	}
	return writePairs(filepath.Join(out, "short.jsonl"), shortCount, func(int) pair {
		a := drawAnswer(rng)
		gold := a.gold
		if rng.IntN(4) == 0 {
			gold = a.wrongGold
		}
		return pair{Gold: gold, Pred: shortSentence(rng, a.pred)}
	})
}

// writePairs writes n pairs, one JSON object a line, to path.
func writePairs(path string, n int, next func(i int) pair) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range n {
		if err := enc.Encode(next(i)); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// answer is one value written three ways: as a model writes it (pred,
// LaTeX without delimiters), as a gold (a dataset's form, often another
// one), and a gold of another value.
type answer struct {
	pred, gold, wrongGold string
}

// drawAnswer draws an answer of one of the kinds models write.
func drawAnswer(rng *rand.Rand) answer {
	n := rng.IntN(1_000_000)
	switch k := rng.IntN(20); {
	case k < 6: // an integer with a thousands separator
		n += 1000
		return answer{thousands(n), fmt.Sprint(n), fmt.Sprint(n + 1 + rng.IntN(9))}
	case k < 9: // a plain integer
		n %= 10_000
		return answer{fmt.Sprint(n), fmt.Sprint(n), fmt.Sprint(n * 10)}
	case k < 10: // a negative integer
		n %= 1000
		return answer{fmt.Sprint(-n - 1), fmt.Sprint(-n - 1), fmt.Sprint(n + 1)}
	case k < 12: // a decimal, the gold sometimes a fraction
		c := n%10_000 + 1
		if c%4 == 0 {
			return answer{fmt.Sprintf("%d.25", c/4), fmt.Sprintf(`$\frac{%d}{4}$`, c+1), fmt.Sprintf("%d.5", c/4)}
		}
		return answer{fmt.Sprintf("%d.%02d", c/100, c%100), fmt.Sprintf("%d.%02d", c/100, c%100), fmt.Sprintf("%d.%02d", c/100+1, c%100)}
	case k < 15: // a fraction, the gold sometimes a decimal or a/b
		p, q := n%97+1, n%13+2
		pred := fmt.Sprintf(`\frac{%d}{%d}`, p, q)
		if k == 14 {
			pred = fmt.Sprintf(`\dfrac{%d}{%d}`, p, q)
		}
		gold := fmt.Sprintf(`$\frac{%d}{%d}$`, p, q)
		if q == 2 || q == 4 || q == 5 || q == 8 || q == 10 {
			gold = fmt.Sprint(float64(p) / float64(q))
		} else if q%3 == 0 {
			gold = fmt.Sprintf("%d/%d", p, q)
		}
		return answer{pred, gold, fmt.Sprintf(`$\frac{%d}{%d}$`, p+1, q)}
	case k < 17: // an expression: a root or pi
		a, b := n%9+2, n%7+2
		if k == 15 {
			return answer{fmt.Sprintf(`%d\sqrt{%d}`, a, b), fmt.Sprintf(`$%d\sqrt{%d}$`, a, b), fmt.Sprintf(`$%d\sqrt{%d}$`, a+1, b)}
		}
		return answer{fmt.Sprintf(`%d\pi`, a), fmt.Sprintf(`$%d\pi$`, a), fmt.Sprintf(`$%d\pi$`, b+a)}
	case k < 18: // a percentage
		n %= 100
		return answer{fmt.Sprintf(`%d\%%`, n), fmt.Sprint(n), fmt.Sprint(n + 5)}
	case k < 19: // a number with a unit
		n %= 1000
		return answer{fmt.Sprintf(`%d \text{ dollars}`, n), fmt.Sprint(n), fmt.Sprint(n + 2)}
	default: // an equation
		n %= 100
		return answer{fmt.Sprintf("x = %d", n), fmt.Sprint(n), fmt.Sprint(n + 3)}
	}
}

// shortSentence writes the one line a model ends with around the answer.
func shortSentence(rng *rand.Rand, a string) string {
	lead := []string{"so the answer is", "The final answer is", "Therefore, the answer is", "Thus", "Jibu ni", "答案是", "La respuesta es", ""}[rng.IntN(8)]
	var s string
	switch rng.IntN(10) {
	case 0, 1, 2, 3, 4:
		s = fmt.Sprintf(`%s $\boxed{%s}$`, lead, a)
	case 5:
		s = fmt.Sprintf(`%s \boxed{%s}.`, lead, a)
	case 6:
		s = fmt.Sprintf(`%s $%s$.`, lead, a)
	case 7:
		s = fmt.Sprintf(`%s \(%s\)`, lead, a)
	case 8:
		s = fmt.Sprintf(`Answer: %s`, a)
	default:
		s = fmt.Sprintf(`%s %s`, lead, a)
	}
	return strings.TrimSpace(s)
}

// thousands writes n with a comma every three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// questions reads the questions of a language's problem files.
func questions(dir string) ([]string, error) {
	var out []string
	for _, level := range []string{"low", "medium", "high"} {
		b, err := os.ReadFile(filepath.Join(dir, level+".jsonl"))
		if err != nil {
			return nil, err
		}
		for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var row struct{ Question string }
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				return nil, fmt.Errorf("%s/%s.jsonl line %d: %w", dir, level, i+1, err)
			}
			out = append(out, row.Question)
		}
	}
	return out, nil
}
