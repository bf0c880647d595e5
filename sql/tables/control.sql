-- control: Table 3 of the paper. For every method present (Base:
-- control-base, from datg control --method base; Loop-Retry;
-- Formula-Retry; never the direction probe's traces), model and level: accuracy (%) per language and its
-- average over the languages (lang 'all'), decoded tokens in millions
-- (tokens_m: every attempt of the cell's examples, per sampling seed, i.e.
-- the sum over examples divided by the number of seeds, and summed over the
-- languages for 'all'; tokens_total_m is the plain sum over the seeds), the
-- share of examples that retried at least once (retry_pct) and the mean
-- number of reasoning attempts per example (trials). forced_pct is the
-- share of examples whose last attempt was a forced accept. n counts
-- examples (problems x seeds). A row per sampling seed (seed 42, 215, ...)
-- and the pooled row (seed 'all'). wilson_low and wilson_high bound a
-- language's accuracy with the 95% Wilson interval (for lang 'all', the
-- interval of the pooled examples); retry_low and retry_high bound
-- retry_pct the same way.
WITH per_lang AS (
    SELECT method, model, model_label, level, level_ord, lang, lang_ord,
        CASE WHEN grouping(seed) = 1 THEN 'all' ELSE seed::VARCHAR END AS seed,
        grouping(seed)                                AS pooled,
        count(*)                                      AS n,
        100.0 * avg(correct::INTEGER)                 AS accuracy,
        count(*) FILTER (WHERE correct)               AS correct,
        sum(tokens)::BIGINT                           AS tokens,
        sum(tokens) / count(DISTINCT seed)            AS tokens_per_seed,
        count(*) FILTER (WHERE retried)               AS retried,
        sum(trials)::BIGINT                           AS trials,
        count(*) FILTER (WHERE forced)                AS forced
    FROM stg_control_examples
    GROUP BY GROUPING SETS (
        (method, model, model_label, level, level_ord, lang, lang_ord, seed),
        (method, model, model_label, level, level_ord, lang, lang_ord))
),
cells AS (
    SELECT method, model, model_label, level, level_ord, lang, lang_ord, seed, pooled, n, accuracy, correct, tokens, tokens_per_seed, retried, trials, forced
    FROM per_lang
    UNION ALL
    -- The average over languages weighs each language equally, as the
    -- paper's Avg column does.
    SELECT method, model, model_label, level, level_ord, 'all', 999, seed, pooled, sum(n)::BIGINT, avg(accuracy), sum(correct)::BIGINT,
        sum(tokens)::BIGINT, sum(tokens_per_seed), sum(retried)::BIGINT, sum(trials)::BIGINT, sum(forced)::BIGINT
    FROM per_lang
    GROUP BY method, model, model_label, level, level_ord, seed, pooled
)
SELECT method, model, model_label, level, lang, seed, n,
    round(accuracy, 1)                      AS accuracy,
    round(100.0 * wilson_low(correct, n), 1)  AS wilson_low,
    round(100.0 * wilson_high(correct, n), 1) AS wilson_high,
    round(tokens_per_seed / 1e6, 3)         AS tokens_m,
    round(tokens / 1e6, 3)                  AS tokens_total_m,
    round(100.0 * retried / n, 1)           AS retry_pct,
    round(100.0 * wilson_low(retried, n), 1)  AS retry_low,
    round(100.0 * wilson_high(retried, n), 1) AS retry_high,
    round(trials / n, 2)                    AS trials,
    round(100.0 * forced / n, 1)            AS forced_pct
FROM cells
ORDER BY CASE method WHEN 'control-base' THEN 0 WHEN 'loop-retry' THEN 1 WHEN 'formula-retry' THEN 2 ELSE 3 END,
    method, model, level_ord, lang_ord, pooled, seed;
