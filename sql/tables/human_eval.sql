-- human_eval: the human evaluation of DATG (appendix, "Human Evaluation of
-- DATG"), per aligner and language of the audited traces, and over all
-- (lang 'all'): n audited (trace, DAG) instances; DAG node and edge
-- validity (% of the annotators' judgments that say valid); CAR and PMF of
-- the aligner against the human alignments (MAE, Pearson, and Spearman as
-- Pearson over average ranks; PMF over pairs where both are defined); the
-- human CAR, PMF and HAR scored from the annotators' node statuses by the
-- aligners' scoring query (stg_human_pairs says when typed-in values stand
-- in); HAR MAE of the aligner against the human HAR; HAR
-- precision (% of the aligner's harmful-action candidates on the audited
-- instances that every annotator who judged them confirmed, over those
-- judged). Read from the annotations table (datg import annotations).
WITH ranked AS (
    SELECT *,
        rank() OVER (PARTITION BY aligner, lang, has_car ORDER BY car)
            + (count(*) OVER (PARTITION BY aligner, lang, has_car, car) - 1) / 2.0 AS rc,
        rank() OVER (PARTITION BY aligner, lang, has_car ORDER BY car_h)
            + (count(*) OVER (PARTITION BY aligner, lang, has_car, car_h) - 1) / 2.0 AS rc_h,
        rank() OVER (PARTITION BY aligner, lang, has_pmf ORDER BY pmf)
            + (count(*) OVER (PARTITION BY aligner, lang, has_pmf, pmf) - 1) / 2.0 AS rp,
        rank() OVER (PARTITION BY aligner, lang, has_pmf ORDER BY pmf_h)
            + (count(*) OVER (PARTITION BY aligner, lang, has_pmf, pmf_h) - 1) / 2.0 AS rp_h
    FROM stg_human_pairs
),
scores_vs_human AS (
    SELECT aligner, lang, any_value(lang_ord) AS lang_ord,
        count(*)                                                  AS n,
        round(avg(abs(car - car_h)) FILTER (WHERE has_car), 3)   AS car_mae,
        round(defined(corr(car, car_h) FILTER (WHERE has_car)), 3)        AS car_pearson,
        round(defined(corr(rc, rc_h) FILTER (WHERE has_car)), 3)          AS car_spearman,
        round(avg(abs(pmf - pmf_h)) FILTER (WHERE has_pmf), 3)   AS pmf_mae,
        round(defined(corr(pmf, pmf_h) FILTER (WHERE has_pmf)), 3)        AS pmf_pearson,
        round(defined(corr(rp, rp_h) FILTER (WHERE has_pmf)), 3)          AS pmf_spearman,
        round(avg(abs(har - har_h)) FILTER (WHERE has_har), 3)   AS har_mae
    FROM ranked
    GROUP BY aligner, lang
),
instances AS (
    SELECT DISTINCT aligner, lang, trace_id, dag_id FROM stg_human_pairs
),
validity AS (
    SELECT i.aligner, i.lang,
        round(100.0 * avg((a.label = 'valid')::INTEGER) FILTER (WHERE a.layer = 'node'), 1) AS node_valid,
        round(100.0 * avg((a.label = 'valid')::INTEGER) FILTER (WHERE a.layer = 'edge'), 1) AS edge_valid
    FROM instances i
    JOIN annotations a USING (trace_id, dag_id)
    GROUP BY i.aligner, i.lang
),
candidates AS (
    -- The aligner's harmful actions on the audited instances, each judged
    -- confirmed when every annotator who judged its span said harmful.
    SELECT i.aligner, i.lang, h.trace_id, h.dag_id, h.evidence_span,
        bool_and(a.label = 'harmful') AS confirmed,
        count(a.label)                AS judgments
    FROM instances i
    JOIN harmful_actions h ON h.trace_id = i.trace_id AND h.dag_id = i.dag_id AND h.aligner = i.aligner
    LEFT JOIN annotations a ON a.trace_id = h.trace_id AND a.dag_id = h.dag_id AND a.layer = 'harmful' AND a.item = h.evidence_span
    GROUP BY ALL
),
precision AS (
    SELECT aligner, lang,
        count(*)                                               AS har_candidates,
        count(*) FILTER (WHERE judgments > 0)                  AS har_judged,
        round(100.0 * count(*) FILTER (WHERE confirmed) / nullif(count(*) FILTER (WHERE judgments > 0), 0), 1) AS har_precision
    FROM candidates
    GROUP BY aligner, lang
)
SELECT s.aligner, s.lang, s.n, v.node_valid, v.edge_valid,
    s.car_mae, s.car_pearson, s.car_spearman, s.pmf_mae, s.pmf_pearson, s.pmf_spearman,
    coalesce(p.har_candidates, 0) AS har_candidates, coalesce(p.har_judged, 0) AS har_judged, p.har_precision,
    s.har_mae
FROM scores_vs_human s
LEFT JOIN validity v USING (aligner, lang)
LEFT JOIN precision p USING (aligner, lang)
ORDER BY s.aligner, s.lang_ord;
