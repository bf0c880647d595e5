package view

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/study"
)

// runDB is DuckDB over one generation of the run, with the viewer's index
// (the row file: a row per trace, its facets, sort keys and scores, no
// text) mapped from datg's cache or built when the generation opens.
// Pages query the row file and read texts, DAGs and alignments from the
// run's Parquet one trace at a time.
type runDB struct {
	db       *duck.DB
	gen      int
	aligners []string // by name
	rows     *rowFile // the index (rowfile.go, memindex.go)
	// probeSeed is the direction probe's seed (datg view --probe-seed),
	// set in db (datg_probe_seed) when it opened.
	probeSeed int64
	// groups are the generation's Parquet files a trace page reads its
	// trace's rows from by row group (groupread.go), not through DuckDB.
	groups *groupFiles
	// annotated are the traces with human annotations, by layer ("any":
	// every annotated trace), as sets of rows.
	annotated map[string]bitmap

	// textIndex is the generation's search index once it is open
	// (searchcache.go); until then, and for a query it does not take, a
	// search scans the texts. indexing says why it is not there yet.
	textIndex atomic.Pointer[searchIndex]
	indexing  atomic.Value // string: "building", "off: <why>", "" when ready
	stopIndex context.CancelFunc
	indexDone chan struct{}
	// stopWarm and warmDone are warmFilters' (filterwarm.go).
	stopWarm context.CancelFunc
	warmDone chan struct{}

	mu       sync.Mutex
	searches []search    // the newest last
	tables   *tablesTask // the paper tables, computed in the background (tablestask.go)
	places   placeCache  // filters' rows in their order, for trace pages' places (placecache.go)
	refs     int         // requests using it
	retired  bool        // a newer generation replaced it: close when refs is 0
}

// search is the rows whose text holds a string, kept so paging and
// refacetting a search does not read the texts again: a bitmap over the
// row file, n/8 bytes whatever it holds.
type search struct {
	q    string
	rows bitmap
}

// maxSearches bounds the searches kept per generation.
const maxSearches = 16

// indexViews are the viewer's index over the run's views, as the common
// table expressions of the one query the row file is built from
// (indexQuery). Verdicts and detections come from the per-grader and
// per-detector tables (verify and langcheck run every grader and
// detector), else from answers and compliance for the grader or detector
// they name; one that was made on another text than the trace's current
// one is "stale". Nothing is a table: the query is made for one part of
// the traces at a time (a range of ids), each of its scans restricted to
// that part where a comment /*ALIAS*/ marks it (indexPart), so what DuckDB
// holds is a part's rows, whatever the run's size (the tables it made
// before held the whole run: 514-534 MB of peak RSS at 382,500 traces).
const indexViews = `WITH v AS (
		SELECT trace_id, grader, has_answer, correct, reason, text_hash FROM verdicts x WHERE true/*x*/
		UNION ALL
		SELECT trace_id, split_part(grader, ' ', 1), has_answer, correct, reason, text_hash FROM answers a
		WHERE NOT EXISTS (SELECT 1 FROM verdicts w WHERE w.trace_id = a.trace_id AND w.grader = split_part(a.grader, ' ', 1))/*a*/),
	view_verdicts AS (
		SELECT v.trace_id, v.grader,
			any_value(CASE WHEN v.text_hash IS DISTINCT FROM t.text_hash THEN 'stale'
				WHEN v.reason = 'gold-unparsed' THEN 'gold-unparsed'
				WHEN NOT v.has_answer THEN 'no-answer'
				WHEN v.correct THEN 'correct' ELSE 'incorrect' END) AS verdict
		FROM v JOIN traces t USING (trace_id) WHERE true/*t*/
		GROUP BY ALL),
	d AS (
		SELECT trace_id, detector, compliant, text_hash FROM detections x WHERE true/*x*/
		UNION ALL
		SELECT trace_id, detector, compliant, text_hash FROM compliance c
		WHERE NOT EXISTS (SELECT 1 FROM detections w WHERE w.trace_id = c.trace_id AND w.detector = c.detector)/*c*/),
	view_detections AS (
		SELECT d.trace_id, d.detector,
			any_value(CASE WHEN d.text_hash IS DISTINCT FROM t.text_hash THEN 'stale'
				WHEN d.compliant THEN 'compliant' ELSE 'not compliant' END) AS compliance
		FROM d JOIN traces t USING (trace_id) WHERE true/*t*/
		GROUP BY ALL),
	view_best AS (
		SELECT trace_id, aligner, any_value(car) AS car, any_value(pmf) AS pmf, any_value(har) AS har
		FROM scores x WHERE best/*x*/ GROUP BY trace_id, aligner),
	view_alsets AS (
		SELECT trace_id, list(aligner ORDER BY aligner) AS aligners FROM view_best GROUP BY trace_id),
	view_traces AS (
		SELECT t.trace_id, t.model, t.level, coalesce(lv.ord, 99) AS level_ord,
			t.direction, coalesce(dr.ord, 99) AS direction_ord, t.input_lang, t.reasoning_lang,
			target_lang(t.direction, t.input_lang, t.reasoning_lang) AS lang, coalesce(lg.ord, 999) AS lang_ord,
			CASE WHEN t.direction = 'en-en' THEN 'en' ELSE coalesce(lg.resource, '') END AS resource_group,
			t.problem_id, coalesce(try_cast(regexp_extract(t.problem_id, '([0-9]+)$', 1) AS BIGINT), -1) AS problem_k,
			t.seed, CAST(t.seed AS VARCHAR) AS seed_s, t.method,
			CASE WHEN probe_trace(t.method, t.seed) THEN 'probe'
				WHEN t.method IN ('control-base', 'loop-retry', 'formula-retry') THEN 'control'
				WHEN t.method = 'reference' THEN 'reference' ELSE 'other' END AS scope,
			t.completion_tokens AS tokens, t.truncated,
			coalesce(mv.verdict, 'ungraded') AS verdict_mv, coalesce(ml.verdict, 'ungraded') AS verdict_ml,
			coalesce(ld.compliance, 'unchecked') AS comp_ld, coalesce(lgc.compliance, 'unchecked') AS comp_lg,
			coalesce(als.aligners, []) AS aligners
		FROM traces t
		LEFT JOIN datg_levels lv ON lv.level = t.level
		LEFT JOIN datg_directions dr ON dr.direction = t.direction
		LEFT JOIN datg_languages lg ON lg.code = target_lang(t.direction, t.input_lang, t.reasoning_lang)
		LEFT JOIN view_verdicts mv ON mv.trace_id = t.trace_id AND mv.grader = 'math-verify'
		LEFT JOIN view_verdicts ml ON ml.trace_id = t.trace_id AND ml.grader = 'multilingual'
		LEFT JOIN view_detections ld ON ld.trace_id = t.trace_id AND ld.detector = 'langdetect'
		LEFT JOIN view_detections lgc ON lgc.trace_id = t.trace_id AND lgc.detector = 'lingua'
		LEFT JOIN view_alsets als ON als.trace_id = t.trace_id
		WHERE true/*t*/)
`

// viewMemory caps DuckDB's memory in the viewer (duck.StageLimits): the
// row file's build joins the whole run's verdicts, detections and scores
// (it held 650-900 MB at 382,500 traces uncapped); capped, its joins and
// its sort spill to DuckDB's private temporary directory. Pages read one
// trace's rows, far under it.
var viewMemory int64 = 256 << 20

// openRunDB opens the run's current generation and its index, kept in
// cache (see loadRowFile; "": built in a temporary file), with DuckDB's
// memory capped at viewMemory; a build that still needs more (a part's
// materialized result and DuckDB's own structures do not spill) is made
// again uncapped. Its direction probe is at the study's seed.
func openRunDB(ctx context.Context, dir, cache string) (*runDB, error) {
	return openRunDBAt(ctx, dir, cache, study.ProbeSeed)
}

// openRunDBAt is openRunDB with the direction probe at probeSeed.
func openRunDBAt(ctx context.Context, dir, cache string, probeSeed int64) (*runDB, error) {
	r, err := openRunDBWith(ctx, dir, cache, probeSeed, viewLimits())
	if duck.IsOutOfMemory(err) {
		return openRunDBWith(ctx, dir, cache, probeSeed, duck.DefaultLimits())
	}
	return r, err
}

// viewLimits are the viewer's DuckDB limits: its memory capped at
// viewMemory.
func viewLimits() duck.Limits { return duck.StageLimits(viewMemory) }

// openRunDBWith opens the generation with the direction probe at
// probeSeed, set before anything reads the traces: the index's scope
// "probe" (probe_trace), and so the row file and its key, and the paper
// tables and theirs, are that seed's.
func openRunDBWith(ctx context.Context, dir, cache string, probeSeed int64, limits duck.Limits) (*runDB, error) {
	db, err := duck.OpenWith(ctx, dir, limits)
	if err != nil {
		if tmpErr := tempWritable(); tmpErr != nil {
			return nil, fmt.Errorf("%w: DuckDB's temporary files go in the temporary directory %q: %v: set TMPDIR to a writable directory", ErrNoWritableDir, os.TempDir(), tmpErr)
		}
		return nil, err
	}
	if err := db.SetProbeSeed(ctx, probeSeed); err != nil {
		db.Close()
		return nil, err
	}
	r := &runDB{db: db, gen: db.Generation(), probeSeed: probeSeed, groups: newGroupFiles(db.SnapshotDir())}
	if r.rows, err = loadRowFile(ctx, db, dir, cache); err != nil {
		db.Close()
		return nil, fmt.Errorf("building the viewer's index of %s: %w", dir, err)
	}
	r.aligners = r.rows.Aligners
	if err := loadAnnotated(ctx, r); err != nil {
		r.rows.close()
		db.Close()
		return nil, err
	}
	return r, nil
}

// startSearchIndex opens, or builds, the generation's search index under
// cache in the background; searches scan the texts until it is ready.
// Without a cache directory, or with one inside the run, or for a run
// without manifests, there is no index.
func (r *runDB) startSearchIndex(runDir, cache string, logf func(format string, args ...any)) {
	r.indexDone = make(chan struct{})
	off := func(why string) {
		r.indexing.Store("off: " + why)
		close(r.indexDone)
	}
	switch {
	case cache == "":
		off("no cache directory")
		return
	case cacheInRun(cache, runDir):
		off("the cache directory " + cache + " is inside the run")
		return
	}
	if r.rows.N == 0 {
		// Nothing to index: not an error to log (the traces table of a run
		// with problems only is not written yet).
		off("the run has no traces")
		return
	}
	key, err := searchKey(r.db.SnapshotDir())
	if err != nil || key == "" {
		off(fmt.Sprintf("the generation has no manifest (%v)", err))
		return
	}
	r.indexing.Store("building")
	ctx, cancel := context.WithCancel(context.Background())
	r.stopIndex = cancel
	go func() {
		defer close(r.indexDone)
		beforeSearchIndex(ctx)
		start := time.Now()
		x, err := loadSearchIndex(ctx, r.db.SnapshotDir(), key, cache, r.rows)
		if err != nil {
			if ctx.Err() == nil {
				logf("datg view: the search index of generation %d: %v (searches read every text)", r.gen, err)
				r.indexing.Store("off: " + err.Error())
			}
			return
		}
		r.textIndex.Store(x)
		r.indexing.Store("")
		logf("datg view: the search index of generation %d is ready (%v)", r.gen, time.Since(start).Round(time.Millisecond))
	}()
}

// beforeSearchIndex runs before a generation's search index is opened or
// built. Tests make it wait.
var beforeSearchIndex = func(ctx context.Context) {}

// close stops the index's build, closes it and the database.
func (r *runDB) close() error {
	if r.stopIndex != nil {
		r.stopIndex()
	}
	if r.indexDone != nil {
		<-r.indexDone
	}
	if r.stopWarm != nil {
		r.stopWarm()
		<-r.warmDone
	}
	var err error
	if x := r.textIndex.Swap(nil); x != nil {
		err = x.close()
	}
	return errors.Join(err, r.groups.close(), r.rows.close(), r.db.Close())
}

// searchRows are the rows whose text holds q (case insensitive, by
// Unicode simple case folding), found by the search index when it is
// ready, else by a scan of every text; kept for the next pages.
func (r *runDB) searchRows(ctx context.Context, q string) (bitmap, error) {
	r.mu.Lock()
	for _, s := range r.searches {
		if s.q == q {
			r.mu.Unlock()
			return s.rows, nil
		}
	}
	r.mu.Unlock()
	var rows bitmap
	var err error
	if x := r.textIndex.Load(); x != nil && indexable(q) {
		rows, err = x.searchRows(q, r.rows.N)
	} else {
		rows, err = r.scanSearch(ctx, q)
	}
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.searches = append(r.searches, search{q, rows})
	if len(r.searches) > maxSearches {
		r.searches = r.searches[1:]
	}
	return rows, nil
}

// loadAnnotated reads which traces have human annotations in which layer.
func loadAnnotated(ctx context.Context, r *runDB) error {
	r.annotated = map[string]bitmap{}
	if !r.db.Present["annotations"] {
		return nil
	}
	rows, err := r.db.QueryContext(ctx, `SELECT DISTINCT trace_id, layer FROM annotations`)
	if err != nil {
		return fmt.Errorf("reading the annotations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, layer string
		if err := rows.Scan(&id, &layer); err != nil {
			return fmt.Errorf("reading the annotations: %w", err)
		}
		j, ok := r.rows.find(id)
		if !ok {
			continue // an annotation of a trace no longer in the run
		}
		for _, k := range []string{layer, "any"} {
			if r.annotated[k] == nil {
				r.annotated[k] = newBitmap(r.rows.N)
			}
			r.annotated[k].set(j)
		}
	}
	return rows.Err()
}
