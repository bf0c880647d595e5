package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
)

// longTraces are generated traces of about size bytes in lang with the
// answer 140,892: one ending in each final form and one cut at the budget.
func longTraces(t testing.TB, lang string, size int) []string {
	prose, en := testenv.DemoQuestions(t, lang), testenv.DemoQuestions(t, "en")
	var out []string
	for seed := uint64(1); seed <= 6; seed++ {
		out = append(out, tracegen.Write(tracegen.Trace{Prose: prose, English: en, Bytes: size, Cut: seed == 6, Answer: "140,892", Seed: seed}))
	}
	return out
}

// BenchmarkGradeLong grades long traces as verify does (the gold parsed
// once), each grader alone, in bytes of trace per second of CPU: 30 KB
// (a 16k-token budget) and 120 KB traces in Swahili and Chinese, five
// ending in an answer and one cut at the budget.
//
//	go test ./pipelines/verify -run '^$' -bench GradeLong -cpu 1 -count 5
func BenchmarkGradeLong(b *testing.B) {
	for _, size := range []int{30_000, 120_000} {
		for _, lang := range []string{"sw", "zh"} {
			traces := longTraces(b, lang, size)
			n := 0
			for _, tr := range traces {
				n += len(tr)
			}
			for _, gr := range graders {
				g := gr.newGold("140892")
				b.Run(fmt.Sprintf("%s/%s-%dKB", gr.name, lang, size/1000), func(b *testing.B) {
					b.SetBytes(int64(n))
					start := testenv.CPUTime()
					for b.Loop() {
						for _, tr := range traces {
							g.grade(tr, false)
						}
					}
					testenv.ReportCPU(b, start, int64(n))
				})
			}
		}
	}
}

// BenchmarkAnswersCheckShort is `datg answers check` on one-line answers
// with a box, as a user would pipe them: JSON in, JSON out, a gold parsed
// for every line. Reported as pairs per second of CPU.
//
//	go test ./pipelines/verify -run '^$' -bench AnswersCheckShort -cpu 1 -count 5
func BenchmarkAnswersCheckShort(b *testing.B) {
	const lines = 10_000
	var in bytes.Buffer
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&in, `{"gold": "140892", "pred": "so the answer is $\\boxed{140,892}$"}`+"\n")
	}
	for _, gr := range graders {
		b.Run(gr.name, func(b *testing.B) {
			start := testenv.CPUTime()
			for b.Loop() {
				if _, err := CheckLines(context.Background(), gr.name, bytes.NewReader(in.Bytes()), io.Discard); err != nil {
					b.Fatal(err)
				}
			}
			cpu := testenv.CPUTime() - start
			b.ReportMetric(float64(lines)*float64(b.N)/cpu.Seconds(), "pairs/cpu-s")
		})
	}
}

// BenchmarkAnswersCheckLong is `datg answers check` on long traces, as
// the real-Math-Verify comparison runs it: each line's JSON read (the
// trace's LaTeX escaped as JSON escapes it), its gold parsed, the trace
// graded, the verdict written; MB of input lines per CPU second. The
// traces are BenchmarkGradeLong's, with golds right and wrong.
//
//	go test ./pipelines/verify -run '^$' -bench AnswersCheckLong -cpu 1 -count 5
func BenchmarkAnswersCheckLong(b *testing.B) {
	for _, size := range []int{30_000, 120_000} {
		for _, lang := range []string{"sw", "zh"} {
			var in bytes.Buffer
			enc := json.NewEncoder(&in)
			enc.SetEscapeHTML(false)
			for k, tr := range longTraces(b, lang, size) {
				gold := []string{"140892", "140893"}[k%2]
				if err := enc.Encode(map[string]string{"gold": gold, "pred": tr}); err != nil {
					b.Fatal(err)
				}
			}
			for _, gr := range graders {
				b.Run(fmt.Sprintf("%s/%s-%dKB", gr.name, lang, size/1000), func(b *testing.B) {
					b.SetBytes(int64(in.Len()))
					start := testenv.CPUTime()
					for b.Loop() {
						if _, err := CheckLines(context.Background(), gr.name, bytes.NewReader(in.Bytes()), io.Discard); err != nil {
							b.Fatal(err)
						}
					}
					testenv.ReportCPU(b, start, int64(in.Len()))
				})
			}
		}
	}
}

// The short answer the benchmark checks is graded correct by both.
func TestShortBoxedAnswerWithThousandsSeparator(t *testing.T) {
	for _, gr := range graders {
		var out strings.Builder
		if _, err := CheckLines(context.Background(), gr.name, strings.NewReader(`{"gold": "140892", "pred": "so the answer is $\\boxed{140,892}$"}`+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), `"correct":true`) {
			t.Errorf("%s: %s", gr.name, out.String())
		}
	}
}

var updateLong = flag.Bool("update-long", false, "rewrite testdata/long_traces.golden from this build's verdicts")

// longTraceCases are the differential set: every study language, traces
// of 3, 30 and 100 KB ending in each final form or cut at the budget, with
// answers of several kinds, each graded against its own gold and a wrong
// one; and traces built to stress extraction (boxes everywhere, unclosed
// boxes and math, "final answer" repeated, a late answer after a long
// run of numbers).
func longTraceCases(t testing.TB) (texts, golds []string) {
	answers := []struct{ pred, gold, wrong string }{
		{"140,892", "140892", "140893"},
		{`\frac{3}{4}`, "0.75", `\frac{4}{3}`},
		{`(-\infty, 2]`, `(-\infty,2]`, `(-\infty, 2)`},
		{`x^2 + 1`, `1+x^2`, `x^2-1`},
		{`\{1, 2, 3\}`, `\{3,2,1\}`, `\{1,2\}`},
	}
	en := testenv.DemoQuestions(t, "en")
	seed := uint64(0)
	for _, l := range []string{"bn", "de", "en", "es", "fr", "ja", "ru", "sw", "te", "th", "zh", "ko", "id", "ms"} {
		if _, err := os.Stat(filepath.Join(testenv.Demo(t), l)); err != nil {
			continue
		}
		prose := testenv.DemoQuestions(t, l)
		for _, size := range []int{3_000, 30_000, 100_000} {
			for form := 0; form < 6; form++ {
				seed++
				a := answers[int(seed)%len(answers)]
				text := tracegen.Write(tracegen.Trace{Prose: prose, English: en, Bytes: size, Cut: form == 5, Answer: a.pred, Seed: seed})
				texts = append(texts, text, text)
				golds = append(golds, a.gold, a.wrong)
			}
		}
	}
	sw := strings.Join(testenv.DemoQuestions(t, "sw"), " ")
	odd := []string{
		strings.Repeat(sw[:500]+` $\boxed{12}$, `, 60) + `\boxed{140892}`,
		strings.Repeat(sw[:500]+` \boxed{`, 60),
		strings.Repeat(sw[:500]+` $ \( \[ `, 60),
		strings.Repeat("The final answer is 7. ", 400) + sw,
		strings.Repeat("12, 13, 14 = 15 ", 3000) + "\n</think>\nAnswer: 140892",
	}
	for _, o := range odd {
		texts = append(texts, o)
		golds = append(golds, "140892")
	}
	return texts, golds
}

// TestLongTraceVerdictsUnchanged grades longTraceCases with both graders
// and compares every verdict with those the graders before issue 23 gave
// (testdata/long_traces.golden).
func TestLongTraceVerdictsUnchanged(t *testing.T) {
	texts, golds := longTraceCases(t)
	var got strings.Builder
	for i, text := range texts {
		for _, gr := range graders {
			for _, truncated := range []bool{false, true} {
				if gr.name == graders[0].name && truncated {
					continue // math-verify does not read it
				}
				v := gr.newGold(golds[i]).grade(text, truncated)
				fmt.Fprintf(&got, "%d %s %v %q %v %v %s %s\n", i, gr.name, truncated, v.Extracted, v.HasAnswer, v.Correct, v.Reason, v.Where)
			}
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
	g, w := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			t.Fatalf("verdict %d differs:\n got  %s\n want %s", i+1, g[i], w[i])
		}
	}
	if len(g) != len(w) {
		t.Fatalf("%d verdicts, want %d", len(g), len(w))
	}
}

// verify grades a batch on every CPU with one parsed gold per problem
// shared by the workers: grading must read the gold only. Four workers
// grade the same traces with shared golds and must agree with one
// grading alone (run with -race to see a write to a shared gold).
func TestSharedGoldsGradeAlikeConcurrently(t *testing.T) {
	texts, goldTexts := longTraceCases(t)
	if testing.Short() {
		texts, goldTexts = texts[:40], goldTexts[:40]
	}
	shared := map[string][]gold{}
	for _, g := range goldTexts {
		if shared[g] == nil {
			for _, gr := range graders {
				shared[g] = append(shared[g], gr.newGold(g))
			}
		}
	}
	want := make([][]verdict, len(texts))
	for i, text := range texts {
		for k := range graders {
			want[i] = append(want[i], graders[k].newGold(goldTexts[i]).grade(text, false))
		}
	}
	const workers = 4
	got := make([][][]verdict, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range texts {
				i := (j + w*len(texts)/workers) % len(texts)
				if got[w] == nil {
					got[w] = make([][]verdict, len(texts))
				}
				for k := range graders {
					got[w][i] = append(got[w][i], shared[goldTexts[i]][k].grade(texts[i], false))
				}
			}
		}()
	}
	wg.Wait()
	for w := range workers {
		for i := range texts {
			if !slices.Equal(got[w][i], want[i]) {
				t.Fatalf("worker %d, trace %d: %+v, alone %+v", w, i, got[w][i], want[i])
			}
		}
	}
}
