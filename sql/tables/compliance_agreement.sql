-- compliance_agreement: the two language detectors of datg langcheck side
-- by side, on the traces of the compliance table (the direction probe's
-- traces under en-x):
-- per model, level and target language, the percentage each calls
-- compliant (langdetect: the paper's rule; lingua: datg's segment
-- detector), the traces they decide differently (disagree), and each way:
-- only_langdetect (compliant for langdetect alone) and only_lingua.
SELECT
    t.model,
    t.model_label,
    t.level,
    t.lang,
    count(*)                                                       AS n,
    count(*) FILTER (WHERE ld.compliant)                           AS compliant_langdetect,
    count(*) FILTER (WHERE li.compliant)                           AS compliant_lingua,
    round(100.0 * count(*) FILTER (WHERE ld.compliant) / count(*), 1) AS pct_langdetect,
    round(100.0 * count(*) FILTER (WHERE li.compliant) / count(*), 1) AS pct_lingua,
    count(*) FILTER (WHERE ld.compliant <> li.compliant)           AS disagree,
    count(*) FILTER (WHERE ld.compliant AND NOT li.compliant)      AS only_langdetect,
    count(*) FILTER (WHERE li.compliant AND NOT ld.compliant)      AS only_lingua
FROM stg_compliance_traces t
JOIN detections ld ON ld.trace_id = t.trace_id AND ld.detector = 'langdetect'
JOIN detections li ON li.trace_id = t.trace_id AND li.detector = 'lingua'
GROUP BY t.model, t.model_label, t.level, t.level_ord, t.lang, t.lang_ord
ORDER BY t.lang_ord, t.model, t.level_ord;
