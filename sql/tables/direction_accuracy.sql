-- direction_accuracy: final-answer accuracy for every (model, level,
-- direction, language) cell of the paper's full direction-probing table
-- (appendix, "Full Direction-Probing Accuracy"). The direction probe's
-- traces only (probe: one per problem and cell at the probe's seed), so n
-- is the number of problems; other seeds' base traces and the controls'
-- traces never enter. accuracy, wilson_low and wilson_high are
-- percentages; the interval is the 95% Wilson score interval. gold_unparsed
-- counts the traces whose gold answer the grader could not read (counted
-- wrong, never silently: the layout's caption says so).
-- Beyond the paper, every direction other than en-en is compared with en-en
-- on the same problems (paired_n pairs): mcnemar_b counts pairs
-- en-en got right and this direction wrong, mcnemar_c the reverse, and
-- mcnemar_p is the exact two-sided McNemar p-value (NULL for en-en).
WITH cells AS (
    SELECT model, model_label, level, level_ord, direction, direction_ord, lang, lang_ord,
        count(*)                              AS n,
        count(*) FILTER (WHERE correct)       AS correct,
        count(*) FILTER (WHERE answer_reason = 'gold-unparsed') AS gold_unparsed
    FROM stg_graded_traces
    WHERE probe
    GROUP BY ALL
),
paired AS (
    SELECT x.model, x.level, x.direction, x.lang,
        count(*)                                          AS paired_n,
        count(*) FILTER (WHERE e.correct AND NOT x.correct) AS mcnemar_b,
        count(*) FILTER (WHERE x.correct AND NOT e.correct) AS mcnemar_c
    FROM stg_graded_traces x
    JOIN stg_graded_traces e
      ON e.model = x.model AND e.level = x.level AND e.problem_id = x.problem_id AND e.seed = x.seed
     AND e.probe AND e.direction = 'en-en'
    WHERE x.probe AND x.direction <> 'en-en'
    GROUP BY ALL
)
SELECT
    c.model,
    c.model_label,
    c.level,
    c.direction,
    c.lang,
    c.n,
    c.correct,
    round(100.0 * c.correct / c.n, 2)              AS accuracy,
    round(100.0 * wilson_low(c.correct, c.n), 2)   AS wilson_low,
    round(100.0 * wilson_high(c.correct, c.n), 2)  AS wilson_high,
    p.paired_n,
    p.mcnemar_b,
    p.mcnemar_c,
    round(mcnemar_p(p.mcnemar_b, p.mcnemar_c), 4)  AS mcnemar_p,
    c.gold_unparsed
FROM cells c
LEFT JOIN paired p USING (model, level, direction, lang)
ORDER BY c.model, c.level_ord, c.direction_ord, c.lang_ord;
