-- stg_scoring_alignments: every alignment the scoring SQL scores
-- (the alignment scores view), aligners' and humans' in one shape. human false:
-- the scorable alignments of the aligners (stg_alignment_lineage: parsed,
-- valid DAG, made on the trace's current text and the DAG's current
-- content). human true: each annotator's human alignment of an audited
-- (trace, DAG), from the node statuses of the annotations table (aligner
-- is then the annotator; no ref_index or hashes). The aligners' are those of
-- the traces datg score is scoring now (in_score_partition: all, unless it
-- scores a part).
CREATE OR REPLACE VIEW stg_scoring_alignments AS
SELECT false AS human, trace_id, dag_id, aligner, ref_index, text_hash, dag_hash, alignment_hash
FROM stg_alignment_lineage
WHERE scorable AND in_score_partition(trace_id)
UNION ALL
SELECT DISTINCT true, trace_id, dag_id, annotator, NULL::INTEGER, NULL::VARCHAR, NULL::VARCHAR, NULL::VARCHAR
FROM annotations
WHERE layer = 'status';
