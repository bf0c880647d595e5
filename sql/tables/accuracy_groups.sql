-- accuracy_groups: the accuracy figure's bars. Per model, level, direction
-- and resource group (HRL, MRL, LRL as the paper groups the target
-- languages), the mean of the per-language accuracies and the 95% Wilson
-- interval of the pooled counts. en-en is its own group ('en'), the pale
-- reference bar, and is not part of any group mean. Percentages. Over the
-- direction probe's traces only (probe: one per problem and cell at the
-- probe's seed), so n is problems x languages of the group.
WITH cells AS (
    SELECT model, model_label, level, level_ord, direction, direction_ord, lang,
           CASE WHEN direction = 'en-en' THEN 'en' ELSE resource END AS resource_group,
           count(*) AS n,
           count(*) FILTER (WHERE correct) AS correct
    FROM stg_graded_traces
    WHERE probe
    GROUP BY ALL
)
SELECT
    model,
    model_label,
    level,
    direction,
    resource_group,
    count(*)                                                  AS languages,
    sum(n)                                                    AS n,
    sum(correct)                                              AS correct,
    round(avg(100.0 * correct / n), 2)                        AS accuracy,
    round(100.0 * wilson_low(sum(correct), sum(n)), 2)        AS wilson_low,
    round(100.0 * wilson_high(sum(correct), sum(n)), 2)       AS wilson_high
FROM cells
GROUP BY model, model_label, level, level_ord, direction, direction_ord, resource_group
ORDER BY model, level_ord, direction_ord,
         CASE resource_group WHEN 'en' THEN 0 WHEN 'HRL' THEN 1 WHEN 'MRL' THEN 2 WHEN 'LRL' THEN 3 ELSE 4 END;
