package datg

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Myers' bit-vector distances are the dynamic programming's, in a search
// (Sellers: a match may start anywhere) and globally, for patterns of one
// and of several 64-bit words.
func TestBitVectorDistancesMatchDynamicProgramming(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 10))
	alphabets := [][]rune{[]rune("ab"), []rune("abc "), []rune("aé€𝔸"), []rune("0123456789+-=x ")}
	for trial := 0; trial < 3000; trial++ {
		alpha := alphabets[trial%len(alphabets)]
		word := func(n int) []rune {
			w := make([]rune, n)
			for i := range w {
				w[i] = alpha[rng.IntN(len(alpha))]
			}
			return w
		}
		m := 1 + rng.IntN(70)
		if trial%5 == 0 {
			m = 60 + rng.IntN(200) // several words, and word boundaries
		}
		pattern, text := word(m), word(rng.IntN(300))
		for _, global := range []bool{false, true} {
			want := dpDistances(text, pattern, global)
			var got []int
			newBitPattern(pattern).distances(text, global, func(j, d int) {
				if j != len(got)+1 {
					t.Fatalf("visited column %d after %d", j, len(got))
				}
				got = append(got, d)
			})
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("pattern %q text %q global=%v:\n got %v\nwant %v", string(pattern), string(text), global, got, want)
			}
		}
	}
}

// dpDistances is the textbook dynamic programming: after each character j
// of text, the distance of the pattern to the best substring ending there
// (search) or to text[:j] (global).
func dpDistances(text, pattern []rune, global bool) []int {
	prev := make([]int, len(pattern)+1)
	cur := make([]int, len(pattern)+1)
	for i := range prev {
		prev[i] = i
	}
	var out []int
	for j := 1; j <= len(text); j++ {
		cur[0] = 0
		if global {
			cur[0] = j
		}
		for i := 1; i <= len(pattern); i++ {
			cost := 1
			if pattern[i-1] == text[j-1] {
				cost = 0
			}
			cur[i] = min(prev[i-1]+cost, prev[i]+1, cur[i-1]+1)
		}
		out = append(out, cur[len(pattern)])
		prev, cur = cur, prev
	}
	return out
}

// The bounded locator finds what the unbounded one before it found, at the
// same place and the same way, on traces written from PolyMath's questions
// in the study's languages and spans quoted from them exactly, with their
// case, spacing, $ signs or some characters changed, or not from them at
// all; only a span a cap stops differs, and then it is not located.
func TestLocateAgreesWithTheUnboundedLocator(t *testing.T) {
	questions := demoQuestions(t)
	rng := rand.New(rand.NewPCG(19, 11))
	compared, fuzzy := 0, 0
	for trial := 0; trial < 120; trial++ {
		// A trace: questions as paragraphs, with math.
		var b strings.Builder
		for p := 0; p < 3+rng.IntN(12); p++ {
			q := questions[rng.IntN(len(questions))]
			fmt.Fprintf(&b, "%s\n$x_%d = %d \\times %d$  donc\n\n", q, p, rng.IntN(100), rng.IntN(100))
		}
		text := b.String()
		if trial%17 == 0 {
			text = text[:len(text)/2] + "\xff\xfe" + text[len(text)/2:] // invalid UTF-8 in the middle
		}
		tr, ref := NewTrace(text), NewTrace(text)
		l := tr.Locator()
		runes := []rune(text)
		for s := 0; s < 25; s++ {
			span := quote(rng, runes, questions)
			got, want := l.Locate(span), refLocate(ref, span)
			compared++
			if want.Match == MatchFuzzy {
				fuzzy++
			}
			if got.Cut != "" {
				if got.Found() || want.Match != MatchFuzzy && want.Match != MatchNone {
					t.Fatalf("span %q cut (%s) as %+v; before: %+v", span, got.Cut, got, want)
				}
				continue
			}
			if got != want {
				t.Fatalf("span %q in %q:\n got %+v\nwant %+v", span, text, got, want)
			}
		}
	}
	if fuzzy < 100 {
		t.Fatalf("only %d of %d spans were found fuzzily: the corpus does not exercise the fuzzy search", fuzzy, compared)
	}
}

// quote is a span for a trace: a piece of it, changed or not, or a
// question that may not be in it.
func quote(rng *rand.Rand, runes []rune, questions []string) string {
	if rng.IntN(6) == 0 {
		return questions[rng.IntN(len(questions))]
	}
	n := 3 + rng.IntN(120)
	long := rng.IntN(10) == 0
	if long {
		n = 900 + rng.IntN(200) // about the fuzzy search's cap
	}
	start := rng.IntN(max(1, len(runes)-n))
	piece := []rune(string(runes[start:min(len(runes), start+n)]))
	kind := rng.IntN(5)
	if long {
		// Not edited: the old locator's start search is cubic in a span
		// found fuzzily.
		kind %= 3
	}
	switch kind {
	case 0: // exact
	case 1:
		return strings.ToUpper(strings.ReplaceAll(string(piece), "$", ""))
	case 2:
		return strings.Join(strings.Fields(string(piece)), "\n  ")
	default: // edits at a rate of 2% to 30%
		rate := 0.02 + rng.Float64()*0.28
		var out []rune
		for _, r := range piece {
			switch x := rng.Float64(); {
			case x < rate/3:
				// deleted
			case x < 2*rate/3:
				out = append(out, r, 'q')
			case x < rate:
				out = append(out, 'z')
			default:
				out = append(out, r)
			}
		}
		return string(out)
	}
	return string(piece)
}

// demoQuestions are the questions of the demo PolyMath copy, in all its
// languages.
func demoQuestions(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../data/demo/*/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no demo questions: %v", err)
	}
	var out []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var q struct{ Question string }
			if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out = append(out, q.Question)
		}
		fh.Close()
	}
	return out
}

// longTrace is a trace of about n characters of prose and math.
func longTrace(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "Step %d: we add $%d + %d = %d$ and check the total again.\n\n", i, i, 2*i, 3*i)
	}
	return b.String()[:n]
}

// absentSpan is a span of n characters that is nowhere in longTrace.
func absentSpan(seed, n int) string {
	rng := rand.New(rand.NewPCG(uint64(seed), 19))
	letters := []rune("жзийклмнопрстуфх ")
	out := make([]rune, n)
	for i := range out {
		out[i] = letters[rng.IntN(len(letters))]
	}
	return string(out)
}

// Issue 19: on a 145k-character trace, 40 spans of 4,000 characters that
// are not in it took 0.8 s each (a fuzzy search of the whole trace for each
// 4,000-character pattern). They are searched exactly and normalized only,
// in work linear in the trace, and each says the span cap stopped it.
func TestLongSpansAreSearchedInLinearWork(t *testing.T) {
	text := longTrace(145_000)
	l := NewTrace(text).Locator()
	for i := 0; i < 40; i++ {
		loc := l.Locate(absentSpan(i, 4000))
		if loc.Found() || loc.Cut != CutLongSpan {
			t.Fatalf("span %d: %+v, want not located, cut by the span cap", i, loc)
		}
	}
	// Each span: the exact search (trace and span bytes), normalizing it,
	// and the normalized search; the trace is normalized once.
	perSpan := len(text) + 2*4000*utf8.UTFMax + 2*utf8.RuneCountInString(text)
	if l.Spent() > 40*perSpan+utf8.RuneCountInString(text) {
		t.Fatalf("40 spans took %d steps, more than %d", l.Spent(), 40*perSpan+utf8.RuneCountInString(text))
	}
}

// An alignment's spans share one budget proportional to the trace: spans
// past it are cut, not searched.
func TestLocatorBudget(t *testing.T) {
	for _, n := range []int{10_000, 40_000, 145_000} {
		text := longTrace(n)
		l := NewTrace(text).Locator()
		cut := 0
		for i := 0; i < 2000; i++ {
			loc := l.Locate(absentSpan(i, 900))
			switch {
			case loc.Found():
				t.Fatalf("absent span %d found: %+v", i, loc)
			case loc.Cut == CutBudget:
				cut++
			case cut > 0:
				t.Fatalf("span %d searched after the budget was spent: %+v", i, loc)
			}
		}
		if cut == 0 || l.Spent() > LocateBudget(n) {
			t.Fatalf("%d characters: %d spans cut, %d steps spent of %d", n, cut, l.Spent(), LocateBudget(n))
		}
		// The budget pays for a number of searches whatever the length.
		if searched := 2000 - cut; searched < 30 || searched > 300 {
			t.Fatalf("%d characters: %d spans of 900 searched before the budget ran out", n, searched)
		}
	}
}

// A found span costs no fuzzy search, and spans found exactly leave the
// budget to the rest: an alignment whose spans are all in the trace is
// never cut.
func TestLocatorBudgetSparesFoundSpans(t *testing.T) {
	text := longTrace(145_000)
	runes := []rune(text)
	l := NewTrace(text).Locator()
	for i := 0; i < 400; i++ {
		start := (i * 997) % (len(runes) - 200)
		if loc := l.Locate(string(runes[start : start+150])); loc.Match != MatchExact {
			t.Fatalf("span %d: %+v", i, loc)
		}
	}
}

// BenchmarkLocateHostile locates the spans of hostile alignments in a
// 145k-character trace: 40 spans of 4,000 characters that are not in it
// (issue 19's report), and 2,000 spans of 900 characters, which spend the
// whole budget. The "before" cases run the locator as it was (refLocate):
//
//	go test ./transforms/datg -run '^$' -bench LocateHostile -benchtime 1x
func BenchmarkLocateHostile(b *testing.B) {
	text := longTrace(145_000)
	spans := func(count, n int) []string {
		out := make([]string, count)
		for i := range out {
			out[i] = absentSpan(i, n)
		}
		return out
	}
	cases := []struct {
		name  string
		spans []string
	}{{"40x4000", spans(40, 4000)}, {"2000x900", spans(2000, 900)}}
	for _, c := range cases {
		b.Run(c.name+"/bounded", func(b *testing.B) {
			for b.Loop() {
				l := NewTrace(text).Locator()
				for _, s := range c.spans {
					l.Locate(s)
				}
			}
		})
		b.Run(c.name+"/before", func(b *testing.B) {
			if c.name != "40x4000" {
				b.Skip("hours")
			}
			for b.Loop() {
				tr := NewTrace(text)
				for _, s := range c.spans {
					refLocate(tr, s)
				}
			}
		})
	}
}

// BenchmarkFuzzyFind is one fuzzy search of a 900-character span absent
// from a 145k-character trace; steps/ns relates the locate budget's steps
// to time.
func BenchmarkFuzzyFind(b *testing.B) {
	text, _ := normalizeWithOrigin([]rune(longTrace(145_000)))
	pattern, _ := normalizeWithOrigin([]rune(absentSpan(1, 900)))
	k := len(pattern) / 5
	for b.Loop() {
		fuzzyFind(text, pattern, k)
	}
	b.ReportMetric(float64(fuzzySteps(len(text), len(pattern), k))*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "steps/ns")
}
