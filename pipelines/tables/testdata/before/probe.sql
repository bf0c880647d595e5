-- probe_trace(method, seed): whether a trace is one of the direction
-- probe's (paper section 3): a base trace (datg generate, or imported with
-- method base) at the probe's seed, datg_probe.seed (42, study.ProbeSeed;
-- datg tables --probe-seed sets another). The probe samples every cell
-- once at that seed, so the probe tables read one trace per (model, level,
-- problem, direction, language), en-en once: base traces of other seeds
-- (datg generate --seeds 42,215,316, imports) and the controls' traces
-- (control-base, loop-retry, formula-retry) never enter them.
CREATE OR REPLACE MACRO probe_trace(method, seed) AS
    method = 'base' AND seed = (SELECT datg_probe.seed FROM datg_probe);
