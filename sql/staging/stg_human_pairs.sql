-- stg_human_pairs: every audited (trace, DAG) instance of the human
-- evaluation with its language, the human alignment's CAR, PMF and HAR
-- (car_h, pmf_h, har_h: mean over the annotators who give one), each
-- aligner's automatic scores of the same pair and whether they can be
-- compared (has_car, has_pmf, has_har), once per language and once more
-- under lang 'all' (so per-language and pooled statistics come from one
-- pass).
-- An annotator's CAR, PMF and HAR are scored from their node statuses by
-- the query that scores the aligners (stg_alignment_scores, human true)
-- when the statuses are complete (one for every node of the DAG); PMF also
-- needs every COMMIT status to carry a located evidence span (a commit
-- position). Otherwise the typed-in car and pmf layers are used (files of
-- the older format), and HAR is left out.
CREATE OR REPLACE VIEW stg_human_pairs AS
WITH instances AS (
    SELECT DISTINCT trace_id, dag_id, annotator FROM annotations
),
coverage AS (
    SELECT trace_id, dag_id, annotator,
        count(*) AS n_status,
        coalesce(bool_and(start_char IS NOT NULL) FILTER (WHERE label = 'COMMIT'), true) AS commits_located
    FROM annotations
    WHERE layer = 'status'
    GROUP BY trace_id, dag_id, annotator
),
scored AS (
    SELECT s.trace_id, s.dag_id, s.aligner AS annotator, s.car, s.pmf, s.har,
        c.n_status = s.n_nodes AS complete, c.commits_located
    FROM stg_alignment_scores s
    JOIN coverage c ON c.trace_id = s.trace_id AND c.dag_id = s.dag_id AND c.annotator = s.aligner
    WHERE s.human
),
typed AS (
    SELECT trace_id, dag_id, annotator,
        any_value(value) FILTER (WHERE layer = 'car') AS car,
        any_value(value) FILTER (WHERE layer = 'pmf') AS pmf
    FROM annotations
    WHERE layer IN ('car', 'pmf')
    GROUP BY trace_id, dag_id, annotator
),
per_annotator AS (
    SELECT i.trace_id, i.dag_id, i.annotator,
        CASE WHEN coalesce(sc.complete, false) THEN sc.car ELSE ty.car END AS car_h,
        CASE WHEN coalesce(sc.complete AND sc.commits_located, false) THEN sc.pmf ELSE ty.pmf END AS pmf_h,
        CASE WHEN coalesce(sc.complete, false) THEN sc.har END AS har_h
    FROM instances i
    LEFT JOIN scored sc USING (trace_id, dag_id, annotator)
    LEFT JOIN typed ty USING (trace_id, dag_id, annotator)
),
human AS (
    SELECT trace_id, dag_id, avg(car_h) AS car_h, avg(pmf_h) AS pmf_h, avg(har_h) AS har_h
    FROM per_annotator
    GROUP BY trace_id, dag_id
),
pairs AS (
    SELECT s.aligner, g.lang, g.lang_ord, h.trace_id, h.dag_id, s.car, h.car_h, s.pmf, h.pmf_h, s.har, h.har_h,
        h.car_h IS NOT NULL AS has_car, s.pmf IS NOT NULL AND h.pmf_h IS NOT NULL AS has_pmf, h.har_h IS NOT NULL AS has_har
    FROM human h
    JOIN stg_graded_traces g USING (trace_id)
    JOIN scores s USING (trace_id, dag_id)
)
SELECT * FROM pairs
UNION ALL
SELECT aligner, 'all', 999, trace_id, dag_id, car, car_h, pmf, pmf_h, har, har_h, has_car, has_pmf, has_har FROM pairs;
