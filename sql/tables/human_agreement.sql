-- human_agreement: inter-annotator agreement of the human evaluation of
-- DATG, pooled over languages: Cohen's kappa per annotation layer (node and
-- edge validity, node status in the human alignments, harmful-action
-- confirmation) over the items two annotators both judged (the first two
-- by name, when there are more). kappa = (po - pe) / (1 - pe), po the share
-- of items with the same label, pe the agreement expected from each
-- annotator's own label shares; NULL when pe = 1 (one label only).
WITH judged AS (
    SELECT trace_id, dag_id, layer, item,
        min(annotator) AS first, max(annotator) AS second
    FROM annotations
    WHERE layer IN ('node', 'edge', 'status', 'harmful')
    GROUP BY ALL
    HAVING count(DISTINCT annotator) >= 2
),
pairs AS (
    SELECT j.layer, a.label AS l1, b.label AS l2
    FROM judged j
    JOIN annotations a ON a.trace_id = j.trace_id AND a.dag_id = j.dag_id AND a.layer = j.layer AND a.item = j.item AND a.annotator = j.first
    JOIN annotations b ON b.trace_id = j.trace_id AND b.dag_id = j.dag_id AND b.layer = j.layer AND b.item = j.item
        AND b.annotator = (SELECT min(annotator) FROM annotations x
                           WHERE x.trace_id = j.trace_id AND x.dag_id = j.dag_id AND x.layer = j.layer AND x.item = j.item AND x.annotator > j.first)
),
observed AS (
    SELECT layer, count(*) AS items, avg((l1 = l2)::INTEGER) AS po FROM pairs GROUP BY layer
),
shares AS (
    SELECT layer, label, sum(n1) / sum(sum(n1)) OVER (PARTITION BY layer) AS p1, sum(n2) / sum(sum(n2)) OVER (PARTITION BY layer) AS p2
    FROM (
        SELECT layer, l1 AS label, 1 AS n1, 0 AS n2 FROM pairs
        UNION ALL
        SELECT layer, l2, 0, 1 FROM pairs
    )
    GROUP BY layer, label
),
expected AS (
    SELECT layer, sum(p1 * p2) AS pe FROM shares GROUP BY layer
)
SELECT o.layer, o.items, round(o.po, 3) AS observed, round(e.pe, 3) AS expected,
    round(CASE WHEN e.pe < 1 THEN (o.po - e.pe) / (1 - e.pe) END, 3) AS kappa
FROM observed o
JOIN expected e USING (layer)
ORDER BY CASE o.layer WHEN 'node' THEN 0 WHEN 'edge' THEN 1 WHEN 'status' THEN 2 ELSE 3 END;
