-- reference_diversity: the appendix's reference-side diversity. Each
-- accepted English reference is aligned to the other reference DAGs of its
-- problem (datg align --references); its best-other CAR, PMF and HAR are
-- averaged per level and overall (level 'overall'), with the standard
-- deviation.
SELECT aligner,
    CASE WHEN grouping(level) = 1 THEN 'overall' ELSE level END AS level,
    CASE WHEN grouping(level) = 1 THEN 99 ELSE level_ord END    AS ord,
    count(*) AS n,
    round(avg(car), 3) AS car, round(coalesce(stddev_pop(car), 0), 3) AS car_sd,
    round(avg(pmf), 3) AS pmf, round(coalesce(stddev_pop(pmf), 0), 3) AS pmf_sd,
    round(avg(har), 3) AS har, round(coalesce(stddev_pop(har), 0), 3) AS har_sd
FROM stg_best_scores
WHERE method = 'reference'
GROUP BY GROUPING SETS ((aligner, level, level_ord), (aligner))
ORDER BY aligner, ord;
