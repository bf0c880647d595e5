-- wilson_low(k, n), wilson_high(k, n): bounds of the 95% Wilson score interval
-- for k successes in n trials, as fractions in [0, 1]; NULL when n = 0.
-- z = 1.959963984540054 (the 0.975 normal quantile).
CREATE OR REPLACE MACRO wilson_low(k, n) AS
    CASE WHEN n > 0 THEN
        ((k / n) + 1.959963984540054 ^ 2 / (2 * n)
         - 1.959963984540054 * sqrt((k / n) * (1 - k / n) / n + 1.959963984540054 ^ 2 / (4 * n * n)))
        / (1 + 1.959963984540054 ^ 2 / n)
    END;

CREATE OR REPLACE MACRO wilson_high(k, n) AS
    CASE WHEN n > 0 THEN
        ((k / n) + 1.959963984540054 ^ 2 / (2 * n)
         + 1.959963984540054 * sqrt((k / n) * (1 - k / n) / n + 1.959963984540054 ^ 2 / (4 * n * n)))
        / (1 + 1.959963984540054 ^ 2 / n)
    END;
