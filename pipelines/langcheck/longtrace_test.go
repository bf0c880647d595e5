package langcheck

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// longTrace is a generated reasoning trace of about n bytes in lang, shaped
// like a long model trace: paragraphs of the demo questions' prose (the
// problems' own text, not a model's), inline math ($...$, \(...\)) inside
// sentences, displayed math ($$...$$, \[...\]) between them, now and then
// an English sentence, and, unless cut (a trace that ran to its budget),
// the closing </think> and a boxed answer.
func longTrace(t testing.TB, id, lang string, n int, seed uint64, cut bool) schema.Trace {
	rng := rand.New(rand.NewPCG(seed, 23))
	paras := strings.Split(prose(t, lang), "\n\n")
	en := strings.Split(prose(t, "en"), "\n\n")
	inline := []string{"$x = %d$", "$\\frac{%d}{7}$", "\\(n^2 + %d\\)", "$a_{%d} \\le b$", "$\\sqrt{%d}$"}
	display := []string{"$$\\sum_{k=1}^{%d} k^2 = \\frac{n(n+1)(2n+1)}{6}$$", "\\[ f(x) = x^{%d} - 3x + 1 \\]", "$$%d \\times 12 = 3{,}240$$"}
	var b strings.Builder
	for b.Len() < n {
		p := paras[rng.IntN(len(paras))]
		if rng.IntN(8) == 0 {
			p = en[rng.IntN(len(en))]
		}
		words := strings.Fields(p)
		for i, w := range words {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w)
			if rng.IntN(25) == 0 {
				fmt.Fprintf(&b, " "+inline[rng.IntN(len(inline))], rng.IntN(1000))
			}
		}
		b.WriteString("\n\n")
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, display[rng.IntN(len(display))]+"\n\n", rng.IntN(100))
		}
	}
	reasoning := b.String()
	tr := trace(id, lang, reasoning)
	if cut {
		tr.Text = strings.TrimSuffix(tr.Text[:strings.Index(tr.Text, "</think>")], "\n")
		tr.TextHash = transforms.TextHash(tr.Text) // as the traces table holds it
	}
	return tr
}

// BenchmarkCheckLong measures langcheck's whole check of a long trace
// (the reasoning cut out and stripped of math, its letters counted, the
// text_hash taken, and both detectors), in bytes of trace text per second:
// traces of 30 KB (a 16k-token budget) and 120 KB, in Swahili and
// Chinese, half of them cut at the budget.
//
//	go test ./pipelines/langcheck -run '^$' -bench CheckLong -cpu 1 -count 5
func BenchmarkCheckLong(b *testing.B) {
	c, err := newChecker(string(study.Langdetect))
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{30_000, 120_000} {
		for _, lang := range []string{"sw", "zh"} {
			traces := []schema.Trace{longTrace(b, "a", lang, size, 1, false), longTrace(b, "b", lang, size, 2, true)}
			bytes := 0
			for _, t := range traces {
				bytes += len(t.Text)
			}
			b.Run(fmt.Sprintf("%s-%dKB", lang, size/1000), func(b *testing.B) {
				b.SetBytes(int64(bytes))
				start := testenv.CPUTime()
				for b.Loop() {
					for i := range traces {
						if _, _, err := c.check(&traces[i]); err != nil {
							b.Fatal(err)
						}
					}
				}
				testenv.ReportCPU(b, start, int64(bytes))
			})
			// Each part alone: the reasoning cut out, stripped and
			// counted; then each detector on it.
			r, _ := reasoningOf(&traces[0])
			parts := map[string]func(){
				"strip": func() {
					reasoningOf(&traces[0])
					textHash(&traces[0])
				},
			}
			for _, d := range c.detectors {
				parts[d.name()] = func() { d.check(lang, r) }
			}
			for _, name := range []string{"strip", string(study.Langdetect), string(study.Lingua)} {
				b.Run(fmt.Sprintf("%s-%dKB-%s", lang, size/1000, name), func(b *testing.B) {
					b.SetBytes(int64(len(traces[0].Text)))
					start := testenv.CPUTime()
					for b.Loop() {
						parts[name]()
					}
					testenv.ReportCPU(b, start, int64(len(traces[0].Text)))
				})
			}
		}
	}
}

var updateLong = flag.Bool("update-long", false, "rewrite testdata/long_traces.golden from this build's checks")

// longTraceSet is the differential set: every study language at lengths
// from 2 KB to 90 KB, cut at the budget or not, and traces that stress
// the stripping (unclosed math openers, URLs and mail addresses across
// langdetect's 10,000 characters).
func longTraceSet(t testing.TB) []schema.Trace {
	var out []schema.Trace
	seed := uint64(0)
	for _, l := range study.Languages() {
		for _, size := range []int{2_000, 12_000, 30_000, 90_000} {
			for _, cut := range []bool{false, true} {
				seed++
				out = append(out, longTrace(t, fmt.Sprintf("%s-%d-%d", l.Code, size, seed), l.Code, size, seed, cut))
			}
		}
	}
	sw := strings.Repeat(prose(t, "sw")+"\n\n", 4)
	odd := map[string]string{
		"unclosed": strings.Repeat(sw[:3000]+" \\[ $$ \\( $ ", 6),
		"urls":     strings.Repeat(sw[:700]+" https://example.org/"+strings.Repeat("a/b", 400)+" mtu@mfano.co.tz ", 30),
		"mails":    strings.Repeat(strings.Repeat("abc", 40)+" "+sw[:500]+" "+strings.Repeat("x", 90)+"@"+strings.Repeat("h", 300)+".tz ", 40),
	}
	for _, id := range []string{"unclosed", "urls", "mails"} {
		out = append(out, trace(id, "sw", odd[id]))
	}
	return out
}

// TestLongTraceVerdictsUnchanged compares every detector's decision, and
// the compliance row's counts, on longTraceSet with those the code before
// issue 23 made (recorded in testdata/long_traces.golden: regular
// expression stripping, every segment built, langdetect's passes over the
// whole text).
func TestLongTraceVerdictsUnchanged(t *testing.T) {
	c, err := newChecker(string(study.Langdetect))
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, tr := range longTraceSet(t) {
		comp, dets, err := c.check(&tr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&got, "%s chars=%d length=%d hash=%s\n", tr.TraceID, comp.Chars, *comp.Length, comp.TextHash)
		for _, d := range dets {
			fmt.Fprintf(&got, "  %s %s %q %v %s %s\n", d.Detector, d.Requested, d.Detected, d.Compliant, d.Status, d.Shares)
		}
	}
	path := filepath.Join("testdata", "long_traces.golden")
	if *updateLong {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		g, w := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("line %d differs:\n got  %s\n want %s", i+1, g[i], w[i])
			}
		}
		t.Fatalf("%d lines, want %d", len(g), len(w))
	}
}
