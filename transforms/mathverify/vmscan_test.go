package mathverify

import (
	"bufio"
	"encoding/json"

	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
)

// withoutScans is p with its program's lazy loops run step by step, as
// before vmscan.go: the oracle the scans must agree with on any text.
func withoutScans(p *pattern) *pattern {
	q := *p
	q.prog = stripScans(p.prog)
	return &q
}

func stripScans(prog *program) *program {
	c := *prog
	c.insts = slices.Clone(prog.insts)
	for i := range c.insts {
		c.insts[i].scan = nil
		if c.insts[i].sub != nil {
			c.insts[i].sub = stripScans(c.insts[i].sub)
		}
	}
	return &c
}

// sameMatches compares two finditer results of the same pattern, groups
// included (the spans' pattern pointers differ).
func sameMatches(a, b []span) bool {
	return slices.EqualFunc(a, b, func(x, y span) bool {
		return x.start == y.start && x.end == y.end && slices.Equal(x.caps, y.caps)
	})
}

// demoTraces are generated long traces in every demo language: each final
// form, cut at the budget, several answers.
func demoTraces(t testing.TB, size int) []string {
	t.Helper()
	demo := testenv.Demo(t)
	prose := func(lang string) []string {
		var out []string
		files, _ := filepath.Glob(filepath.Join(demo, lang, "*.jsonl"))
		for _, name := range files {
			f, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				var row struct{ Question string }
				if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
					t.Fatal(err)
				}
				out = append(out, row.Question)
			}
			f.Close()
		}
		if len(out) == 0 {
			t.Fatalf("no questions for %s in %s", lang, demo)
		}
		return out
	}
	en := prose("en")
	answers := []string{"140,892", `\frac{3}{4}`, `(-\infty, 2]`, `x^2 + 1`, `\{1, 2, 3\}`}
	var out []string
	for _, lang := range []string{"bn", "en", "fr", "id", "ja", "ko", "ms", "ru", "sw", "te", "th", "zh"} {
		p := prose(lang)
		for seed := uint64(1); seed <= 6; seed++ {
			out = append(out, tracegen.Write(tracegen.Trace{Prose: p, English: en, Bytes: size,
				Cut: seed == 6, Answer: answers[int(seed)%len(answers)], Seed: seed}))
		}
	}
	return out
}

// Every pattern finds on long generated traces, groups included, what it
// finds with its lazy loops run step by step; and, on windows of them
// short enough for the old backtracking matcher's budget, what that one
// finds.
func TestScansMatchAsWithout(t *testing.T) {
	traces := demoTraces(t, 20_000)
	patterns := everyPattern()
	scanned := 0
	for _, p := range patterns {
		for _, in := range p.prog.insts {
			if in.scan != nil {
				scanned++
			}
		}
	}
	if scanned < 10 {
		t.Fatalf("only %d loops have a scan", scanned)
	}
	compared, windows := 0, 0
	for ti, text := range traces {
		rs := []rune(text)
		for pi, p := range patterns {
			got := p.findAll(newMatcher(rs))
			want := withoutScans(p).findAll(newMatcher(rs))
			if !sameMatches(got, want) {
				t.Fatalf("trace %d, pattern %d:\n got %s\nwant %s", ti, pi, showSpans(got), showSpans(want))
			}
			compared += len(got)
		}
		for w := 0; w+2000 <= len(rs); w += 14983 {
			win := rs[w : w+2000]
			for pi, p := range patterns {
				want, err := refSpans(p, win)
				if err != nil {
					continue
				}
				if got := p.findAll(newMatcher(win)); !sameMatches(got, want) {
					t.Fatalf("trace %d window at %d, pattern %d:\n got %s\nwant %s", ti, w, pi, showSpans(got), showSpans(want))
				}
				windows++
			}
		}
	}
	t.Logf("%d matches and %d (window, pattern) pairs compared", compared, windows)
	if compared < 5000 || windows < 1000 {
		t.Fatalf("%d matches and %d (window, pattern) pairs compared", compared, windows)
	}
}

// FuzzScansMatchAsWithout: on any text every pattern matches as with its
// lazy loops run step by step.
func FuzzScansMatchAsWithout(f *testing.F) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		f.Add(randomText(rng, 40))
	}
	f.Add("$$ a \\boxed{1} b $$ $x\\$ \\boxed{2}$ \\(y \\boxed{3}\\) \\[\\boxed{4}\\]")
	patterns := everyPattern()
	plain := make([]*pattern, len(patterns))
	for i, p := range patterns {
		plain[i] = withoutScans(p)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 20000 {
			return
		}
		rs := []rune(text)
		for pi, p := range patterns {
			got, want := p.findAll(newMatcher(rs)), plain[pi].findAll(newMatcher(rs))
			if !sameMatches(got, want) {
				t.Fatalf("pattern %d on %q:\n got %s\nwant %s", pi, text, showSpans(got), showSpans(want))
			}
		}
	})
}

// The boxed-environment pattern reads a display between a closing "$$"
// and the next opening one (where a box lies between, as in long traces)
// in about a step a rune; step by step it took five.
func TestLazyLoopStepsPerRune(t *testing.T) {
	var boxedEnv *pattern
	for _, p := range allPatterns() {
		if p.where == "boxed" && p.p.direct == nil {
			boxedEnv = p.p
		}
	}
	prose := strings.Repeat("Tukijumlisha thamani zilizotolewa tunapata jibu. ", 400)
	text := "$$x$$" + prose + `\boxed{7}` + prose + "$$y$$"
	rs := []rune(text)
	m := newMatcher(rs)
	spans := boxedEnv.findAll(m)
	if len(spans) != 1 || spans[0].end-spans[0].start < len(prose) {
		t.Fatalf("matches %s", showSpans(spans))
	}
	if perRune := float64(m.steps) / float64(len(rs)); perRune > 1.5 {
		t.Fatalf("%.1f steps a rune", perRune)
	}
}
