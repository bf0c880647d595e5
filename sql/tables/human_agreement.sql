-- human_agreement: inter-annotator agreement of the human evaluation of
-- DATG, pooled over languages: Cohen's kappa per annotation layer (node and
-- edge validity, node status in the human alignments, harmful-action
-- confirmation) over the items two annotators both judged (the first two
-- by name, when there are more). kappa = (po - pe) / (1 - pe), po the share
-- of items with the same label, pe the agreement expected from each
-- annotator's own label shares; NULL when pe = 1 (one label only).
WITH ranked AS (
    SELECT trace_id, dag_id, layer, item, label,
        dense_rank() OVER (PARTITION BY trace_id, dag_id, layer, item ORDER BY annotator) AS k
    FROM annotations
    WHERE layer IN ('node', 'edge', 'status', 'harmful')
),
pairs AS (
    -- An annotator judges an item once (the import keys it so).
    SELECT layer, max(label) FILTER (WHERE k = 1) AS l1, max(label) FILTER (WHERE k = 2) AS l2
    FROM ranked
    GROUP BY trace_id, dag_id, layer, item
    HAVING count(*) FILTER (WHERE k <= 2) = 2
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
