-- datg_correctness_main: Table 2 of the paper. Mean CAR, PMF and HAR of the
-- best DAG over correct (_c) and incorrect (_i) en-x traces, pooled over
-- languages and models, per level and over all levels (level 'all').
SELECT aligner,
    CASE WHEN grouping(level) = 1 THEN 'all' ELSE level END  AS level,
    CASE WHEN grouping(level) = 1 THEN 99 ELSE level_ord END AS ord,
    count(*) FILTER (WHERE correct)                   AS n_c,
    count(*) FILTER (WHERE NOT correct)               AS n_i,
    round(avg(car) FILTER (WHERE correct), 3)         AS car_c,
    round(avg(car) FILTER (WHERE NOT correct), 3)     AS car_i,
    round(avg(pmf) FILTER (WHERE correct), 3)         AS pmf_c,
    round(avg(pmf) FILTER (WHERE NOT correct), 3)     AS pmf_i,
    round(avg(har) FILTER (WHERE correct), 3)         AS har_c,
    round(avg(har) FILTER (WHERE NOT correct), 3)     AS har_i
FROM stg_best_scores
WHERE method = 'base' AND direction = 'en-x' AND correct IS NOT NULL
GROUP BY GROUPING SETS ((aligner, level, level_ord), (aligner))
ORDER BY aligner, ord;
