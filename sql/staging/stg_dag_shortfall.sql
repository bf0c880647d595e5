-- stg_dag_shortfall: problems of the diagnosis (those with traces of the
-- direction probe) that have fewer valid reference DAGs than the paper's
-- five (references fell short, or DAGs failed validation): their traces
-- are scored against fewer references, which lowers their best-DAG scores.
-- The DATG tables list them in their captions, with counts.
CREATE OR REPLACE VIEW stg_dag_shortfall AS
SELECT p.problem_id, coalesce(d.n_valid, 0) AS n_valid
FROM (SELECT DISTINCT problem_id FROM traces WHERE probe_trace(method, seed)) p
LEFT JOIN (SELECT problem_id, count(*) FILTER (WHERE valid) AS n_valid FROM dags GROUP BY problem_id) d USING (problem_id)
WHERE coalesce(d.n_valid, 0) < 5
ORDER BY p.problem_id;
