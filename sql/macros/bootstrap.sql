-- poisson1(h): a Poisson(1) draw from a 64-bit hash h, the weight of one
-- observation in one replicate of a Poisson bootstrap (Hanley and MacGibbon,
-- 2006): resampling n observations with replacement gives each a
-- Binomial(n, 1/n) count, which Poisson(1) approximates, and weights need no
-- join. Hashing (seed, replicate, id) makes the draws fixed: the same run
-- gives the same intervals.
CREATE OR REPLACE MACRO poisson1(h) AS
    CASE
        WHEN (h % 1000000) < 367879 THEN 0
        WHEN (h % 1000000) < 735759 THEN 1
        WHEN (h % 1000000) < 919699 THEN 2
        WHEN (h % 1000000) < 981012 THEN 3
        WHEN (h % 1000000) < 996340 THEN 4
        WHEN (h % 1000000) < 999406 THEN 5
        ELSE 6
    END;

-- bootstrap_draw(key, b): the hash poisson1 draws replicate b's weight of
-- the observation with text key from, the same in every DuckDB release
-- (hash() is release-specific: draws made with it changed when DuckDB was
-- upgraded). The key is hashed once (the low 32 bits of its MD5, key_hash);
-- each replicate mixes it with the replicate number through MurmurHash3's
-- 32-bit finalizer, in UBIGINT arithmetic that cannot overflow. MD5 per
-- draw cost four times as much at the paper's size.
CREATE OR REPLACE MACRO key_hash(key) AS md5_number_lower(key) % 4294967296;
CREATE OR REPLACE MACRO fmix32_shift(x, s) AS xor(x, x >> s);
CREATE OR REPLACE MACRO fmix32(x) AS
    fmix32_shift((fmix32_shift((fmix32_shift(x::UBIGINT, 16) * 2246822507) % 4294967296, 13) * 3266489909) % 4294967296, 16);
CREATE OR REPLACE MACRO bootstrap_draw(h, b) AS fmix32(xor(h, fmix32(b + 1)));

-- trace_draw_key(trace_id): the key of a trace's bootstrap draws in the
-- DATG tables (datg_main, datg_correctness_main, datg_correctness,
-- datg_full): one fixed seed for all of them, so the same replicates weigh
-- a trace in every table and a rerun gives the same bounds.
CREATE OR REPLACE MACRO trace_draw_key(trace_id) AS key_hash('20261122/' || trace_id);
