-- mcnemar_p(b, c): two-sided p-value of the exact McNemar test for paired
-- binary outcomes with b and c discordant pairs: twice the probability of
-- at most min(b, c) successes in b + c fair coin flips, at most 1; 1 when
-- there is no discordant pair; NULL when b or c is. Binomial terms are summed in log space
-- (lgamma) so thousands of pairs do not overflow.
CREATE OR REPLACE MACRO mcnemar_p(b, c) AS
    CASE WHEN b IS NOT NULL AND c IS NOT NULL THEN least(1.0, 2 * (
        SELECT sum(exp(lgamma(b + c + 1) - lgamma(i + 1) - lgamma(b + c - i + 1) - (b + c) * ln(2)))
        FROM range(0, least(b, c) + 1) t(i)))
    END;
