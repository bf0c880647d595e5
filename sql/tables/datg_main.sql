-- datg_main: Table 1 of the paper. Mean CAR, PMF and HAR of the best DAG
-- per trace, per (aligner, resource group, language, level, model), for en-x
-- traces and the en-en reference row (language en). The layout puts the
-- models of a cell side by side (.94/.98/.96).
SELECT
    aligner,
    CASE WHEN direction = 'en-en' THEN 'HRL' ELSE resource END AS resource,
    lang, level, model, model_label,
    count(*)            AS n,
    round(avg(car), 2)  AS car,
    round(avg(pmf), 2)  AS pmf,
    round(avg(har), 2)  AS har
FROM stg_best_scores
WHERE method = 'base' AND direction IN ('en-en', 'en-x')
GROUP BY aligner, direction, resource, lang, lang_ord, level, level_ord, model, model_label
ORDER BY aligner, lang_ord, level_ord, model;
