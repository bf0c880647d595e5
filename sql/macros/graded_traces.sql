-- graded_traces(verdicts): every trace with its verdict from the table
-- or view named verdicts (answers' columns) and the ordering keys of the
-- paper's tables: stg_graded_traces (verdicts 'answers') and
-- stg_datg_traces (the answers of its traces alone) say the same columns
-- the same way.
CREATE OR REPLACE MACRO graded_traces(verdicts) AS TABLE
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
LEFT JOIN query_table(verdicts) a USING (trace_id)
LEFT JOIN datg_levels lv ON lv.level = t.level
LEFT JOIN datg_directions dr ON dr.direction = t.direction
LEFT JOIN datg_languages lg ON lg.code = target_lang(t.direction, t.input_lang, t.reasoning_lang);
