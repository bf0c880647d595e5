-- aligner_agreement: how two aligners of the same (trace, DAG) pairs agree,
-- as the paper checks its aligner against human alignments: CAR and PMF
-- mean absolute error, Pearson and Spearman correlation (Pearson over
-- average ranks, so ties count as the paper's scipy does), and HAR MAE, per
-- pair of aligners (aligner_a before aligner_b by name) over the direction
-- probe's traces.
-- PMF statistics use the pairs where both aligners' PMF is defined.
WITH pairs AS (
    SELECT a.aligner AS aligner_a, b.aligner AS aligner_b,
        a.car AS car_a, b.car AS car_b, a.pmf AS pmf_a, b.pmf AS pmf_b, a.har AS har_a, b.har AS har_b,
        a.pmf IS NOT NULL AND b.pmf IS NOT NULL AS has_pmf
    FROM scores a
    JOIN scores b ON a.trace_id = b.trace_id AND a.dag_id = b.dag_id AND a.aligner < b.aligner
    JOIN traces t ON t.trace_id = a.trace_id
    WHERE probe_trace(t.method, t.seed)
),
ranked AS (
    SELECT *,
        rank() OVER (PARTITION BY aligner_a, aligner_b ORDER BY car_a)
            + (count(*) OVER (PARTITION BY aligner_a, aligner_b, car_a) - 1) / 2.0 AS rc_a,
        rank() OVER (PARTITION BY aligner_a, aligner_b ORDER BY car_b)
            + (count(*) OVER (PARTITION BY aligner_a, aligner_b, car_b) - 1) / 2.0 AS rc_b,
        CASE WHEN has_pmf THEN rank() OVER (PARTITION BY aligner_a, aligner_b, has_pmf ORDER BY pmf_a)
            + (count(*) OVER (PARTITION BY aligner_a, aligner_b, has_pmf, pmf_a) - 1) / 2.0 END AS rp_a,
        CASE WHEN has_pmf THEN rank() OVER (PARTITION BY aligner_a, aligner_b, has_pmf ORDER BY pmf_b)
            + (count(*) OVER (PARTITION BY aligner_a, aligner_b, has_pmf, pmf_b) - 1) / 2.0 END AS rp_b
    FROM pairs
)
SELECT aligner_a, aligner_b, count(*) AS n,
    round(avg(abs(car_a - car_b)), 3)                       AS car_mae,
    round(defined(corr(car_a, car_b)), 3)                            AS car_pearson,
    round(defined(corr(rc_a, rc_b)), 3)                              AS car_spearman,
    count(*) FILTER (WHERE has_pmf)                         AS n_pmf,
    round(avg(abs(pmf_a - pmf_b)), 3)                       AS pmf_mae,
    round(defined(corr(pmf_a, pmf_b) FILTER (WHERE has_pmf)), 3)     AS pmf_pearson,
    round(defined(corr(rp_a, rp_b) FILTER (WHERE has_pmf)), 3)       AS pmf_spearman,
    round(avg(abs(har_a - har_b)), 3)                       AS har_mae
FROM ranked
GROUP BY aligner_a, aligner_b
ORDER BY aligner_a, aligner_b;
