-- reference_diversity: the appendix's reference-side diversity. Each
-- accepted English reference is aligned to the other reference DAGs of its
-- problem (datg align --references); its best-other CAR, PMF and HAR are
-- averaged per level and overall, with the standard deviation.
WITH best_other AS (
    SELECT aligner, level, level_ord, car, pmf, har FROM stg_best_scores WHERE method = 'reference'
)
SELECT aligner, level, level_ord AS ord, count(*) AS n,
    round(avg(car), 3) AS car, round(coalesce(stddev_pop(car), 0), 3) AS car_sd,
    round(avg(pmf), 3) AS pmf, round(coalesce(stddev_pop(pmf), 0), 3) AS pmf_sd,
    round(avg(har), 3) AS har, round(coalesce(stddev_pop(har), 0), 3) AS har_sd
FROM best_other GROUP BY aligner, level, level_ord
UNION ALL
SELECT aligner, 'overall', 99, count(*),
    round(avg(car), 3), round(coalesce(stddev_pop(car), 0), 3),
    round(avg(pmf), 3), round(coalesce(stddev_pop(pmf), 0), 3),
    round(avg(har), 3), round(coalesce(stddev_pop(har), 0), 3)
FROM best_other GROUP BY aligner
ORDER BY aligner, ord;
