-- The scoring SQL before issue 23's rewrite (commit 65bcc35: sql/staging/stg_alignment_scores.sql
-- then sql/derive/scores.sql), kept as the reference the rewrite is checked against
-- (TestScoresMatchTheQueryBefore). The view is renamed old_alignment_scores.
-- old_alignment_scores: CAR, PMF and HAR of every alignment in
-- stg_scoring_alignments, as CONTRACT.md defines them, by one query for the
-- aligners' alignments (human false: sql/derive/scores.sql, the scores
-- table) and the annotators' human alignments (human true: the human
-- evaluation, the human pairs view). Keyed by (human, trace_id, dag_id, aligner).
--   node status: COMMIT if any event is COMMIT, else ERROR if any is ERROR,
--     else ATTEMPT if any is ATTEMPT, else MISSING; a node's commit position
--     is the located start_char of its earliest COMMIT event.
--   CAR = committed nodes / all nodes of the DAG.
--   PMF = ordered edges / all edges (NULL for a DAG without edges); an edge
--     is ordered when both ends are COMMIT with located positions and the
--     parent's is no later than the child's, or both lie in the same block.
--   HAR = harmful / max(1, judgeable); harmful = the harmful actions kept
--     (the first 2 contradictory, 2 harmful-loop and 1 degenerate steps:
--     the paper's caps, applied when the alignment was read); judgeable =
--     node events + harmful actions matched to no event. Actions and events
--     are matched one to one when the alignment is read (same quote, or
--     overlapping located ranges; stg_scoring_harmful.matched), so HAR is
--     at most 1.
CREATE OR REPLACE VIEW old_alignment_scores AS
WITH aligned AS (
    SELECT human, trace_id, dag_id, aligner, ref_index, text_hash, dag_hash, alignment_hash
    FROM stg_scoring_alignments
),
node_status AS (
    SELECT al.human, al.trace_id, al.dag_id, al.aligner, n.node_id,
        CASE
            WHEN bool_or(e.status = 'COMMIT') THEN 'COMMIT'
            WHEN bool_or(e.status = 'ERROR') THEN 'ERROR'
            WHEN bool_or(e.status = 'ATTEMPT') THEN 'ATTEMPT'
            ELSE 'MISSING'
        END AS status,
        min(e.start_char) FILTER (WHERE e.status = 'COMMIT') AS commit_pos,
        arg_min(e.block_id, e.start_char) FILTER (WHERE e.status = 'COMMIT' AND e.start_char IS NOT NULL) AS commit_block
    FROM aligned al
    JOIN nodes n USING (dag_id)
    LEFT JOIN stg_scoring_events e
        ON e.human = al.human AND e.trace_id = al.trace_id AND e.dag_id = al.dag_id AND e.aligner = al.aligner AND e.node_id = n.node_id
    GROUP BY al.human, al.trace_id, al.dag_id, al.aligner, n.node_id
),
node_counts AS (
    SELECT human, trace_id, dag_id, aligner,
        count(*) AS n_nodes,
        count(*) FILTER (WHERE status = 'COMMIT') AS n_commit
    FROM node_status
    GROUP BY human, trace_id, dag_id, aligner
),
edge_counts AS (
    SELECT al.human, al.trace_id, al.dag_id, al.aligner,
        count(ed.child_id) AS n_edges,
        count(ed.child_id) FILTER (
            WHERE p.status = 'COMMIT' AND c.status = 'COMMIT'
              AND p.commit_pos IS NOT NULL AND c.commit_pos IS NOT NULL
              AND (p.commit_pos <= c.commit_pos OR p.commit_block = c.commit_block)
        ) AS n_ordered
    FROM aligned al
    LEFT JOIN edges ed USING (dag_id)
    LEFT JOIN node_status p
        ON p.human = al.human AND p.trace_id = al.trace_id AND p.dag_id = al.dag_id AND p.aligner = al.aligner AND p.node_id = ed.parent_id
    LEFT JOIN node_status c
        ON c.human = al.human AND c.trace_id = al.trace_id AND c.dag_id = al.dag_id AND c.aligner = al.aligner AND c.node_id = ed.child_id
    GROUP BY al.human, al.trace_id, al.dag_id, al.aligner
),
event_counts AS (
    SELECT human, trace_id, dag_id, aligner, count(*) AS n_events
    FROM stg_scoring_events
    GROUP BY human, trace_id, dag_id, aligner
),
harm_counts AS (
    SELECT human, trace_id, dag_id, aligner,
        count(*) AS n_harmful,
        count(*) FILTER (WHERE NOT matched) AS n_unmatched
    FROM stg_scoring_harmful
    GROUP BY human, trace_id, dag_id, aligner
)
SELECT al.human, al.trace_id, al.dag_id, al.aligner, al.ref_index, al.text_hash, al.dag_hash, al.alignment_hash,
    nc.n_commit::DOUBLE / nc.n_nodes AS car,
    CASE WHEN ec.n_edges > 0 THEN ec.n_ordered::DOUBLE / ec.n_edges END AS pmf,
    coalesce(hc.n_harmful, 0)::DOUBLE
        / greatest(1, coalesce(evc.n_events, 0) + coalesce(hc.n_unmatched, 0)) AS har,
    nc.n_nodes, nc.n_commit, ec.n_edges, ec.n_ordered,
    coalesce(hc.n_harmful, 0) AS n_harmful,
    coalesce(evc.n_events, 0) + coalesce(hc.n_unmatched, 0) AS n_judgeable
FROM aligned al
JOIN node_counts nc USING (human, trace_id, dag_id, aligner)
JOIN edge_counts ec USING (human, trace_id, dag_id, aligner)
LEFT JOIN event_counts evc USING (human, trace_id, dag_id, aligner)
LEFT JOIN harm_counts hc USING (human, trace_id, dag_id, aligner);

-- scores: CAR, PMF and HAR of every aligner's alignment (trace, DAG,
-- aligner), as CONTRACT.md defines them, and each trace's best DAG per
-- aligner. The scores themselves come from old_alignment_scores (the query
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
FROM old_alignment_scores
WHERE NOT human
ORDER BY trace_id, aligner, ref_index, dag_id;
