package view

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

// groupRun is how writeGroupRun lays a run out.
type groupRun struct {
	n        int             // traces
	perGroup int             // rows a row group (traces: a fifth of it)
	parts    int             // files of the folder tables (events, harms, scores, verdicts)
	shuffle  bool            // rows out of id order (a trace's rows scattered in a group)
	absent   map[string]bool // tables not written
	seed     uint64
}

// oldCompliance is a compliance row as datg wrote it before v0.3.0: no
// settings, the detector "<name>: <settings>".
type oldCompliance struct {
	TraceID   string `parquet:"trace_id"`
	Requested string `parquet:"requested"`
	Detected  string `parquet:"detected"`
	Compliant bool   `parquet:"compliant"`
	Status    string `parquet:"status"`
	Chars     int32  `parquet:"chars"`
	Shares    string `parquet:"shares"`
	Detector  string `parquet:"detector"`
	TextHash  string `parquet:"text_hash"`
}

// groupText is a trace's text: unicode, markup, a 100 KB one now and then.
func groupText(rng *rand.Rand, i int) string {
	words := []string{"Kwa hiyo", "jibu ni", "$\\frac{a}{b}$", "数学", "😀", "ñandú", hostile, "\n\n", "x + 2y = 14", "Ω≈√"}
	n := 1 + rng.IntN(40)
	if i%37 == 5 {
		n = 12000 // about 100 KB
	}
	var b strings.Builder
	b.WriteString("<think>\n")
	for range n {
		b.WriteString(words[rng.IntN(len(words))])
		b.WriteByte(' ')
	}
	return b.String() + "</think>\n\\boxed{18}"
}

// writeParquet writes rows to path in row groups of perGroup rows and
// small pages (a text spans several, a group has many).
func writeParquet[T any](t testing.TB, path string, rows []T, perGroup int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f, parquet.MaxRowsPerRowGroup(int64(perGroup)), parquet.PageBufferSize(2048), parquet.Compression(&parquet.Zstd))
	for len(rows) > 0 {
		k := min(len(rows), perGroup)
		if _, err := w.Write(rows[:k]); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		rows = rows[k:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// writeTable writes a table of the run read in place: one file, or a
// folder of parts, each part holding every parts-th row (so a trace's rows
// are in several files).
func writeTable[T any](t testing.TB, dir, name string, rows []T, perGroup, parts int) {
	if parts <= 1 {
		writeParquet(t, filepath.Join(dir, name+".parquet"), rows, perGroup)
		return
	}
	for p := range parts {
		var part []T
		for i := p; i < len(rows); i += parts {
			part = append(part, rows[i])
		}
		writeParquet(t, filepath.Join(dir, name, fmt.Sprintf("part-%d.parquet", p)), part, perGroup)
	}
}

// writeGroupRun writes a run read in place (no generations) the way other
// writers may: small row groups, tables in several files, a trace's rows
// across groups and files, NULLs where the table allows them, compliance
// in the form before v0.3.0 for a third of the traces, ids that are
// prefixes of others.
func writeGroupRun(t testing.TB, g groupRun) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(g.seed, 9))
	var (
		ids      []string
		traces   []schema.Trace
		verdicts []schema.Verdict
		answers  []schema.Answer
		dets     []schema.Detection
		comps    []schema.Compliance
		olds     []oldCompliance
		scores   []schema.Score
		events   []schema.AlignmentEvent
		harms    []schema.HarmfulAction
	)
	opt := func(v int32) *int32 {
		if rng.IntN(4) == 0 {
			return nil
		}
		return &v
	}
	for i := range g.n {
		id := fmt.Sprintf("t%04d", i)
		if i%11 == 3 {
			id = fmt.Sprintf("t%04d", i-1) + "-é" // a prefix of it is another trace's id
		}
		ids = append(ids, id)
		traces = append(traces, schema.Trace{TraceID: id, Model: "m", Direction: "en-x", InputLang: "en", ReasoningLang: "sw",
			Level: "low", ProblemID: fmt.Sprintf("low-%d", i%5), Seed: 42, Method: "base", Text: groupText(rng, i), TextHash: "h",
			FinishReason: []string{"stop", "", "length"}[i%3]})
		for _, grader := range []string{"math-verify", "multilingual"} {
			if rng.IntN(3) > 0 {
				verdicts = append(verdicts, schema.Verdict{TraceID: id, Grader: grader, Extracted: "x" + hostile, HasAnswer: rng.IntN(2) == 0,
					Correct: rng.IntN(2) == 0, Reason: []string{"exact", "gold-unparsed", "mismatch"}[rng.IntN(3)], FoundIn: "boxed", TextHash: "h"})
			}
		}
		if rng.IntN(2) == 0 {
			answers = append(answers, schema.Answer{TraceID: id, Grader: []string{"math-verify 0.7", "multilingual"}[rng.IntN(2)],
				Extracted: "18", HasAnswer: true, Correct: true, Reason: "numeric", FoundIn: "boxed", TextHash: "h"})
		}
		if rng.IntN(3) > 0 {
			dets = append(dets, schema.Detection{TraceID: id, Detector: "lingua", Detected: "sw,en", Status: "mixed", Shares: "sw:0.6,en:0.4", TextHash: "h"})
		}
		switch rng.IntN(3) {
		case 0:
			olds = append(olds, oldCompliance{TraceID: id, Detector: "langdetect: langdetect 1.0.9 seed 0", Detected: "sw", Compliant: true, Status: "ok", TextHash: "h"})
		case 1:
			comps = append(comps, schema.Compliance{TraceID: id, Detector: "lingua", Settings: "lingua 1.3", Detected: "sw", Compliant: true, Status: "ok", TextHash: "h"})
		}
		for _, aligner := range []string{"symbolic", "gpt"} {
			if rng.IntN(3) == 0 {
				continue
			}
			for ref := range 1 + rng.IntN(3) {
				dag := fmt.Sprintf("low-%d/%d", i%5, ref)
				var pmf *float64
				if rng.IntN(3) > 0 {
					v := rng.Float64()
					pmf = &v
				}
				scores = append(scores, schema.Score{TraceID: id, DagID: dag, Aligner: aligner, RefIndex: int32(ref), CAR: rng.Float64(), PMF: pmf,
					HAR: rng.Float64(), Best: ref == 0})
				for node := range rng.IntN(4) {
					for seq := range 1 + rng.IntN(2) {
						events = append(events, schema.AlignmentEvent{TraceID: id, DagID: dag, Aligner: aligner, NodeID: fmt.Sprintf("n%d", node),
							Seq: int32(seq), Status: []string{"COMMIT", "ATTEMPT"}[rng.IntN(2)], EvidenceSpan: "Kwa hiyo 😀",
							StartChar: opt(int32(rng.IntN(50))), EndChar: opt(int32(50 + rng.IntN(50))), BlockID: opt(int32(rng.IntN(3)))})
					}
				}
				if rng.IntN(3) == 0 {
					harms = append(harms, schema.HarmfulAction{TraceID: id, DagID: dag, Aligner: aligner, Category: []string{"harmful_loop", "degenerate"}[rng.IntN(2)],
						Label: "loop" + hostile, EvidenceSpan: "again", StartChar: opt(3), EndChar: opt(9)})
				}
			}
		}
	}
	if g.shuffle {
		for _, s := range []any{verdicts, dets, scores, events, harms} {
			v := reflect.ValueOf(s)
			rng.Shuffle(v.Len(), reflect.Swapper(s))
		}
	}
	write := func(name string, f func()) {
		if !g.absent[name] {
			f()
		}
	}
	write("traces", func() { writeTable(t, dir, "traces", traces, max(1, g.perGroup/5), 1) })
	write("verdicts", func() { writeTable(t, dir, "verdicts", verdicts, g.perGroup, g.parts) })
	write("answers", func() { writeTable(t, dir, "answers", answers, g.perGroup, 1) })
	write("detections", func() { writeTable(t, dir, "detections", dets, g.perGroup, g.parts) })
	write("compliance", func() {
		// The old form in one part, today's in another.
		writeParquet(t, filepath.Join(dir, "compliance", "a-old.parquet"), olds, g.perGroup)
		writeParquet(t, filepath.Join(dir, "compliance", "b-new.parquet"), comps, g.perGroup)
	})
	write("scores", func() { writeTable(t, dir, "scores", scores, g.perGroup, g.parts) })
	write("alignment_events", func() { writeTable(t, dir, "alignment_events", events, g.perGroup, g.parts) })
	write("harmful_actions", func() { writeTable(t, dir, "harmful_actions", harms, g.perGroup, g.parts) })
	return dir, ids
}

// readBoth reads one trace's rows by row group and through DuckDB's
// views (the batch path, traceread.go's queries), each the way the page
// asks: the trace's rows of the tables read by group.
func readBoth(ctx context.Context, r *runDB, id string) (got, want *traceRows, gotErr, wantErr error) {
	got, _ = readTraceRows(ctx, r, nil, nil)
	want, _ = readTraceRows(ctx, r, nil, nil)
	ks := keysOf([]string{id})
	gotErr = errors.Join(got.groupTexts(r.groups, []string{id}), got.groupVerdicts(r.groups, []string{id}), got.groupDetections(r.groups, []string{id}),
		got.groupScores(r.groups, []string{id}), got.groupEvents(r.groups, []string{id}))
	wantErr = errors.Join(want.readText(ctx, r, ks), want.readVerdicts(ctx, r, ks), want.readDetections(ctx, r, ks),
		want.readScores(ctx, r, ks), want.readEvents(ctx, r, ks))
	return got, want, gotErr, wantErr
}

// openGroupRun is DuckDB over the run and its files for group reads, as
// openRunDB makes them, without the row file (the reads compared do not
// use it).
func openGroupRun(t testing.TB, dir string) *runDB {
	t.Helper()
	db, err := duck.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	r := &runDB{db: db, groups: newGroupFiles(db.SnapshotDir())}
	t.Cleanup(func() {
		if err := r.groups.close(); err != nil {
			t.Error(err)
		}
		db.Close()
	})
	return r
}

// compareReads checks every trace of ids (and ids that are no trace's) is
// read alike by row group and through DuckDB; it returns how many had
// rows in every table read.
func compareReads(t *testing.T, name string, r *runDB, ids []string) (full int) {
	t.Helper()
	ctx := context.Background()
	for _, id := range append(slices.Clone(ids), "nope", "", "t0000-", "t9999") {
		got, want, gotErr, wantErr := readBoth(ctx, r, id)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%s: %q: by group: %v; through DuckDB: %v", name, id, gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the rows of %q by group:\n%+v\nthrough DuckDB:\n%+v", name, id, got, want)
		}
		if len(got.verdicts[id]) > 0 && len(got.detections[id]) > 0 && len(got.scores[id]) > 0 && len(got.events[id]) > 0 && len(got.harms[id]) > 0 {
			full++
		}
	}
	return full
}

// TestGroupReadsAreDuckDBs: a trace's rows read by row group
// (tracegroups.go) are DuckDB's views' (traceread.go's queries: their
// casts, compliance's old detectors read by schema's ReadExpr, answers
// and compliance under verdicts and detections, NULLs, the order) over
// runs laid out as other writers may: small row groups (a trace's rows
// across groups), tables in several files (a trace's rows in each), rows
// out of id order, ids that are prefixes of others, unicode and 100 KB
// texts over several pages, tables absent.
func TestGroupReadsAreDuckDBs(t *testing.T) {
	for _, g := range []groupRun{
		{n: 120, perGroup: 7, parts: 1, seed: 1},
		{n: 120, perGroup: 5, parts: 3, seed: 2},
		{n: 200, perGroup: 13, parts: 2, shuffle: true, seed: 3},
		{n: 60, perGroup: 1000, parts: 1, seed: 4},
		{n: 60, perGroup: 6, parts: 2, seed: 5, absent: map[string]bool{"verdicts": true, "detections": true, "harmful_actions": true}},
		{n: 60, perGroup: 6, parts: 2, seed: 6, absent: map[string]bool{"answers": true, "compliance": true, "scores": true, "alignment_events": true}},
	} {
		name := fmt.Sprintf("%+v", g)
		dir, ids := writeGroupRun(t, g)
		r := openGroupRun(t, dir)
		// A sample (each read through DuckDB is a few queries): the
		// traces whose id is a prefix of another's, and 12 more.
		rng := rand.New(rand.NewPCG(g.seed, 3))
		sample := slices.Clone(ids)
		rng.Shuffle(len(sample), func(a, b int) { sample[a], sample[b] = sample[b], sample[a] })
		sample = sample[:12]
		for _, id := range ids {
			if strings.HasSuffix(id, "-é") {
				sample = append(sample, id, strings.TrimSuffix(id, "-é"))
			}
		}
		full := compareReads(t, name, r, sample)
		if len(g.absent) == 0 && full < 5 {
			t.Fatalf("%s: only %d traces have rows in every table", name, full)
		}
	}
}

// TestGroupReadsFollowTheGeneration: after a commit rewrites a stage's
// tables (a trace's scores and events change, another trace's rows take
// their row groups), a viewer of the old generation still reads the old
// rows and one of the new generation the new rows, each DuckDB's of its
// generation: nothing of one generation's files is read for another's.
func TestGroupReadsFollowTheGeneration(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var traces []schema.Trace
	var ids []string
	for i := range 40 {
		id := fmt.Sprintf("t%03d", i)
		ids = append(ids, id)
		traces = append(traces, schema.Trace{TraceID: id, Level: "low", ProblemID: "low-0", Method: "base", Text: "text " + id, TextHash: "h"})
	}
	stage := func(version int, skip string) ([]schema.Score, []schema.AlignmentEvent) {
		var scores []schema.Score
		var events []schema.AlignmentEvent
		for _, id := range ids {
			if id == skip {
				continue
			}
			for ref := range 2 {
				scores = append(scores, schema.Score{TraceID: id, DagID: fmt.Sprintf("d%d", ref), Aligner: "symbolic", RefIndex: int32(ref),
					CAR: float64(version) / 10, HAR: 0.5, Best: ref == version%2})
				events = append(events, schema.AlignmentEvent{TraceID: id, DagID: fmt.Sprintf("d%d", ref), Aligner: "symbolic", NodeID: "n1",
					Status: "COMMIT", EvidenceSpan: fmt.Sprintf("v%d %s", version, id), StartChar: i32(version)})
			}
		}
		return scores, events
	}
	must(store.WriteAll(dir, schema.Traces, store.Meta{}, traces))
	scores, events := stage(1, "")
	must(store.WriteAll(dir, schema.Scores, store.Meta{}, scores))
	must(store.WriteAll(dir, schema.AlignmentEvents, store.Meta{}, events))
	ctx := context.Background()
	openViewer := func() *runDB { // as the server opens a generation
		r, err := openRunDB(ctx, dir, t.TempDir())
		must(err)
		t.Cleanup(func() { r.close() })
		return r
	}
	old := openViewer()
	before, _, err, _ := readBoth(ctx, old, "t005")
	must(err)

	scores, events = stage(2, "t003") // t003's rows gone: t004's move up
	must(store.WriteAll(dir, schema.Scores, store.Meta{}, scores))
	must(store.WriteAll(dir, schema.AlignmentEvents, store.Meta{}, events))
	cur := openViewer()
	if cur.db.Generation() == old.db.Generation() {
		t.Fatalf("no new generation: %d", cur.db.Generation())
	}
	compareReads(t, "the old generation", old, ids)
	compareReads(t, "the new generation", cur, ids)
	after, _, err, _ := readBoth(ctx, cur, "t005")
	must(err)
	again, _, err, _ := readBoth(ctx, old, "t005")
	must(err)
	if !reflect.DeepEqual(before, again) || reflect.DeepEqual(before, after) {
		t.Fatalf("the old generation read %+v, then %+v; the new one %+v", before.events, again.events, after.events)
	}
	if got := after.events["t005"][0].Span; got != "v2 t005" {
		t.Fatalf("the new generation's first event of t005 is %q", got)
	}
	if got, _, _, _ := readBoth(ctx, cur, "t003"); len(got.scores["t003"]) != 0 {
		t.Fatalf("t003's scores in the new generation: %+v", got.scores["t003"])
	}
}

// TestKeyBoundsTakeTruncatedStatistics: a row group is a candidate for a
// key its statistics hold, also when a writer truncated them (a prefix of
// the least or greatest key), or recorded none; never for a key outside
// them. A candidate is only read: its rows are those whose key is the key.
func TestKeyBoundsTakeTruncatedStatistics(t *testing.T) {
	for _, c := range []struct {
		min, max, key string
		none          bool
		holds         bool
	}{
		{"t0003", "t0009", "t0003", false, true},
		{"t0003", "t0009", "t0009", false, true},
		{"t0003", "t0009", "t0005", false, true},
		{"t0003", "t0009", "t0002", false, false},
		{"t0003", "t0009", "t0010", false, false},
		{"t0003", "t0009", "t0009-é", false, true}, // a candidate: "t0009" may be a truncated greatest key
		{"t00", "t0009", "t0001", false, true},     // the least truncated
		{"t0003", "t000", "t0009-é", false, true},  // the greatest truncated: a key it begins
		{"t0003", "t000", "t0010", false, false},
		{"", "", "anything", true, true}, // no statistics
	} {
		b := keyBounds{min: []byte(c.min), max: []byte(c.max), ok: !c.none}
		if got := b.holds([]byte(c.key)); got != c.holds {
			t.Errorf("[%q, %q] holds %q: %v, want %v", c.min, c.max, c.key, got, c.holds)
		}
	}
}

// TestGroupReadsOfADamagedFile: a file damaged after it was checked (its
// pages overwritten, its footer whole) is an error naming it for the
// traces whose rows it holds, never a panic, never rows of another trace.
func TestGroupReadsOfADamagedFile(t *testing.T) {
	dir, ids := writeGroupRun(t, groupRun{n: 60, perGroup: 9, parts: 1, seed: 8})
	r := openGroupRun(t, dir)
	ctx := context.Background()
	want := map[string]*traceRows{}
	for _, id := range ids {
		w, _, err, _ := readBoth(ctx, r, id)
		if err != nil {
			t.Fatal(err)
		}
		want[id] = w
	}
	damagePages(t, dir, "alignment_events.parquet", "traces.parquet")
	damaged := openGroupRun(t, dir) // the footers are whole: the files open
	failed := 0
	for _, id := range ids {
		got, _ := readTraceRows(ctx, damaged, nil, nil)
		err := errors.Join(got.groupTexts(damaged.groups, []string{id}), got.groupEvents(damaged.groups, []string{id}))
		if err != nil {
			failed++
			if !errors.Is(err, ErrUnreadableFile) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), id) {
				t.Fatalf("%q: %v", id, err)
			}
			continue
		}
		if got.text[id] != want[id].text[id] || !reflect.DeepEqual(got.events[id], want[id].events[id]) {
			t.Fatalf("%q read from the damaged files without an error: %q, %+v", id, got.text[id], got.events[id])
		}
	}
	if failed < len(ids)/2 {
		t.Fatalf("%d of %d traces' reads failed", failed, len(ids))
	}
}

// damagePages overwrites bytes of the pages of dir's files names (from
// the first page to the footer, which stays whole, so the files open), at
// random steps seeded by each file's size.
func damagePages(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, name := range names {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(len(data)), 1))
		footer := int(binary.LittleEndian.Uint32(data[len(data)-8:])) + 8
		for k := 4; k < len(data)-footer; k += 1 + rng.IntN(64) {
			data[k] ^= byte(1 + rng.IntN(255))
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A trace's rows are read from the row groups that hold them, not from
// every group whose statistics span its id: verdicts written grader by
// grader, the traces in no order (as a stage writes what it made), so each
// of the 30 groups spans nearly every id. By statistics alone a read
// scanned every group's key column (at 382,500 traces, 80% of a trace
// page's CPU); with the groups' key filters, the groups holding the
// trace's two verdicts and a false candidate now and then.
func TestGroupReadsSkipGroupsWithoutTheKey(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(8, 8))
	var ids []string
	for i := range 3_000 {
		ids = append(ids, fmt.Sprintf("t%016x", rng.Uint64()|uint64(i)))
	}
	var verdicts []schema.Verdict
	holding := map[string]map[int]bool{} // the groups holding each trace's rows
	const perGroup = 200
	for _, grader := range []string{"math-verify", "multilingual"} {
		for _, k := range rng.Perm(len(ids)) {
			id := ids[k]
			if holding[id] == nil {
				holding[id] = map[int]bool{}
			}
			holding[id][len(verdicts)/perGroup] = true
			verdicts = append(verdicts, schema.Verdict{TraceID: id, Grader: grader, Extracted: "2", HasAnswer: true, Correct: true,
				Reason: "exact", FoundIn: "boxed", TextHash: "h"})
		}
	}
	writeParquet(t, filepath.Join(dir, "verdicts.parquet"), verdicts, perGroup)
	r := openGroupRun(t, dir)
	extra := int64(0)
	for _, id := range ids[:300] {
		before := r.groups.groupsRead.Load()
		rows := newTraceRows()
		if err := rows.groupVerdicts(r.groups, []string{id}); err != nil {
			t.Fatal(err)
		}
		if len(rows.verdicts[id]) != 2 {
			t.Fatalf("%s: %d verdicts, want 2", id, len(rows.verdicts[id]))
		}
		read := r.groups.groupsRead.Load() - before
		if read < int64(len(holding[id])) {
			t.Fatalf("%s: %d groups read, %d hold its rows", id, read, len(holding[id]))
		}
		extra += read - int64(len(holding[id]))
	}
	// A false candidate is 1 group in 100: about 0.3 of 30 a read.
	if per := float64(extra) / 300; per > 1.5 {
		t.Errorf("%.1f groups read a trace that hold none of its rows (of %d groups)", per, len(verdicts)/perGroup)
	}
}
