#!/usr/bin/env bash
# The whole study on one machine with no GPU and no API key: ingest a problem
# set, sample traces from datg's SIMULATED model over real HTTP (four
# endpoints, a few injected server errors), grade them, and write the paper's
# tables. Run through `make demo` (SRC=DIR for another PolyMath copy).
set -euo pipefail

DATG=${DATG:-bin/datg}
SRC=${SRC:-data/demo}
if [ "$SRC" = "data/demo" ]; then
  DATA=${DEMO_DATA:-data/run/demo}
  PER_LEVEL=5
  LIMIT=${LIMIT:-}
else
  DATA=${DEMO_DATA:-data/run/demo-$(basename "$SRC")}
  PER_LEVEL=125
  LIMIT=${LIMIT:-10}
fi
mkdir -p "$DATA"
start=$(date +%s)

echo "== ingest $SRC"
"$DATG" ingest polymath --src "$SRC" --per-level "$PER_LEVEL" --data "$DATA"

echo "== simulate: 4 OpenAI-compatible endpoints on loopback (a simulated model, not an LLM)"
urls="$DATA/endpoints.txt"
rm -f "$urls"
"$DATG" simulate --data "$DATA" --count 4 --url-file "$urls" --error-rate 0.02 --latency 5ms 2>"$DATA/simulate.log" &
sim=$!
trap 'kill $sim 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$urls" ] && break; sleep 0.1; done
[ -s "$urls" ] || { echo "demo: the simulator did not start; see $DATA/simulate.log" >&2; exit 1; }

echo "== generate: the paper's study (3 models x 4 directions x 12 languages x 3 levels)"
limit_flag=()
[ -n "$LIMIT" ] && limit_flag=(--limit "$LIMIT")
"$DATG" generate --data "$DATA" --endpoints "$(paste -sd, "$urls")" --backoff 20ms "${limit_flag[@]}"

echo "== verify"
"$DATG" verify --data "$DATA"

echo "== langcheck"
"$DATG" langcheck --data "$DATA"

echo "== tables"
"$DATG" tables --data "$DATA"

cat <<MSG

Done in $(( $(date +%s) - start ))s. Outputs (the numbers come from a simulated model):
  tables:  $DATA/tables/  (direction_accuracy.md and compliance.md are the paper's appendix tables)
  Parquet: $DATA/problems.parquet $DATA/traces.parquet $DATA/answers.parquet $DATA/compliance.parquet
  journal: $DATA/journal/llm/  (rerun 'make demo' and nothing is requested again)
Try:
  $DATG sql --data $DATA "select direction, round(avg(correct::int) * 100, 1) as acc from traces join answers using (trace_id) group by 1 order by 1"
MSG
