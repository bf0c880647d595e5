#!/usr/bin/env bash
# How much the DAG size guidance (datg dags --budget) moves mean CAR and PMF
# on the demo, with datg's simulated model (BENCHMARKS.md, "DAG budget").
# One run of ingest, generate (Qwen3-4B, en-en and en-x, sw and te),
# references and verify is shared; then, per budget, dags (the simulated
# LLM builder), align (the simulated LLM aligner) and score, and the mean
# CAR and PMF of the best DAG per trace. Usage: scripts/dag_budget.sh
# [BUDGET ...], each BUDGET as datg dags --budget takes it.
set -euo pipefail

DATG=${DATG:-bin/datg}
SRC=${SRC:-data/demo}
WORK=${WORK:-$(mktemp -d)}
if [ $# -eq 0 ]; then
  set -- "low=2/60/3,medium=2/60/3,high=3/60/4" "low=3/60/3,medium=4/60/3,high=5/60/4" "low=5/60/3,medium=7/60/3,high=9/60/4" "low=8/60/3,medium=12/60/3,high=16/60/4"
fi

base="$WORK/base"
mkdir -p "$base"
"$DATG" ingest polymath --src "$SRC" --per-level 5 --data "$base" >/dev/null 2>>"$WORK/log"
urls="$WORK/endpoints.txt"
"$DATG" simulate --data "$base" --count 2 --url-file "$urls" --solutions "$SRC/solutions.jsonl" 2>"$WORK/simulate.log" &
sim=$!
trap 'kill $sim 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$urls" ] && break; sleep 0.1; done
endpoints=$(paste -sd, "$urls")
llm=(--endpoints "$endpoints" --backoff 20ms)
"$DATG" generate --data "$base" "${llm[@]}" --models Qwen/Qwen3-4B --directions en-en,en-x --langs en,sw,te >/dev/null 2>>"$WORK/log"
"$DATG" references --data "$base" "${llm[@]}" --model sim-reference >/dev/null 2>>"$WORK/log"
"$DATG" verify --data "$base" >/dev/null 2>>"$WORK/log"

printf '| budget (nodes/description chars/parents by level) | DAGs | mean nodes | scored traces | mean CAR | mean PMF |\n| --- | --- | --- | --- | --- | --- |\n'
for budget in "$@"; do
  run="$WORK/run-$(echo "$budget" | tr -c 'a-z0-9' '_')"
  rm -rf "$run"
  cp -r "$base" "$run"
  "$DATG" dags --data "$run" "${llm[@]}" --model sim-dag-builder --budget "$budget" >/dev/null 2>>"$WORK/log"
  "$DATG" align --data "$run" "${llm[@]}" --model sim-aligner >/dev/null 2>>"$WORK/log"
  "$DATG" score --data "$run" >/dev/null 2>>"$WORK/log"
  row=$("$DATG" sql --data "$run" --format csv "
    select (select count(*) from dags where valid), (select round(avg(n_nodes), 2) from dags where valid),
           count(*), round(avg(car), 4), round(avg(pmf), 4)
    from scores where best" | tail -1 | tr ',' '|')
  echo "| $budget | ${row//|/ | } |"
done
