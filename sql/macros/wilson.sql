-- wilson_low(k, n), wilson_high(k, n): bounds of the 95% Wilson score interval
-- for k successes in n trials, as fractions in [0, 1]; NULL when n = 0.
-- z = 1.959963984540054 (the 0.975 normal quantile). Clamped to [0, 1]
-- against rounding (the upper bound of 10/10 is 1, not 0.9999999999999999).
CREATE OR REPLACE MACRO wilson_low(k, n) AS
    CASE WHEN n > 0 THEN greatest(0.0,
        ((k / n) + 1.959963984540054 ^ 2 / (2 * n)
         - 1.959963984540054 * sqrt((k / n) * (1 - k / n) / n + 1.959963984540054 ^ 2 / (4 * n * n)))
        / (1 + 1.959963984540054 ^ 2 / n))
    END;

CREATE OR REPLACE MACRO wilson_high(k, n) AS
    CASE WHEN n > 0 THEN least(1.0,
        ((k / n) + 1.959963984540054 ^ 2 / (2 * n)
         + 1.959963984540054 * sqrt((k / n) * (1 - k / n) / n + 1.959963984540054 ^ 2 / (4 * n * n)))
        / (1 + 1.959963984540054 ^ 2 / n))
    END;
