-- datg_full: mean CAR, PMF and HAR of the best DAG per trace, for every
-- (aligner, model, level, language) of the diagnosis: en-x traces, with
-- en-en as language en (appendix "Full DATG results"). PMF means leave out
-- DAGs without edges.
SELECT
    aligner, model, model_label, level, lang, resource,
    count(*)                 AS n,
    round(avg(car), 3)       AS car,
    round(avg(pmf), 3)       AS pmf,
    round(avg(har), 3)       AS har
FROM stg_best_scores
WHERE method = 'base' AND direction IN ('en-en', 'en-x')
GROUP BY aligner, model, model_label, level, level_ord, lang, lang_ord, resource
ORDER BY aligner, lang_ord, model, level_ord;
