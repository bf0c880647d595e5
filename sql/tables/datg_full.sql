-- datg_full: mean CAR, PMF and HAR of the best DAG per trace, for every
-- (aligner, model, level, language) of the diagnosis: the direction
-- probe's en-x traces, with
-- en-en as language en (appendix "Full DATG results"). PMF means leave out
-- DAGs without edges. Means are over the cell's scored traces (n, also
-- n_scored) out of its graded ones (n_graded; stg_datg_coverage). Beyond the paper, each mean has a 95% percentile
-- bootstrap interval (*_lo, *_hi): stg_datg_intervals, 1,000
-- Poisson-bootstrap replicates of the cell's traces drawn from a fixed
-- seed, so a rerun gives the same bounds, whatever the DuckDB release.
WITH best AS (
    SELECT aligner, model, model_label, level, level_ord, lang, lang_ord, resource, trace_id, car, pmf, har
    FROM stg_datg_best_scores
),
coverage AS (
    SELECT aligner, model, level, lang, sum(n_graded)::BIGINT AS n_graded, sum(n_scored)::BIGINT AS n_scored
    FROM stg_datg_coverage
    GROUP BY ALL
)
SELECT
    aligner, model, model_label, level, lang, resource,
    count(*)                          AS n,
    round(avg(car), 3)                AS car,
    round(avg(pmf), 3)                AS pmf,
    round(avg(har), 3)                AS har,
    round(any_value(i.car_lo), 3)     AS car_lo,
    round(any_value(i.car_hi), 3)     AS car_hi,
    round(any_value(i.pmf_lo), 3)     AS pmf_lo,
    round(any_value(i.pmf_hi), 3)     AS pmf_hi,
    round(any_value(i.har_lo), 3)     AS har_lo,
    round(any_value(i.har_hi), 3)     AS har_hi,
    any_value(c.n_graded)             AS n_graded,
    any_value(c.n_scored)             AS n_scored
FROM best
JOIN stg_datg_intervals i USING (aligner, model, level, lang)
JOIN coverage c USING (aligner, model, level, lang)
GROUP BY aligner, model, model_label, level, level_ord, lang, lang_ord, resource
ORDER BY aligner, lang_ord, model, level_ord;
