package datg

import (
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/internal/worked"
)

// BenchmarkSymbolicAlign is align --aligner symbolic's work on one trace
// at the paper's real lengths: a 30 KB trace (Swahili prose, English
// mixed in, its problem's worked steps woven in) read once and aligned
// to five DAGs of 5 to 11 nodes, its problem's and four others'. The
// -regexp variant reads it as Equations did before mathspans.go.
func BenchmarkSymbolicAlign(b *testing.B) {
	prose, en := testenv.DemoQuestions(b, "sw"), testenv.DemoQuestions(b, "en")
	var texts []string
	for seed := uint64(1); seed <= 8; seed++ {
		text := tracegen.Write(tracegen.Trace{Prose: prose, English: en, Bytes: 30_000, Answer: "42", Seed: seed})
		texts = append(texts, worked.Weave(text, worked.Solution(seed, "42"), seed))
	}
	var dags [][]DAG
	nodes := 0
	for seed := uint64(1); seed <= 8; seed++ {
		var five []DAG
		for k := uint64(0); k < 5; k++ {
			d := workedDAG(seed + k*1000)
			nodes += len(d.Nodes)
			five = append(five, d)
		}
		dags = append(dags, five)
	}
	b.Logf("%.1f nodes a DAG", float64(nodes)/40)
	for _, impl := range []struct {
		name     string
		read     func(string) *SymbolicTrace
		readDAGs func([]DAG) []*SymbolicNodes
	}{
		// As align does: each DAG read once, before the traces.
		{"", ReadSymbolic, func(ds []DAG) []*SymbolicNodes {
			var out []*SymbolicNodes
			for _, d := range ds {
				out = append(out, ReadSymbolicDAG(d))
			}
			return out
		}},
		// As before: regexps, answer's parser for every side, the
		// anchors read again for every pair.
		{"-regexp", refReadSymbolic, func(ds []DAG) []*SymbolicNodes {
			var out []*SymbolicNodes
			for _, d := range ds {
				out = append(out, refReadSymbolicDAG(d))
			}
			return out
		}},
	} {
		var read [][]*SymbolicNodes
		if impl.name == "" {
			for _, five := range dags {
				read = append(read, impl.readDAGs(five))
			}
		}
		b.Run("30KB-5DAGs"+impl.name, func(b *testing.B) {
			bytes := int64(0)
			start := testenv.CPUTime()
			i := 0
			for b.Loop() {
				k := i % len(texts)
				t := impl.read(texts[k])
				var nodes []*SymbolicNodes
				if read != nil {
					nodes = read[k]
				} else {
					nodes = impl.readDAGs(dags[k])
				}
				for _, n := range nodes {
					_ = t.NodesJSON(n)
				}
				bytes += int64(len(texts[k]))
				i++
			}
			b.SetBytes(bytes / int64(b.N))
			testenv.ReportCPU(b, start, bytes/int64(b.N))
		})
	}
}

// BenchmarkLocateSymbolicSpans locates the spans of a 30 KB trace's
// symbolic alignments to five DAGs, as align does for each trace: the
// trace indexed once (NewTrace), a Locator an alignment.
func BenchmarkLocateSymbolicSpans(b *testing.B) {
	prose, en := testenv.DemoQuestions(b, "sw"), testenv.DemoQuestions(b, "en")
	type traceSpans struct {
		text  string
		spans []string
	}
	var traces []traceSpans
	found := 0
	for seed := uint64(1); seed <= 8; seed++ {
		text := tracegen.Write(tracegen.Trace{Prose: prose, English: en, Bytes: 30_000, Answer: "42", Seed: seed})
		text = worked.Weave(text, worked.Solution(seed, "42"), seed)
		ts := traceSpans{text: text}
		sym := ReadSymbolic(text)
		for k := uint64(0); k < 5; k++ {
			a := sym.Align(workedDAG(seed + k*1000))
			for _, events := range a.AuditResults {
				for _, e := range events {
					ts.spans = append(ts.spans, e.EvidenceSpan)
				}
			}
			for _, acts := range [][]Action{a.ContradictorySteps, a.HarmfulLoopSteps, a.DegenerateSteps} {
				for _, act := range acts {
					ts.spans = append(ts.spans, act.EvidenceSpan)
				}
			}
		}
		tr := NewTrace(text)
		for _, s := range ts.spans {
			if tr.Locator().Locate(s).Found() {
				found++
			}
		}
		traces = append(traces, ts)
	}
	spans := 0
	for _, ts := range traces {
		spans += len(ts.spans)
	}
	b.Logf("%d spans in 8 traces, %d found", spans, found)
	bytes := int64(0)
	start := testenv.CPUTime()
	i := 0
	for b.Loop() {
		ts := traces[i%len(traces)]
		tr := NewTrace(ts.text)
		for _, s := range ts.spans {
			tr.Locator().Locate(s)
		}
		bytes += int64(len(ts.text))
		i++
	}
	b.SetBytes(bytes / int64(b.N))
	testenv.ReportCPU(b, start, bytes/int64(b.N))
}
