-- stg_scoring_events: the node events the scoring SQL reads, aligners'
-- (alignment_events, human false) and humans' (human true): an annotator's
-- COMMIT, ATTEMPT or ERROR status of a node is one event of that node, at
-- the evidence span the annotator quoted, located in the trace at import
-- (start_char, block_id; NULL when no span was given). A MISSING status is
-- no event, as an aligner's MISSING node has none. The aligners' are those of
-- the traces datg score is scoring now (in_score_partition).
CREATE OR REPLACE VIEW stg_scoring_events AS
SELECT false AS human, trace_id, dag_id, aligner, node_id, status, start_char, block_id
FROM alignment_events
WHERE in_score_partition(trace_id)
UNION ALL
SELECT true, trace_id, dag_id, annotator, item, label, start_char, block_id
FROM annotations
WHERE layer = 'status' AND label IN ('COMMIT', 'ATTEMPT', 'ERROR');
