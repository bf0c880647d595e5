-- datg_correctness_main: Table 2 of the paper. Mean CAR, PMF and HAR of the
-- best DAG over correct (_c) and incorrect (_i) en-x traces of the
-- direction probe, pooled over
-- languages and models, per level and over all levels (level 'all'). The
-- means are over the scored traces (n_scored) out of the graded ones
-- (n_graded; stg_datg_coverage). Each mean has a 95% percentile bootstrap
-- interval (*_c_lo, *_c_hi, *_i_lo, *_i_hi), shown with datg tables --ci:
-- 1,000 Poisson-bootstrap replicates of the traces from the fixed seed
-- datg_full uses.
WITH scored AS (
    SELECT aligner, level, level_ord, correct, car, pmf, har,
        trace_draw_key(trace_id) AS h
    FROM stg_datg_best_scores
    WHERE direction = 'en-x' AND correct IS NOT NULL
),
graded AS (
    SELECT aligner, level, sum(n_graded)::BIGINT AS n_graded
    FROM stg_datg_coverage
    WHERE direction = 'en-x'
    GROUP BY ALL
),
cells AS (
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
        round(avg(har) FILTER (WHERE NOT correct), 3)     AS har_i,
        count(*)                                          AS n_scored
    FROM scored
    GROUP BY GROUPING SETS ((aligner, level, level_ord), (aligner))
),
weighted AS (
    SELECT aligner, level, correct, b, car, pmf, har, poisson1(bootstrap_draw(h, b)) AS w
    FROM scored, range(1000) r(b)
),
replicates AS (
    SELECT aligner,
        CASE WHEN grouping(level) = 1 THEN 'all' ELSE level END           AS level,
        correct, b,
        sum(w * car) / nullif(sum(w), 0)                                  AS car,
        sum(w * pmf) / nullif(sum(w) FILTER (WHERE pmf IS NOT NULL), 0)   AS pmf,
        sum(w * har) / nullif(sum(w), 0)                                  AS har
    FROM weighted
    GROUP BY GROUPING SETS ((aligner, level, correct, b), (aligner, correct, b))
),
intervals AS (
    SELECT aligner, level,
        round(quantile_cont(car, 0.025) FILTER (WHERE correct), 3)     AS car_c_lo,
        round(quantile_cont(car, 0.975) FILTER (WHERE correct), 3)     AS car_c_hi,
        round(quantile_cont(car, 0.025) FILTER (WHERE NOT correct), 3) AS car_i_lo,
        round(quantile_cont(car, 0.975) FILTER (WHERE NOT correct), 3) AS car_i_hi,
        round(quantile_cont(pmf, 0.025) FILTER (WHERE correct), 3)     AS pmf_c_lo,
        round(quantile_cont(pmf, 0.975) FILTER (WHERE correct), 3)     AS pmf_c_hi,
        round(quantile_cont(pmf, 0.025) FILTER (WHERE NOT correct), 3) AS pmf_i_lo,
        round(quantile_cont(pmf, 0.975) FILTER (WHERE NOT correct), 3) AS pmf_i_hi,
        round(quantile_cont(har, 0.025) FILTER (WHERE correct), 3)     AS har_c_lo,
        round(quantile_cont(har, 0.975) FILTER (WHERE correct), 3)     AS har_c_hi,
        round(quantile_cont(har, 0.025) FILTER (WHERE NOT correct), 3) AS har_i_lo,
        round(quantile_cont(har, 0.975) FILTER (WHERE NOT correct), 3) AS har_i_hi
    FROM replicates
    GROUP BY ALL
)
SELECT c.aligner, c.level, c.ord, c.n_c, c.n_i, c.car_c, c.car_i, c.pmf_c, c.pmf_i, c.har_c, c.har_i,
    CASE WHEN c.level = 'all'
        THEN (SELECT sum(g.n_graded) FROM graded g WHERE g.aligner = c.aligner)
        ELSE (SELECT sum(g.n_graded) FROM graded g WHERE g.aligner = c.aligner AND g.level = c.level)
    END::BIGINT AS n_graded,
    c.n_scored,
    i.car_c_lo, i.car_c_hi, i.car_i_lo, i.car_i_hi,
    i.pmf_c_lo, i.pmf_c_hi, i.pmf_i_lo, i.pmf_i_hi,
    i.har_c_lo, i.har_c_hi, i.har_i_lo, i.har_i_hi
FROM cells c
LEFT JOIN intervals i ON i.aligner = c.aligner AND i.level = c.level
ORDER BY c.aligner, c.ord;
