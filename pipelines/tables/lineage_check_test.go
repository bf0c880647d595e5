package tables

import (
	"context"
	"crypto/md5"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// oneCheck is the staleCheck of one check, in one query.
func oneCheck(rows, format string) staleCheck {
	return staleCheck{rows: rows, formats: []string{format}}
}

// scoresChecksBefore are the scores input's four checks as they were
// before one query read the lineage for all of them: the reference the
// one query must match, count for count.
var scoresChecksBefore = []staleCheck{
	oneCheck(`SELECT l.trace_id FROM scores s JOIN stg_alignment_lineage l USING (trace_id, dag_id, aligner)
			WHERE NOT l.current_text`,
		"%d scores of %s come from alignments of an older trace text"),
	oneCheck(`SELECT l.trace_id FROM scores s JOIN stg_alignment_lineage l USING (trace_id, dag_id, aligner)
			WHERE l.current_text AND NOT l.current_dag`,
		"%d scores of %s come from alignments of a DAG that has changed since"),
	oneCheck(`SELECT l.trace_id FROM scores s JOIN stg_alignment_lineage l USING (trace_id, dag_id, aligner)
			WHERE s.alignment_hash IS DISTINCT FROM l.alignment_hash AND s.alignment_hash IS NOT NULL
			   OR s.text_hash IS DISTINCT FROM l.text_hash AND s.text_hash IS NOT NULL
			   OR s.dag_hash IS DISTINCT FROM l.dag_hash AND s.dag_hash IS NOT NULL`,
		"%d scores of %s were computed from alignments made again since"),
	oneCheck(`SELECT l.trace_id FROM stg_alignment_lineage l LEFT JOIN scores s USING (trace_id, dag_id, aligner)
			WHERE l.scorable AND s.trace_id IS NULL`,
		"%d alignments of %s have no scores row"),
}

// staleWorld writes a run of traces in every scope whose alignments and
// scores are stale in every way the scores checks find, at random: older
// trace texts, changed and invalid DAGs, failed alignments, alignments
// made again, missing scores, scores of no alignment, traces no longer in the run.
func staleWorld(t *testing.T, rng *rand.Rand, n int) string {
	t.Helper()
	dir := t.TempDir()
	var (
		traces []schema.Trace
		dags   []schema.DAG
		aligns []schema.Alignment
		scores []schema.Score
	)
	for d := range 6 {
		dags = append(dags, schema.DAG{DagID: fmt.Sprintf("p/r%d", d), ProblemID: "p", RefIndex: int32(d),
			Valid: d != 5, ContentHash: fmt.Sprintf("c%d", d)})
	}
	methods := []string{"base", "base", "base", "control-base", "loop-retry", "reference"}
	for i := range n {
		id := fmt.Sprintf("t%04d", i)
		seed := int64(42)
		if rng.IntN(4) == 0 {
			seed = 7
		}
		if rng.IntN(12) > 0 { // else a trace no longer in the run
			traces = append(traces, schema.Trace{TraceID: id, ProblemID: "p", Method: methods[rng.IntN(len(methods))], Seed: seed, TextHash: "h" + id})
		}
		for d := range 7 { // p/r6 is a DAG not in the run
			if rng.IntN(3) == 0 {
				continue
			}
			a := schema.Alignment{TraceID: id, DagID: fmt.Sprintf("p/r%d", d), Aligner: []string{"symbolic", "llm"}[rng.IntN(2)],
				Status: "ok", Raw: fmt.Sprintf("{%d %d}", i, d), TextHash: "h" + id, DagHash: fmt.Sprintf("c%d", d)}
			switch rng.IntN(10) {
			case 0:
				a.TextHash = "older"
			case 1:
				a.DagHash = "rebuilt since"
			case 2:
				a.Status = "invalid-json"
			}
			if slices.ContainsFunc(aligns, func(b schema.Alignment) bool {
				return b.TraceID == a.TraceID && b.DagID == a.DagID && b.Aligner == a.Aligner
			}) {
				continue
			}
			aligns = append(aligns, a)
			if rng.IntN(5) == 0 {
				continue // no score
			}
			s := schema.Score{TraceID: a.TraceID, DagID: a.DagID, Aligner: a.Aligner, TextHash: a.TextHash, DagHash: a.DagHash,
				AlignmentHash: md5Hex(a.Raw)}
			switch rng.IntN(8) {
			case 0:
				s.AlignmentHash = md5Hex("made again")
			case 1:
				s.TextHash = "other"
			case 2:
				s.DagHash = "other"
			}
			scores = append(scores, s)
			if rng.IntN(8) == 0 {
				s.Aligner = "gone" // a score of no alignment
				scores = append(scores, s)
			}
		}
	}
	for _, err := range []error{
		store.WriteAll(dir, schema.Traces, store.Meta{}, traces),
		store.WriteAll(dir, schema.DAGs, store.Meta{}, dags),
		store.WriteAll(dir, schema.Alignments, store.Meta{}, aligns),
		store.WriteAll(dir, schema.Scores, store.Meta{}, scores),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// staleCounts is every count a check's query gives: per format, per scope.
func staleCounts(t *testing.T, c *inputCheck, check staleCheck) []int64 {
	t.Helper()
	n := make([]int64, len(check.formats)*len(scopes))
	dest := make([]any, len(n))
	for i := range n {
		dest[i] = &n[i]
	}
	if err := c.db.QueryRowContext(context.Background(), countQuery(check)).Scan(dest...); err != nil {
		t.Fatal(err)
	}
	return n
}

// The scores input's checks read stg_alignment_lineage (an MD5 of every
// alignment's reply) in one query, where they took four (issue 23), and
// count what the four counted, check by check and scope by scope, over
// runs stale in every way; the message each scope gets is the same.
func TestScoresChecksReadTheLineageOnce(t *testing.T) {
	reads := 0
	for _, c := range inputs["scores"].checks {
		reads += strings.Count(c.rows, "stg_alignment_lineage")
	}
	if reads != 1 {
		t.Errorf("the scores checks read stg_alignment_lineage %d times, want once", reads)
	}
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			dir := staleWorld(t, rand.New(rand.NewPCG(seed, 11)), 40+20*int(seed))
			db, err := openRun(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			check := newInputCheck(db)
			var want, got []int64
			for _, c := range scoresChecksBefore {
				want = append(want, staleCounts(t, check, c)...)
			}
			for _, c := range inputs["scores"].checks {
				got = append(got, staleCounts(t, check, c)...)
			}
			if !slices.Equal(got, want) {
				t.Errorf("counts (check by check, scope by scope) %v, the four queries before gave %v", got, want)
			}
			nonzero := 0
			for _, n := range want {
				if n > 0 {
					nonzero++
				}
			}
			if nonzero < 8 {
				t.Errorf("only %d counts above 0 (%v): the world tests little", nonzero, want)
			}
			before, err := check.staleRows(context.Background(), input{checks: scoresChecksBefore})
			if err != nil {
				t.Fatal(err)
			}
			now, err := check.staleRows(context.Background(), inputs["scores"])
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(now) != fmt.Sprint(before) {
				t.Errorf("messages %v, before %v", now, before)
			}
		})
	}
}

func md5Hex(s string) string { return fmt.Sprintf("%x", md5.Sum([]byte(s))) }
