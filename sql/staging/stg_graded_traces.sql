-- stg_graded_traces: every trace with its grader verdict and the ordering
-- keys of the paper's tables (level, language and direction order, resource
-- group). Traces datg verify has not graded yet have correct = NULL;
-- answer_reason is the grader's reason (gold-unparsed: the grader could not
-- read the gold answer, and the trace counts as wrong). probe: the trace is
-- one of the direction probe's (probe_trace: a base trace at the probe's
-- seed), the only traces the probe tables read.
CREATE OR REPLACE VIEW stg_graded_traces AS
SELECT
    t.trace_id,
    t.model,
    model_label(t.model)                                          AS model_label,
    t.level,
    lv.ord                                                        AS level_ord,
    t.direction,
    dr.ord                                                        AS direction_ord,
    t.input_lang,
    t.reasoning_lang,
    target_lang(t.direction, t.input_lang, t.reasoning_lang)     AS lang,
    lg.ord                                                        AS lang_ord,
    lg.resource                                                   AS resource,
    t.problem_id,
    t.seed,
    t.method,
    probe_trace(t.method, t.seed)                                 AS probe,
    t.completion_tokens,
    t.truncated,
    a.has_answer,
    a.correct,
    a.reason                                                      AS answer_reason
FROM traces t
LEFT JOIN answers a USING (trace_id)
LEFT JOIN datg_levels lv ON lv.level = t.level
LEFT JOIN datg_directions dr ON dr.direction = t.direction
LEFT JOIN datg_languages lg ON lg.code = target_lang(t.direction, t.input_lang, t.reasoning_lang);
