-- datg_correctness: the appendix's correctness-stratified DATG table. For
-- every (aligner, model, level, language) of en-x traces, with en-en as
-- language en: accuracy (a fraction, as the paper's table prints it) and
-- mean CAR, PMF and HAR of the best DAG over correct (_c) and incorrect
-- (_i) traces, by the answer grader. Ungraded traces are left out.
-- acc_low and acc_high bound acc with the 95% Wilson interval.
SELECT
    aligner, model, model_label, level, lang,
    count(*)                                               AS n,
    round(avg(correct::INTEGER), 3)                        AS acc,
    round(wilson_low(count(*) FILTER (WHERE correct), count(*)), 3)  AS acc_low,
    round(wilson_high(count(*) FILTER (WHERE correct), count(*)), 3) AS acc_high,
    round(avg(car) FILTER (WHERE correct), 3)              AS car_c,
    round(avg(car) FILTER (WHERE NOT correct), 3)          AS car_i,
    round(avg(pmf) FILTER (WHERE correct), 3)              AS pmf_c,
    round(avg(pmf) FILTER (WHERE NOT correct), 3)          AS pmf_i,
    round(avg(har) FILTER (WHERE correct), 3)              AS har_c,
    round(avg(har) FILTER (WHERE NOT correct), 3)          AS har_i
FROM stg_best_scores
WHERE method = 'base' AND direction IN ('en-en', 'en-x') AND correct IS NOT NULL
GROUP BY aligner, model, model_label, level, level_ord, lang, lang_ord
ORDER BY aligner, model, level_ord, lang_ord;
