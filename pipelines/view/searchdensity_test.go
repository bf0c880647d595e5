package view

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// BenchmarkSearchDensity measures the search index on texts with the
// trigram density of real traces: internal/tracegen's traces from the
// demo questions' prose in each reasoning language, lengths drawn as
// scripts/scaletraces draws them (log-normal, medians of 1,600, 3,600 and
// 7,600 tokens of 5 bytes, cut at 4,096, 8,192, 16,384), the paper's 34
// language pairs in turn; DATG_BENCH_DENSITY_N traces (8,192: two
// signature segments). For queries of 3, 4 and 5 bytes, cut from random
// places of random texts (most are common) and made of random letters so
// that no text holds them (absent), it reports per search the candidates
// the signatures leave, the traces that hold the query, the false
// candidates (read and ruled out), each as a share of the traces, and
// the CPU time of a search (cpu-ns/op).
//
//	go test -run '^$' -bench BenchmarkSearchDensity -benchtime 200x ./pipelines/view
func BenchmarkSearchDensity(b *testing.B) {
	n := 8192
	if s := os.Getenv("DATG_BENCH_DENSITY_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	dir := b.TempDir()
	texts := writeDensityRun(b, dir, n)
	total := 0
	for _, t := range texts {
		total += len(t)
	}
	cpu := testenv.CPUTime()
	r := openIndexed(b, dir, b.TempDir())
	b.Logf("%d traces, %.1f KB each on average (%.0f MB); the search index built in %v CPU", n, float64(total)/float64(n)/1e3, float64(total)/1e6, testenv.CPUTime()-cpu)
	x := r.textIndex.Load()
	rng := rand.New(rand.NewPCG(9, 9))
	for _, size := range []int{3, 4, 5} {
		for _, kind := range []string{"cut", "absent"} {
			var queries []string
			for len(queries) < 64 {
				var q string
				if kind == "cut" {
					t := texts[rng.IntN(len(texts))]
					at := rng.IntN(len(t) - size)
					q = t[at : at+size]
				} else {
					var sb strings.Builder
					for range size {
						sb.WriteByte(byte('a' + rng.IntN(26)))
					}
					q = sb.String()
				}
				if !utf8.ValidString(q) || strings.ContainsRune(q, 0) {
					continue
				}
				found, err := x.search(q)
				if err != nil {
					b.Fatal(err)
				}
				if kind == "absent" && len(found) > 0 {
					continue
				}
				queries = append(queries, q)
			}
			var cands, matches float64
			for _, q := range queries {
				c, err := x.candidates(appendFolded(nil, q))
				if err != nil {
					b.Fatal(err)
				}
				found, _ := x.search(q)
				cands += float64(len(c))
				matches += float64(len(found))
			}
			qs := float64(len(queries))
			b.Run(fmt.Sprintf("traces=%d/bytes=%d/%s", n, size, kind), func(b *testing.B) {
				i := 0
				cpu := testenv.CPUTime()
				for b.Loop() {
					if _, err := x.search(queries[i%len(queries)]); err != nil {
						b.Fatal(err)
					}
					i++
				}
				testenv.ReportCPU(b, cpu, 0)
				b.ReportMetric(100*cands/qs/float64(n), "candidates-%")
				b.ReportMetric(100*matches/qs/float64(n), "matches-%")
				b.ReportMetric(100*(cands-matches)/qs/float64(n), "false-candidates-%")
			})
		}
	}
}

// writeDensityRun writes a run of n internal/tracegen traces into dir
// (BenchmarkSearchDensity says how they are drawn) and returns their
// texts.
func writeDensityRun(b *testing.B, dir string, n int) []string {
	b.Helper()
	prose := map[string][]string{}
	for _, l := range study.LanguageCodes() {
		prose[l] = testenv.DemoQuestions(b, l)
	}
	var pairs [][2]string
	pairs = append(pairs, [2]string{study.English, study.English})
	for _, l := range study.LanguageCodes() {
		if l != study.English {
			pairs = append(pairs, [2]string{study.English, l}, [2]string{l, study.English}, [2]string{l, l})
		}
	}
	type level struct {
		median float64
		budget int
	}
	levels := []level{{1600, 4096}, {3600, 8192}, {7600, 16384}}
	var traces []schema.Trace
	var texts []string
	for i := range n {
		rng := rand.New(rand.NewPCG(uint64(i+1), 23))
		lv := levels[(i/len(pairs))%3]
		p := pairs[i%len(pairs)]
		tokens := int(lv.median * math.Exp(0.8*rng.NormFloat64()))
		cut := tokens >= lv.budget
		tokens = max(min(tokens, lv.budget), 50)
		text := tracegen.Write(tracegen.Trace{Prose: prose[p[1]], English: prose[study.English], Bytes: 5 * tokens, Cut: cut,
			Answer: fmt.Sprint(rng.IntN(100000)), Seed: uint64(i + 1)})
		traces = append(traces, schema.Trace{TraceID: fmt.Sprintf("t%06d", i), Model: "m", Direction: "en-x", InputLang: p[0],
			ReasoningLang: p[1], Level: "low", ProblemID: "low-1", Method: "base", Text: text})
		texts = append(texts, text)
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		b.Fatal(err)
	}
	return texts
}
