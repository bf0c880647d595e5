-- probe_trace(method, seed): whether a trace is one of the direction
-- probe's (paper section 3): a base trace (datg generate, or imported with
-- method base) at the probe's seed, datg_probe_seed() (42, study.ProbeSeed;
-- datg tables --probe-seed sets another; datg_probe shows it): a literal,
-- which DuckDB pushes into the traces scan, so a query holds the probe's
-- traces only, however many other seeds the run has (issue 23). The probe
-- samples every cell once at that seed, so the probe tables read one trace
-- per (model, level, problem, direction, language), en-en once: base
-- traces of other seeds
-- (datg generate --seeds 42,215,316, imports) and the controls' traces
-- (control-base, loop-retry, formula-retry) never enter them.
CREATE OR REPLACE MACRO probe_trace(method, seed) AS
    method = 'base' AND seed = datg_probe_seed();

-- datg_trace(method, seed, direction): whether a trace is one the DATG
-- tables read (datg_main, datg_full, datg_correctness,
-- datg_correctness_main): the direction probe's en-en and en-x traces.
CREATE OR REPLACE MACRO datg_trace(method, seed, direction) AS
    probe_trace(method, seed) AND direction IN ('en-en', 'en-x');
