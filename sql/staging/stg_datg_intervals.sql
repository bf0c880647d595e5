-- stg_datg_intervals: the 95% percentile bootstrap intervals of the DATG
-- means of datg_full and datg_main (Tables 8 and 1): mean CAR, PMF and HAR
-- of the best DAG per trace, per (aligner, model, level, language) of the
-- direction probe's en-x traces, with en-en as language en. 1,000
-- Poisson-bootstrap replicates of the cell's traces, drawn from a fixed
-- seed (poisson1 over bootstrap_draw of the seed and trace_id's key_hash
-- and the replicate), so a rerun gives the same bounds, whatever the
-- DuckDB release. Unrounded: datg_full shows them at three decimals,
-- datg_main at two. One view for both, so that datg tables computes the
-- 13.5 million weighted rows once for the two (it keeps the view's rows
-- for the run: pipelines/tables/shared.go).
CREATE OR REPLACE VIEW stg_datg_intervals AS
WITH best AS MATERIALIZED (
    -- Each (aligner, model, level, lang) numbered (part): the replicates
    -- group by that number, not by four strings, so that their hash table
    -- of 108,000 groups stays small (datg_correctness's reason).
    SELECT aligner, model, level, lang, car, pmf, har,
        trace_draw_key(trace_id) AS h,
        dense_rank() OVER (ORDER BY aligner, model, level, lang) AS part
    FROM stg_datg_best_scores
),
weighted AS (
    SELECT part, b, car, pmf, har, poisson1(bootstrap_draw(h, b)) AS w
    FROM best, range(1000) r(b)
),
replicates AS (
    SELECT part, b,
        sum(w * car) / nullif(sum(w), 0)                                  AS car,
        sum(w * pmf) / nullif(sum(w) FILTER (WHERE pmf IS NOT NULL), 0)   AS pmf,
        sum(w * har) / nullif(sum(w), 0)                                  AS har
    FROM weighted
    GROUP BY ALL
),
part_intervals AS (
    SELECT part,
        quantile_cont(car, 0.025) AS car_lo, quantile_cont(car, 0.975) AS car_hi,
        quantile_cont(pmf, 0.025) AS pmf_lo, quantile_cont(pmf, 0.975) AS pmf_hi,
        quantile_cont(har, 0.025) AS har_lo, quantile_cont(har, 0.975) AS har_hi
    FROM replicates
    GROUP BY ALL
)
SELECT k.aligner, k.model, k.level, k.lang,
    p.car_lo, p.car_hi, p.pmf_lo, p.pmf_hi, p.har_lo, p.har_hi
FROM (SELECT DISTINCT aligner, model, level, lang, part FROM best) k
JOIN part_intervals p USING (part);
