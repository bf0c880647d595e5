#!/usr/bin/env bash
# Test-time controls against Base (datg control --method base) on datg's
# SIMULATED model: the paper's scope (Qwen3-4B, en-x, Swahili and Telugu,
# low/medium/high, seeds 42 215 316) over a PolyMath copy, through the real
# CLI and real HTTP. Prints
# Table 3 (control.md) and the decoded-token totals. Run through
# `make control-eval` (SRC=DIR for the PolyMath copy, default ../shared/polymath).
set -euo pipefail

DATG=${DATG:-bin/datg}
SRC=${SRC:-../shared/polymath}
DATA=${EVAL_DATA:-data/run/control-eval}
rm -rf "$DATA"
mkdir -p "$DATA"
start=$(date +%s)

"$DATG" ingest polymath --src "$SRC" --langs en,sw,te --data "$DATA"
urls="$DATA/endpoints.txt"
"$DATG" simulate --data "$DATA" --count 8 --url-file "$urls" --scaffold-leak-rate 0.2 2>"$DATA/simulate.log" &
sim=$!
trap 'kill $sim 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$urls" ] && break; sleep 0.1; done
endpoints=$(paste -sd, "$urls")
scope=(--models Qwen/Qwen3-4B --directions en-x --langs sw,te --seeds 42,215,316)

"$DATG" control --data "$DATA" --method base --endpoints "$endpoints" "${scope[@]}"
"$DATG" control --data "$DATA" --method loop-retry --endpoints "$endpoints" "${scope[@]}"
"$DATG" control --data "$DATA" --method formula-retry --endpoints "$endpoints" "${scope[@]}"
"$DATG" verify --data "$DATA"
"$DATG" tables --data "$DATA" >/dev/null

cat "$DATA/tables/control.md"
echo
"$DATG" sql --data "$DATA" "select method, count(*) as examples, sum(tokens) as tokens, round(100.0 * avg(correct::int), 1) as accuracy, sum(trials) as trials, sum(forced::int) as forced from stg_control_examples group by all order by 1"
echo "done in $(( $(date +%s) - start ))s"
