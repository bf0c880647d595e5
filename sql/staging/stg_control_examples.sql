-- stg_control_examples: one row per example of the control study (Table
-- 3): every trace with trials of a method of the control study, Base
-- (control-base, from datg control --method base), Loop-Retry and
-- Formula-Retry. Only they: the direction probe's traces of the same
-- examples (method base) are another design (the probe's penalty, one
-- seed) and never enter Table 3. tokens is everything the example decoded:
-- every attempt (aborted continuations and the scaffold included). trials
-- counts reasoning attempts (the scaffold is not one); retried says there
-- was more than one; forced says the last was accepted though it
-- triggered.
CREATE OR REPLACE VIEW stg_control_examples AS
WITH attempts AS (
    SELECT trace_id,
        sum(completion_tokens)::BIGINT                 AS tokens,
        count(*) FILTER (WHERE phase = 'reasoning')    AS trials,
        bool_or(forced_accept)                         AS forced
    FROM trials
    GROUP BY trace_id
)
SELECT g.method, g.model, g.model_label, g.level, g.level_ord, g.direction, g.lang, g.lang_ord, g.problem_id, g.seed,
    g.correct, a.tokens, a.trials, a.trials > 1 AS retried, a.forced
FROM stg_graded_traces g
JOIN attempts a USING (trace_id)
WHERE g.method IN ('control-base', 'loop-retry', 'formula-retry');
