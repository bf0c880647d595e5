#!/usr/bin/env bash
# The whole study on one machine with no GPU and no API key: ingest a problem
# set, sample traces from datg's SIMULATED model over real HTTP (four
# endpoints, a few injected server errors and malformed JSON replies), grade
# them, write reference derivations, build their DAGs, align the traces to
# them (the simulated LLM aligner and the symbolic one), score, run the
# test-time controls (Loop-Retry, Formula-Retry) against Base, and write the
# paper's tables. Run through `make demo` (SRC=DIR for another PolyMath copy).
set -euo pipefail

DATG=${DATG:-bin/datg}
SRC=${SRC:-data/demo}
if [ "$SRC" = "data/demo" ]; then
  DATA=${DEMO_DATA:-data/run/demo}
  PER_LEVEL=5
  LIMIT=${LIMIT:-}
  SOLUTIONS=(--solutions data/demo/solutions.jsonl)
else
  DATA=${DEMO_DATA:-data/run/demo-$(basename "$SRC")}
  PER_LEVEL=125
  LIMIT=${LIMIT:-10}
  SOLUTIONS=()
fi
mkdir -p "$DATA"
start=$(date +%s)

echo "== ingest $SRC"
"$DATG" ingest polymath --src "$SRC" --per-level "$PER_LEVEL" --data "$DATA"

echo "== simulate: 4 OpenAI-compatible endpoints on loopback (a simulated model, not an LLM)"
urls="$DATA/endpoints.txt"
rm -f "$urls"
"$DATG" simulate --data "$DATA" --count 4 --url-file "$urls" --error-rate 0.02 --latency 5ms "${SOLUTIONS[@]}" \
  --json-fenced-rate 0.05 --json-malformed-rate 0.02 --dag-cycle-rate 0.1 \
  --unknown-node-rate 0.01 --absent-span-rate 0.02 --bad-status-rate 0.01 --scaffold-leak-rate 0.2 2>"$DATA/simulate.log" &
sim=$!
trap 'kill $sim 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$urls" ] && break; sleep 0.1; done
[ -s "$urls" ] || { echo "demo: the simulator did not start; see $DATA/simulate.log" >&2; exit 1; }

echo "== generate: the paper's study (3 models x 4 directions x 12 languages x 3 levels)"
limit_flag=()
[ -n "$LIMIT" ] && limit_flag=(--limit "$LIMIT")
endpoints=$(paste -sd, "$urls")
"$DATG" generate --data "$DATA" --endpoints "$endpoints" --backoff 20ms "${limit_flag[@]}"

echo "== control: Table 3's Base, Loop-Retry and Formula-Retry on the paper's scope (Qwen3-4B, en-x, sw and te, seeds 42 215 316)"
scope=(--models Qwen/Qwen3-4B --directions en-x --langs sw,te --seeds 42,215,316)
"$DATG" control --data "$DATA" --method base --endpoints "$endpoints" --backoff 20ms "${scope[@]}" "${limit_flag[@]}"
"$DATG" control --data "$DATA" --method loop-retry --endpoints "$endpoints" --backoff 20ms "${scope[@]}" "${limit_flag[@]}"
"$DATG" control --data "$DATA" --method formula-retry --endpoints "$endpoints" --backoff 20ms "${scope[@]}" "${limit_flag[@]}"

echo "== references: five accepted English derivations per problem"
"$DATG" references --data "$DATA" --endpoints "$endpoints" --model sim-reference --backoff 20ms "${limit_flag[@]}"

echo "== verify: grade every trace (the references and controlled traces too)"
"$DATG" verify --data "$DATA"

echo "== langcheck"
"$DATG" langcheck --data "$DATA"

echo "== dags: one DAG of math anchors per reference (LLM builder, one repair when invalid)"
"$DATG" dags --data "$DATA" --endpoints "$endpoints" --model sim-dag-builder --backoff 20ms

echo "== align: en-en and en-x traces to every DAG of their problem, by two aligners"
"$DATG" align --data "$DATA" --endpoints "$endpoints" --model sim-aligner --backoff 20ms "${limit_flag[@]}"
"$DATG" align --data "$DATA" --aligner symbolic "${limit_flag[@]}"
"$DATG" align --data "$DATA" --endpoints "$endpoints" --model sim-aligner --backoff 20ms --references "${limit_flag[@]}"

echo "== score"
"$DATG" score --data "$DATA"

echo "== tables"
"$DATG" tables --data "$DATA"

cat <<MSG

Done in $(( $(date +%s) - start ))s. Outputs (the numbers come from a simulated model):
  tables:  $DATA/tables/  (index.md says which file is which table of the paper: datg_main
           is Table 1, datg_correctness_main Table 2, control Table 3; paper.tex inputs them
           all: cd $DATA/tables && pdflatex paper.tex)
  Parquet: $DATA/*.parquet (problems traces answers compliance derivations dags nodes edges
           alignments alignment_events harmful_actions alignment_errors scores trials)
  journal: $DATA/journal/llm/  (rerun 'make demo' and nothing is requested again)
Try:
  $DATG view --data $DATA      # a local web viewer: http://127.0.0.1:8080/ (every trace, facets, search, DAGs, tables)
  $DATG explain --data $DATA   # an HTML page per aligned trace: $DATA/explain/index.html
  $DATG sql --data $DATA "select direction, round(avg(correct::int) * 100, 1) as acc from traces join answers using (trace_id) group by 1 order by 1"
  $DATG sql --data $DATA "select method, level, count(*) as attempts, sum(aborted::int) as aborted, sum(completion_tokens) as tokens from trials group by all order by all"
  $DATG sql --data $DATA "select aligner, correct, round(avg(car), 3) as car, round(avg(pmf), 3) as pmf, round(avg(har), 3) as har from stg_best_scores where direction = 'en-x' group by all order by all"
MSG
