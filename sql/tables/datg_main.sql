-- datg_main: Table 1 of the paper. Mean CAR, PMF and HAR of the best DAG
-- per trace, per (aligner, resource group, language, level, model), for the
-- direction probe's en-x traces and the en-en reference row (language en). The layout puts the
-- models of a cell side by side (.94/.98/.96). Means are over the scored
-- traces (n = n_scored) out of n_graded (stg_datg_coverage). Each mean has
-- a 95% percentile bootstrap interval (*_lo, *_hi), shown with datg tables
-- --ci: datg_full's (stg_datg_intervals), so both tables give one cell
-- the same bounds, at two decimals here.
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
FROM stg_datg_best_scores b
JOIN stg_datg_coverage c USING (aligner, model, level, direction, lang, method, probe)
JOIN stg_datg_intervals i ON i.aligner = b.aligner AND i.model = b.model AND i.level = b.level AND i.lang = b.lang
GROUP BY b.aligner, b.direction, b.resource, b.lang, b.lang_ord, b.level, b.level_ord, b.model, b.model_label
ORDER BY b.aligner, b.lang_ord, b.level_ord, b.model;
