-- stg_human_pairs: every audited (trace, DAG) instance of the human
-- evaluation with its language, the human alignment's CAR and PMF (mean
-- over the annotators who gave them), each aligner's automatic scores of
-- the same pair and whether CAR and PMF can be compared (has_car, has_pmf), once per language and once more under lang 'all' (so
-- per-language and pooled statistics come from one pass).
CREATE OR REPLACE VIEW stg_human_pairs AS
WITH human AS (
    SELECT trace_id, dag_id,
        avg(value) FILTER (WHERE layer = 'car') AS car_h,
        avg(value) FILTER (WHERE layer = 'pmf') AS pmf_h
    FROM annotations
    GROUP BY trace_id, dag_id
),
pairs AS (
    SELECT s.aligner, g.lang, g.lang_ord, h.trace_id, h.dag_id, s.car, h.car_h, s.pmf, h.pmf_h,
        h.car_h IS NOT NULL AS has_car, s.pmf IS NOT NULL AND h.pmf_h IS NOT NULL AS has_pmf
    FROM human h
    JOIN stg_graded_traces g USING (trace_id)
    JOIN scores s USING (trace_id, dag_id)
)
SELECT * FROM pairs
UNION ALL
SELECT aligner, 'all', 999, trace_id, dag_id, car, car_h, pmf, pmf_h, has_car, has_pmf FROM pairs;
