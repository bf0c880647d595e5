-- stg_datg_answers: the answers of the traces the DATG tables read
-- (datg_trace: the direction probe's en-en and en-x traces), narrowed by
-- their ids before any join: the DATG tables' traces are joined with
-- these, not with every answer of the run. Joined whole, DuckDB chose by its estimates which side of
-- traces JOIN answers to hold in the join's hash table, and held every
-- answer of the run when they tied (389,250 at ten times the paper's
-- design, for 12,375 traces: issue 23). A semi join on the ids of the
-- traces (whose filter DuckDB pushes into the traces scan) holds those ids
-- alone; materialized, so that DuckDB cannot move it above the join it is
-- to narrow (it reorders semi joins with inner ones).
CREATE OR REPLACE VIEW stg_datg_answers AS
WITH narrowed AS MATERIALIZED (
    SELECT * FROM answers
    WHERE trace_id IN (SELECT trace_id FROM traces WHERE datg_trace(method, seed, direction))
)
SELECT * FROM narrowed;
