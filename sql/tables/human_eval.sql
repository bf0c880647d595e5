-- human_eval: the human evaluation of DATG (appendix, "Human Evaluation of
-- DATG"), per aligner and language of the audited traces, and over all
-- (lang 'all'): n audited (trace, DAG) instances; DAG node and edge
-- validity (% of the annotators' judgments that say valid); CAR and PMF of
-- the aligner against the human alignments (MAE, Pearson, and Spearman as
-- Pearson over average ranks; PMF over pairs where both are defined); the
-- human CAR, PMF and HAR scored from the annotators' node statuses by the
-- aligners' scoring query (stg_human_pairs says when typed-in values stand
-- in); HAR MAE of the aligner against the human HAR; and HAR precision.
-- HAR precision is over every candidate of the three lists
-- (contradictory_steps, harmful_loop_steps, degenerate_steps, within the
-- paper's caps) of the aligner on the audited instances, as the paper's
-- "162 candidates, of which 146 are confirmed" counts them: each action is
-- one candidate (two with the same quote are two), judged by its quote
-- (stg_harmful_candidates). har_candidates counts them, har_judged those
-- that at least one annotator judged; the precisions are over the judged
-- ones (the paper's audit judged all). The paper (two annotators) does not
-- say how their judgments combine, so both ends are given:
-- har_precision_any confirms a candidate when any annotator who judged it
-- says harmful, har_precision_all (datg's stricter variant) when every one
-- does; any adjudication of two annotators' disagreements lies between the
-- two. Each percentage has its 95% Wilson bounds (*_low, *_high) over its
-- judgments or judged candidates. Read from the annotations table (datg
-- import annotations).
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
        round(100.0 * avg((a.label = 'valid')::INTEGER) FILTER (WHERE a.layer = 'edge'), 1) AS edge_valid,
        count(*) FILTER (WHERE a.layer = 'node' AND a.label = 'valid') AS node_valid_k,
        count(*) FILTER (WHERE a.layer = 'node')                       AS node_judged,
        count(*) FILTER (WHERE a.layer = 'edge' AND a.label = 'valid') AS edge_valid_k,
        count(*) FILTER (WHERE a.layer = 'edge')                       AS edge_judged
    FROM instances i
    JOIN annotations a USING (trace_id, dag_id)
    GROUP BY i.aligner, i.lang
),
candidates AS (
    -- Every harmful action of the aligner on the audited instances, with
    -- how many annotators judged its quote and how many said harmful.
    SELECT i.aligner, i.lang, h.trace_id, h.dag_id, h.category, h.seq,
        count(a.label)                                 AS judgments,
        count(a.label) FILTER (WHERE a.label = 'harmful') AS confirmations
    FROM instances i
    JOIN stg_harmful_candidates h ON h.trace_id = i.trace_id AND h.dag_id = i.dag_id AND h.aligner = i.aligner
    LEFT JOIN annotations a ON a.trace_id = h.trace_id AND a.dag_id = h.dag_id AND a.layer = 'harmful' AND a.item = h.quote
    GROUP BY ALL
),
precision AS (
    SELECT aligner, lang,
        count(*)                               AS har_candidates,
        count(*) FILTER (WHERE judgments > 0)  AS har_judged,
        round(100.0 * count(*) FILTER (WHERE confirmations > 0)
            / nullif(count(*) FILTER (WHERE judgments > 0), 0), 1) AS har_precision_any,
        round(100.0 * count(*) FILTER (WHERE judgments > 0 AND confirmations = judgments)
            / nullif(count(*) FILTER (WHERE judgments > 0), 0), 1) AS har_precision_all,
        count(*) FILTER (WHERE confirmations > 0)                       AS har_confirmed_any,
        count(*) FILTER (WHERE judgments > 0 AND confirmations = judgments) AS har_confirmed_all
    FROM candidates
    GROUP BY aligner, lang
)
SELECT s.aligner, s.lang, s.n, v.node_valid, v.edge_valid,
    s.car_mae, s.car_pearson, s.car_spearman, s.pmf_mae, s.pmf_pearson, s.pmf_spearman,
    coalesce(p.har_candidates, 0) AS har_candidates, coalesce(p.har_judged, 0) AS har_judged,
    p.har_precision_any, p.har_precision_all,
    s.har_mae,
    round(100.0 * wilson_low(v.node_valid_k, v.node_judged), 1)       AS node_valid_low,
    round(100.0 * wilson_high(v.node_valid_k, v.node_judged), 1)      AS node_valid_high,
    round(100.0 * wilson_low(v.edge_valid_k, v.edge_judged), 1)       AS edge_valid_low,
    round(100.0 * wilson_high(v.edge_valid_k, v.edge_judged), 1)      AS edge_valid_high,
    round(100.0 * wilson_low(p.har_confirmed_any, p.har_judged), 1)   AS har_precision_any_low,
    round(100.0 * wilson_high(p.har_confirmed_any, p.har_judged), 1)  AS har_precision_any_high,
    round(100.0 * wilson_low(p.har_confirmed_all, p.har_judged), 1)   AS har_precision_all_low,
    round(100.0 * wilson_high(p.har_confirmed_all, p.har_judged), 1)  AS har_precision_all_high
FROM scores_vs_human s
LEFT JOIN validity v USING (aligner, lang)
LEFT JOIN precision p USING (aligner, lang)
ORDER BY s.aligner, s.lang_ord;
