-- direction_accuracy: final-answer accuracy for every (model, level,
-- direction, language) cell of the paper's full direction-probing table
-- (appendix, "Full Direction-Probing Accuracy"). Base traces only; seeds are
-- pooled, so n = problems x seeds. accuracy, wilson_low and wilson_high are
-- percentages; the interval is the 95% Wilson score interval.
SELECT
    model,
    model_label,
    level,
    direction,
    lang,
    count(*)                                              AS n,
    count(*) FILTER (WHERE correct)                       AS correct,
    round(100.0 * count(*) FILTER (WHERE correct) / count(*), 2)              AS accuracy,
    round(100.0 * wilson_low(count(*) FILTER (WHERE correct), count(*)), 2)   AS wilson_low,
    round(100.0 * wilson_high(count(*) FILTER (WHERE correct), count(*)), 2)  AS wilson_high
FROM stg_graded_traces
WHERE method = 'base'
GROUP BY model, model_label, level, level_ord, direction, direction_ord, lang, lang_ord
ORDER BY model, level_ord, direction_ord, lang_ord;
