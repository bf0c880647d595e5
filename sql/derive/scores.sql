-- scores: CAR, PMF and HAR of every aligner's alignment (trace, DAG,
-- aligner), as CONTRACT.md defines them, and each trace's best DAG per
-- aligner. The scores themselves come from stg_alignment_scores (the query
-- that scores the human alignments of the audit too), over the scorable
-- alignments only (stg_alignment_lineage: they parsed, their DAG is valid,
-- and they were made on the trace's current text and the DAG's current
-- content).
--   best: highest CAR, then highest PMF, then lowest HAR, then lowest
--     ref_index.
SELECT trace_id, dag_id, aligner, ref_index, car, pmf, har,
    row_number() OVER (
        PARTITION BY trace_id, aligner
        ORDER BY car DESC, pmf DESC NULLS LAST, har ASC, ref_index ASC, dag_id ASC
    ) = 1 AS best,
    n_nodes, n_commit, n_edges, n_ordered, n_harmful, n_judgeable,
    text_hash, dag_hash, alignment_hash
FROM stg_alignment_scores
WHERE NOT human
ORDER BY trace_id, aligner, ref_index, dag_id;
