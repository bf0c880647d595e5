-- datg_correctness: the appendix's correctness-stratified DATG table. For
-- every (aligner, model, level, language) of the direction probe's en-x
-- traces, with en-en as
-- language en: accuracy (a fraction, as the paper's table prints it) and
-- mean CAR, PMF and HAR of the best DAG over correct (_c) and incorrect
-- (_i) traces, by the answer grader. acc is over every graded trace of the
-- cell (n_graded), as the paper's direction accuracy is; the DATG means are
-- over the scored ones (n = n_scored). Ungraded traces are left out.
-- acc_low and acc_high bound acc with the 95% Wilson interval; each DATG
-- mean has a 95% percentile bootstrap interval (*_c_lo, *_c_hi, *_i_lo,
-- *_i_hi), shown with datg tables --ci: 1,000 Poisson-bootstrap replicates
-- of the cell's traces from the fixed seed datg_full uses.
WITH graded AS (
    SELECT model, level, lang,
        count(*)                        AS n_graded,
        count(*) FILTER (WHERE correct) AS n_correct
    FROM stg_datg_traces
    WHERE correct IS NOT NULL
    GROUP BY ALL
),
keyed AS MATERIALIZED (
    -- The scored traces, read once for the means and the bootstrap. Each
    -- trace's draw key is hashed once, not once per replicate (an MD5 per
    -- draw was four fifths of datg tables' time), and each (aligner,
    -- model, level, lang, correct) numbered (part): the replicates group
    -- by that number, not by four strings, so that their hash table of
    -- 216,000 groups stays small (grouped by the strings it spilled at the
    -- paper's design and DuckDB 1.4.1 failed in it, at random, with an
    -- internal error under datg tables' 256 MiB cap at ten times it).
    SELECT aligner, model, model_label, level, level_ord, lang, lang_ord, correct, car, pmf, har,
        trace_draw_key(trace_id) AS h,
        dense_rank() OVER (ORDER BY aligner, model, level, lang, correct) AS part
    FROM stg_datg_best_scores
    WHERE correct IS NOT NULL
),
scored AS (
    SELECT aligner, model, model_label, level, level_ord, lang, lang_ord,
        count(*)                                   AS n_scored,
        avg(car) FILTER (WHERE correct)            AS car_c,
        avg(car) FILTER (WHERE NOT correct)        AS car_i,
        avg(pmf) FILTER (WHERE correct)            AS pmf_c,
        avg(pmf) FILTER (WHERE NOT correct)        AS pmf_i,
        avg(har) FILTER (WHERE correct)            AS har_c,
        avg(har) FILTER (WHERE NOT correct)        AS har_i
    FROM keyed
    GROUP BY ALL
),
weighted AS (
    SELECT part, b, car, pmf, har, poisson1(bootstrap_draw(h, b)) AS w
    FROM keyed, range(1000) r(b)
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
),
intervals AS (
    -- Each part's bounds, correct ones beside incorrect ones.
    SELECT k.aligner, k.model, k.level, k.lang,
        round(any_value(p.car_lo) FILTER (WHERE k.correct), 3)     AS car_c_lo,
        round(any_value(p.car_hi) FILTER (WHERE k.correct), 3)     AS car_c_hi,
        round(any_value(p.car_lo) FILTER (WHERE NOT k.correct), 3) AS car_i_lo,
        round(any_value(p.car_hi) FILTER (WHERE NOT k.correct), 3) AS car_i_hi,
        round(any_value(p.pmf_lo) FILTER (WHERE k.correct), 3)     AS pmf_c_lo,
        round(any_value(p.pmf_hi) FILTER (WHERE k.correct), 3)     AS pmf_c_hi,
        round(any_value(p.pmf_lo) FILTER (WHERE NOT k.correct), 3) AS pmf_i_lo,
        round(any_value(p.pmf_hi) FILTER (WHERE NOT k.correct), 3) AS pmf_i_hi,
        round(any_value(p.har_lo) FILTER (WHERE k.correct), 3)     AS har_c_lo,
        round(any_value(p.har_hi) FILTER (WHERE k.correct), 3)     AS har_c_hi,
        round(any_value(p.har_lo) FILTER (WHERE NOT k.correct), 3) AS har_i_lo,
        round(any_value(p.har_hi) FILTER (WHERE NOT k.correct), 3) AS har_i_hi
    FROM (SELECT DISTINCT aligner, model, level, lang, correct, part FROM keyed) k
    JOIN part_intervals p USING (part)
    GROUP BY ALL
)
SELECT
    s.aligner, s.model, s.model_label, s.level, s.lang,
    s.n_scored                                                 AS n,
    round(g.n_correct / g.n_graded, 3)                         AS acc,
    round(wilson_low(g.n_correct, g.n_graded), 3)              AS acc_low,
    round(wilson_high(g.n_correct, g.n_graded), 3)             AS acc_high,
    round(s.car_c, 3) AS car_c, round(s.car_i, 3) AS car_i,
    round(s.pmf_c, 3) AS pmf_c, round(s.pmf_i, 3) AS pmf_i,
    round(s.har_c, 3) AS har_c, round(s.har_i, 3) AS har_i,
    g.n_graded,
    s.n_scored,
    i.car_c_lo, i.car_c_hi, i.car_i_lo, i.car_i_hi,
    i.pmf_c_lo, i.pmf_c_hi, i.pmf_i_lo, i.pmf_i_hi,
    i.har_c_lo, i.har_c_hi, i.har_i_lo, i.har_i_hi
FROM scored s
JOIN graded g USING (model, level, lang)
LEFT JOIN intervals i USING (aligner, model, level, lang)
ORDER BY s.aligner, s.model, s.level_ord, s.lang_ord;
