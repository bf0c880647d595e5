-- stg_datg_traces: the traces the DATG tables read (datg_trace: the
-- direction probe's en-en and en-x traces), graded or not, with
-- stg_graded_traces's columns (graded_traces) but their answers from
-- stg_datg_answers, so that no join holds another trace's answer.
CREATE OR REPLACE VIEW stg_datg_traces AS
FROM graded_traces('stg_datg_answers')
WHERE datg_trace(method, seed, direction);
