-- compliance: reasoning-language compliance under en-x (appendix table
-- "Reasoning language compliance"): per model, level and target language,
-- the percentage of the direction probe's traces whose reasoning is in the
-- requested language alone (datg langcheck), with the count and a 95%
-- Wilson interval.
SELECT
    t.model,
    t.model_label,
    t.level,
    t.lang,
    count(*)                                                  AS n,
    count(*) FILTER (WHERE c.compliant)                       AS compliant,
    round(100.0 * count(*) FILTER (WHERE c.compliant) / count(*), 1)            AS pct,
    round(100.0 * wilson_low(count(*) FILTER (WHERE c.compliant), count(*)), 1)  AS wilson_low,
    round(100.0 * wilson_high(count(*) FILTER (WHERE c.compliant), count(*)), 1) AS wilson_high
FROM stg_compliance_traces t
JOIN compliance c USING (trace_id)
GROUP BY t.model, t.model_label, t.level, t.level_ord, t.lang, t.lang_ord
ORDER BY t.lang_ord, t.model, t.level_ord;
