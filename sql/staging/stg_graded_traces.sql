-- stg_graded_traces: every trace with its grader verdict and the ordering
-- keys of the paper's tables (level, language and direction order, resource
-- group). Traces datg verify has not graded yet have correct = NULL;
-- answer_reason is the grader's reason (gold-unparsed: the grader could not
-- read the gold answer, and the trace counts as wrong). probe: the trace is
-- one of the direction probe's (probe_trace: a base trace at the probe's
-- seed), the only traces the probe tables read.
CREATE OR REPLACE VIEW stg_graded_traces AS FROM graded_traces('answers');
