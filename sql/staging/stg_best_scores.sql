-- stg_best_scores: each scored trace's best DAG per aligner, with the
-- trace's model, level, direction, language, resource group and verdict
-- (from stg_graded_traces).
CREATE OR REPLACE VIEW stg_best_scores AS
SELECT
    s.aligner, s.dag_id, s.ref_index, s.car, s.pmf, s.har,
    t.*
FROM scores s
JOIN stg_graded_traces t USING (trace_id)
WHERE s.best;
