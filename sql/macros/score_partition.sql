-- in_score_partition(trace_id): whether an aligner's alignment, event or
-- harmful action of this trace is in the part of the run datg score is
-- scoring now: trace ids from the variable datg_score_from (inclusive) to
-- datg_score_to (exclusive), either unset (NULL) for no bound. datg score
-- scores a large run in parts of consecutive traces, one query each, so
-- that its memory follows a part, not the run (issue 23); every score is
-- of one trace, so the parts give the rows, and the order, one query over
-- the run gives. datg tables counts the scores input's stale rows in such
-- parts too (pipelines/tables/check_parts.go). Unset, as in every other
-- stage, every trace is in.
CREATE OR REPLACE MACRO in_score_partition(trace_id) AS
    (getvariable('datg_score_from') IS NULL OR trace_id >= getvariable('datg_score_from')::VARCHAR)
    AND (getvariable('datg_score_to') IS NULL OR trace_id < getvariable('datg_score_to')::VARCHAR);
