-- datg_main: Table 1 of the paper. Mean CAR, PMF and HAR of the best DAG
-- per trace, per (aligner, resource group, language, level, model), for the
-- direction probe's en-x traces and the en-en reference row (language en). The layout puts the
-- models of a cell side by side (.94/.98/.96). Means are over the scored
-- traces (n = n_scored) out of n_graded (stg_datg_coverage). Each mean has
-- a 95% percentile bootstrap interval (*_lo, *_hi), shown with datg tables
-- --ci: the replicates of datg_full (same seed and draws), so both tables
-- give one cell the same bounds, at two decimals here.
WITH best AS (
    SELECT aligner, model, level, lang, car, pmf, har,
        trace_draw_key(trace_id) AS h
    FROM stg_best_scores
    WHERE probe AND direction IN ('en-en', 'en-x')
),
weighted AS (
    SELECT aligner, model, level, lang, b, car, pmf, har, poisson1(bootstrap_draw(h, b)) AS w
    FROM best, range(1000) r(b)
),
replicates AS (
    SELECT aligner, model, level, lang, b,
        sum(w * car) / nullif(sum(w), 0)                                  AS car,
        sum(w * pmf) / nullif(sum(w) FILTER (WHERE pmf IS NOT NULL), 0)   AS pmf,
        sum(w * har) / nullif(sum(w), 0)                                  AS har
    FROM weighted
    GROUP BY ALL
),
intervals AS (
    SELECT aligner, model, level, lang,
        quantile_cont(car, 0.025) AS car_lo, quantile_cont(car, 0.975) AS car_hi,
        quantile_cont(pmf, 0.025) AS pmf_lo, quantile_cont(pmf, 0.975) AS pmf_hi,
        quantile_cont(har, 0.025) AS har_lo, quantile_cont(har, 0.975) AS har_hi
    FROM replicates
    GROUP BY ALL
)
SELECT
    b.aligner,
    CASE WHEN b.direction = 'en-en' THEN 'HRL' ELSE b.resource END AS resource,
    b.lang, b.level, b.model, b.model_label,
    count(*)                AS n,
    round(avg(b.car), 2)    AS car,
    round(avg(b.pmf), 2)    AS pmf,
    round(avg(b.har), 2)    AS har,
    round(any_value(i.car_lo), 2) AS car_lo,
    round(any_value(i.car_hi), 2) AS car_hi,
    round(any_value(i.pmf_lo), 2) AS pmf_lo,
    round(any_value(i.pmf_hi), 2) AS pmf_hi,
    round(any_value(i.har_lo), 2) AS har_lo,
    round(any_value(i.har_hi), 2) AS har_hi,
    any_value(c.n_graded)   AS n_graded,
    any_value(c.n_scored)   AS n_scored
FROM stg_best_scores b
JOIN stg_datg_coverage c USING (aligner, model, level, direction, lang, method, probe)
JOIN intervals i ON i.aligner = b.aligner AND i.model = b.model AND i.level = b.level AND i.lang = b.lang
WHERE b.probe AND b.direction IN ('en-en', 'en-x')
GROUP BY b.aligner, b.direction, b.resource, b.lang, b.lang_ord, b.level, b.level_ord, b.model, b.model_label
ORDER BY b.aligner, b.lang_ord, b.level_ord, b.model;
