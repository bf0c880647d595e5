package align

import (
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/internal/worked"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms/datg"
)

// BenchmarkSymbolicRows is align --aligner symbolic's work on one trace of
// 30 KB (Swahili prose, English mixed in, its problem's worked steps woven
// in), as a worker of the stage does it: read once, aligned to five DAGs,
// each alignment's rows made from its JSON (the writing aside).
func BenchmarkSymbolicRows(b *testing.B) {
	prose, en := testenv.DemoQuestions(b, "sw"), testenv.DemoQuestions(b, "en")
	var traces []schema.Trace
	for seed := uint64(1); seed <= 8; seed++ {
		text := tracegen.Write(tracegen.Trace{Prose: prose, English: en, Bytes: 30_000, Answer: "42", Seed: seed})
		traces = append(traces, schema.Trace{TraceID: "t", Text: worked.Weave(text, worked.Solution(seed, "42"), seed)})
	}
	var ds []*dags.Stored
	var nodes []*datg.SymbolicNodes
	for seed := uint64(1); seed <= 5; seed++ {
		var ref strings.Builder
		for _, s := range worked.Solution(seed, "42") {
			ref.WriteString("Next, we compute $ " + s + " $. ")
		}
		d := &dags.Stored{Row: schema.DAG{DagID: "d"}, DAG: datg.SymbolicDAG(ref.String(), "42")}
		ds, nodes = append(ds, d), append(nodes, datg.ReadSymbolicDAG(d.DAG))
	}
	bytes := int64(0)
	start := testenv.CPUTime()
	i := 0
	for b.Loop() {
		tr := &traces[i%len(traces)]
		sym, rt := datg.ReadSymbolic(tr.Text), readTrace(tr)
		for k, d := range ds {
			rt.rows(d, datg.SymbolicAligner, sym.NodesJSON(nodes[k]))
		}
		bytes += int64(len(tr.Text))
		i++
	}
	b.SetBytes(bytes / int64(b.N))
	testenv.ReportCPU(b, start, bytes/int64(b.N))
}
