-- stg_compliance_traces: the traces the language-compliance tables are
-- over (compliance, compliance_agreement): the direction probe's en-x
-- traces (probe), each with its cell (model, level, target language) and
-- the cell's ordering keys.
CREATE OR REPLACE VIEW stg_compliance_traces AS
SELECT trace_id, model, model_label, level, level_ord, lang, lang_ord
FROM stg_graded_traces
WHERE probe AND direction = 'en-x';
