package view

// The row file's build as it was at 94f026c (rundb.go's indexSQL and
// rowbuild.go's buildIndexTables, unchanged but for names): DuckDB tables
// of the whole run's verdicts, detections, best scores and traces, each
// aligner's scores added to view_traces by an UPDATE. Kept as the
// reference TestRowFileBuildIsWhatItWas compares the streamed build with.

import (
	"context"
	"fmt"
	"os"

	"github.com/datg/datg/internal/duck"
)

// legacyIndexSQL built the viewer's index tables over the run's views.
var legacyIndexSQL = []string{
	`CREATE TABLE view_verdicts AS
	WITH v AS (
		SELECT trace_id, grader, has_answer, correct, reason, text_hash FROM verdicts
		UNION ALL
		SELECT trace_id, split_part(grader, ' ', 1), has_answer, correct, reason, text_hash FROM answers a
		WHERE NOT EXISTS (SELECT 1 FROM verdicts w WHERE w.trace_id = a.trace_id AND w.grader = split_part(a.grader, ' ', 1)))
	SELECT v.trace_id, v.grader,
		any_value(CASE WHEN v.text_hash IS DISTINCT FROM t.text_hash THEN 'stale'
			WHEN v.reason = 'gold-unparsed' THEN 'gold-unparsed'
			WHEN NOT v.has_answer THEN 'no-answer'
			WHEN v.correct THEN 'correct' ELSE 'incorrect' END) AS verdict
	FROM v JOIN traces t USING (trace_id)
	GROUP BY ALL`,
	`CREATE TABLE view_detections AS
	WITH d AS (
		SELECT trace_id, detector, compliant, text_hash FROM detections
		UNION ALL
		SELECT trace_id, detector, compliant, text_hash FROM compliance c
		WHERE NOT EXISTS (SELECT 1 FROM detections w WHERE w.trace_id = c.trace_id AND w.detector = c.detector))
	SELECT d.trace_id, d.detector,
		any_value(CASE WHEN d.text_hash IS DISTINCT FROM t.text_hash THEN 'stale'
			WHEN d.compliant THEN 'compliant' ELSE 'not compliant' END) AS compliance
	FROM d JOIN traces t USING (trace_id)
	GROUP BY ALL`,
	`CREATE TABLE view_best AS
	SELECT trace_id, aligner, any_value(dag_id) AS dag_id, any_value(ref_index) AS ref_index,
		any_value(car) AS car, any_value(pmf) AS pmf, any_value(har) AS har
	FROM scores WHERE best GROUP BY trace_id, aligner`,
	`CREATE TABLE view_traces AS
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
		coalesce((SELECT list(b.aligner ORDER BY b.aligner) FROM view_best b WHERE b.trace_id = t.trace_id), []) AS aligners
	FROM traces t
	LEFT JOIN datg_levels lv ON lv.level = t.level
	LEFT JOIN datg_directions dr ON dr.direction = t.direction
	LEFT JOIN datg_languages lg ON lg.code = target_lang(t.direction, t.input_lang, t.reasoning_lang)
	LEFT JOIN view_verdicts mv ON mv.trace_id = t.trace_id AND mv.grader = 'math-verify'
	LEFT JOIN view_verdicts ml ON ml.trace_id = t.trace_id AND ml.grader = 'multilingual'
	LEFT JOIN view_detections ld ON ld.trace_id = t.trace_id AND ld.detector = 'langdetect'
	LEFT JOIN view_detections lgc ON lgc.trace_id = t.trace_id AND lgc.detector = 'lingua'`,
}

// legacyBuildRows is buildRows as it was: the tables made, then read by
// the same writer (writeRowFile) in trace-id order.
func legacyBuildRows(ctx context.Context, db *duck.DB, f *os.File, key string) error {
	defer func() {
		for _, t := range []string{"view_traces", "view_best", "view_verdicts", "view_detections"} {
			db.ExecContext(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+t)
		}
	}()
	aligners, err := legacyBuildIndexTables(ctx, db)
	if err != nil {
		return err
	}
	q := "SELECT " + indexColumns("", aligners, func(k int, metric string) string { return fmt.Sprintf("%s_%d", metric, k) }) + " FROM view_traces ORDER BY trace_id"
	return writeRowFile(ctx, db, f, key, aligners, `SELECT count(*), coalesce(sum(strlen(trace_id)), 0) FROM view_traces`, []queryPart{{query: q}})
}

// legacyBuildIndexTables makes legacyIndexSQL's tables in DuckDB, each
// aligner's scores as columns of view_traces (car_K, pmf_K, har_K for the
// K-th aligner by name), and says the aligners.
func legacyBuildIndexTables(ctx context.Context, db *duck.DB) ([]string, error) {
	for _, s := range legacyIndexSQL {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return nil, fmt.Errorf("building the viewer's index: %w", err)
		}
	}
	// view_traces holds the verdicts and detections now: their tables'
	// memory is DuckDB's again for what follows (the build runs under
	// viewMemory).
	for _, t := range []string{"view_verdicts", "view_detections"} {
		if _, err := db.ExecContext(ctx, "DROP TABLE "+t); err != nil {
			return nil, fmt.Errorf("building the viewer's index: %w", err)
		}
	}
	rows, err := db.QueryContext(ctx, `SELECT DISTINCT aligner FROM view_best ORDER BY aligner`)
	if err != nil {
		return nil, err
	}
	var aligners []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			rows.Close()
			return nil, err
		}
		aligners = append(aligners, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for k, a := range aligners {
		stmts := []string{
			fmt.Sprintf(`ALTER TABLE view_traces ADD COLUMN car_%d DOUBLE`, k),
			fmt.Sprintf(`ALTER TABLE view_traces ADD COLUMN pmf_%d DOUBLE`, k),
			fmt.Sprintf(`ALTER TABLE view_traces ADD COLUMN har_%d DOUBLE`, k),
			fmt.Sprintf(`UPDATE view_traces SET car_%[1]d = b.car, pmf_%[1]d = b.pmf, har_%[1]d = b.har
				FROM view_best b WHERE b.trace_id = view_traces.trace_id AND b.aligner = ?`, k),
		}
		for i, s := range stmts {
			var args []any
			if i == len(stmts)-1 {
				args = []any{a}
			}
			if _, err := db.ExecContext(ctx, s, args...); err != nil {
				return nil, fmt.Errorf("building the viewer's index: %w", err)
			}
		}
	}
	if _, err := db.ExecContext(ctx, "DROP TABLE view_best"); err != nil {
		return nil, fmt.Errorf("building the viewer's index: %w", err)
	}
	return aligners, nil
}
