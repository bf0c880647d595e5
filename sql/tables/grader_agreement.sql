-- grader_agreement: how far Math-Verify's rules, which the paper graded
-- with, move accuracy against datg's multilingual grader (no table of the
-- paper). Per model, level and reasoning language (the language the answer
-- is written in, where decimal commas, native digits and answer markers
-- differ), over the direction probe's traces of every direction: each grader's accuracy (%)
-- with its 95% Wilson interval, the verdicts that differ each way
-- (only_math_verify: correct under Math-Verify only; only_multilingual: the
-- reverse), and gold_unparsed: traces whose gold Math-Verify cannot read
-- (judged wrong, never silently). From the verdicts table (datg verify
-- grades every trace with every grader).
WITH graded AS (
    SELECT t.model, t.model_label, t.level, t.level_ord, t.reasoning_lang AS lang, lg.ord AS lang_ord, t.trace_id,
        bool_or(v.correct) FILTER (WHERE v.grader = 'math-verify')                 AS mv,
        bool_or(v.correct) FILTER (WHERE v.grader = 'multilingual')                AS ml,
        bool_or(v.reason = 'gold-unparsed') FILTER (WHERE v.grader = 'math-verify') AS gold_unparsed
    FROM stg_graded_traces t
    JOIN verdicts v USING (trace_id)
    LEFT JOIN datg_languages lg ON lg.code = t.reasoning_lang
    WHERE t.probe
    GROUP BY ALL
)
SELECT
    model,
    model_label,
    level,
    lang,
    count(*)                                                            AS n,
    round(100.0 * count(*) FILTER (WHERE mv) / count(*), 2)             AS acc_math_verify,
    round(100.0 * wilson_low(count(*) FILTER (WHERE mv), count(*)), 2)  AS math_verify_low,
    round(100.0 * wilson_high(count(*) FILTER (WHERE mv), count(*)), 2) AS math_verify_high,
    round(100.0 * count(*) FILTER (WHERE ml) / count(*), 2)             AS acc_multilingual,
    round(100.0 * wilson_low(count(*) FILTER (WHERE ml), count(*)), 2)  AS multilingual_low,
    round(100.0 * wilson_high(count(*) FILTER (WHERE ml), count(*)), 2) AS multilingual_high,
    count(*) FILTER (WHERE mv AND NOT ml)                               AS only_math_verify,
    count(*) FILTER (WHERE ml AND NOT mv)                               AS only_multilingual,
    count(*) FILTER (WHERE gold_unparsed)                               AS gold_unparsed
FROM graded
WHERE mv IS NOT NULL AND ml IS NOT NULL
GROUP BY model, model_label, level, level_ord, lang, lang_ord
ORDER BY model, level_ord, lang_ord;
