-- model_label(model): the short name the paper's tables use for a model,
-- e.g. 'Qwen/Qwen3-1.7B' -> '1.7B'; other names are kept whole.
CREATE OR REPLACE MACRO model_label(model) AS
    coalesce(nullif(regexp_extract(model, '([0-9]+(\.[0-9]+)?[BbMm])$', 1), ''), model);

-- target_lang(direction, input_lang, reasoning_lang): the language a
-- direction's cell is reported under (x, or en for en-en).
CREATE OR REPLACE MACRO target_lang(direction, input_lang, reasoning_lang) AS
    CASE direction WHEN 'x-en' THEN input_lang ELSE reasoning_lang END;
