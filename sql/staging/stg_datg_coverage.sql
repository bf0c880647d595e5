-- stg_datg_coverage: how much of each cell the DATG tables rest on. Per
-- aligner (every aligner with scores) and (model, level, direction, lang,
-- method, probe) cell of the graded traces the DATG tables read
-- (stg_datg_traces: the direction probe's en-en and en-x traces): n_graded,
-- the cell's graded traces, and n_scored, those with a best DAG scored for
-- the aligner. A trace without a score (its alignment failed, its problem
-- has no valid DAG, it was not selected for alignment) is left out of the
-- DATG means, which are over the scored traces; accuracies are over every
-- graded trace. The tables carry both counts and datg tables warns when a
-- cell's coverage is below 95%. The scores are narrowed to those traces'
-- ids before the join (a materialized semi join, as in
-- stg_datg_best_scores): joined whole, DuckDB held every best score of the
-- run in the join's hash table (issue 23).
CREATE OR REPLACE VIEW stg_datg_coverage AS
WITH narrowed AS MATERIALIZED (
    SELECT trace_id, aligner FROM scores
    WHERE best AND trace_id IN (SELECT trace_id FROM traces WHERE datg_trace(method, seed, direction))
)
SELECT al.aligner, g.model, g.level, g.direction, g.lang, g.method, g.probe,
    count(*)          AS n_graded,
    count(s.trace_id) AS n_scored
FROM stg_datg_traces g
CROSS JOIN (SELECT DISTINCT aligner FROM scores) al
LEFT JOIN narrowed s ON s.trace_id = g.trace_id AND s.aligner = al.aligner
WHERE g.correct IS NOT NULL
GROUP BY ALL;
