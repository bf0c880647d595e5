-- stg_harmful_candidates: the aligners' harmful actions as candidates of
-- the human audit, each with the quote an annotator judges it by (quote:
-- the key of the annotations' harmful layer). The quote is the action's
-- evidence_span, or its evidence when the span is blank: the paper's
-- degenerate_steps carry no evidence_span ({"evidence", "category"}), and
-- datg align locates such an action by its evidence the same way. An
-- action that quotes nothing has no quote (NULL) and cannot be judged; it
-- is still a candidate.
CREATE OR REPLACE VIEW stg_harmful_candidates AS
SELECT trace_id, dag_id, aligner, category, seq, evidence, evidence_span,
    CASE WHEN trim(evidence_span) <> '' THEN evidence_span
         WHEN trim(evidence) <> '' THEN evidence
    END AS quote
FROM harmful_actions;
