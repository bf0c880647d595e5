-- stg_scoring_harmful: the harmful actions the scoring SQL reads, with
-- whether each is matched to a node event (one to one, matched at read or
-- import time by the same Go code). human false: the aligners' actions
-- (harmful_actions, already within the paper's caps). human true: the
-- automatic candidates an annotator confirmed as harmful, matched to the
-- annotator's own events (annotations.matched_node). The aligners' are those
-- of the traces datg score is scoring now (in_score_partition).
CREATE OR REPLACE VIEW stg_scoring_harmful AS
SELECT false AS human, trace_id, dag_id, aligner, matched_seq IS NOT NULL AS matched
FROM harmful_actions
WHERE in_score_partition(trace_id)
UNION ALL
SELECT true, trace_id, dag_id, annotator, coalesce(matched_node, '') <> ''
FROM annotations
WHERE layer = 'harmful' AND label = 'harmful';
