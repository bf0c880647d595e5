-- stg_datg_best_scores: stg_best_scores for the traces the DATG tables
-- read (stg_datg_traces): each such trace's best DAG per aligner, with the
-- trace's columns. The scores are narrowed to those traces' ids before the
-- join (a materialized semi join, as stg_datg_answers): joined whole,
-- DuckDB held every best score of the run in the join's hash table
-- (135,000 at ten times the paper's design, for the probe's 13,500: issue
-- 23).
CREATE OR REPLACE VIEW stg_datg_best_scores AS
WITH narrowed AS MATERIALIZED (
    SELECT aligner, dag_id, ref_index, car, pmf, har, trace_id
    FROM scores
    WHERE best AND trace_id IN (SELECT trace_id FROM traces WHERE datg_trace(method, seed, direction))
)
SELECT
    s.aligner, s.dag_id, s.ref_index, s.car, s.pmf, s.har,
    t.*
FROM narrowed s
JOIN stg_datg_traces t USING (trace_id);
