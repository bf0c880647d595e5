-- stg_datg_coverage: how much of each cell the DATG tables rest on. Per
-- aligner (every aligner with scores) and (model, level, direction, lang,
-- method, probe) cell of graded traces (probe: the direction probe's, which
-- the DATG tables read): n_graded, the cell's graded traces, and
-- n_scored, those with a best DAG scored for the aligner. A trace without a
-- score (its alignment failed, its problem has no valid DAG, it was not
-- selected for alignment) is left out of the DATG means, which are over
-- the scored traces; accuracies are over every graded trace. The tables
-- carry both counts and datg tables warns when a cell's coverage is below
-- 95%.
CREATE OR REPLACE VIEW stg_datg_coverage AS
SELECT al.aligner, g.model, g.level, g.direction, g.lang, g.method, g.probe,
    count(*)          AS n_graded,
    count(s.trace_id) AS n_scored
FROM stg_graded_traces g
CROSS JOIN (SELECT DISTINCT aligner FROM scores) al
LEFT JOIN scores s ON s.trace_id = g.trace_id AND s.aligner = al.aligner AND s.best
WHERE g.correct IS NOT NULL
GROUP BY ALL;
