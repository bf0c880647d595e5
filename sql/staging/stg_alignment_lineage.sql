-- stg_alignment_lineage: every alignment with what it was made on, against
-- what the run holds now. current_text: made on the trace's current text
-- (text_hash). current_dag: made on the DAG's current content (dag_hash =
-- content_hash; both empty in runs from before DAGs were hashed). scorable:
-- it parsed (status ok), its DAG is valid, and both are current. An
-- alignment that is not current is stale: scores leave it out and count it,
-- and the tables refuse scores made from one. alignment_hash identifies the
-- alignment itself (MD5 of its raw reply): a score records the hashes it
-- was computed from, so one whose alignment was re-made since is stale too.
-- While datg score scores a part of the run (in_score_partition; every
-- trace in any other stage) the view holds that part's alignments, read
-- against that part's traces only: the join then holds a part of the
-- traces, not all of them (issue 23).
CREATE OR REPLACE VIEW stg_alignment_lineage AS
SELECT
    a.trace_id, a.dag_id, a.aligner, a.status, d.ref_index,
    a.text_hash, coalesce(a.dag_hash, '') AS dag_hash, md5(a.raw) AS alignment_hash,
    coalesce(d.valid, false) AS dag_valid,
    t.trace_id IS NOT NULL AND a.text_hash IS NOT DISTINCT FROM t.text_hash AS current_text,
    d.dag_id IS NOT NULL AND coalesce(a.dag_hash, '') = coalesce(d.content_hash, '') AS current_dag,
    a.status = 'ok' AND coalesce(d.valid, false)
        AND t.trace_id IS NOT NULL AND a.text_hash IS NOT DISTINCT FROM t.text_hash
        AND d.dag_id IS NOT NULL AND coalesce(a.dag_hash, '') = coalesce(d.content_hash, '') AS scorable
FROM (SELECT * FROM alignments WHERE in_score_partition(trace_id)) a
LEFT JOIN (SELECT trace_id, text_hash FROM traces WHERE in_score_partition(trace_id)) t USING (trace_id)
LEFT JOIN dags d USING (dag_id);
