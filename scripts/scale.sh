#!/usr/bin/env bash
# scripts/scale.sh N: every stage of the study at N times the paper's
# design (38,250 x N traces of real length: scripts/scaletraces), each as
# its own process, with its wall time, CPU time and peak RSS in a table.
#
#   make build && scripts/scale.sh 1
#
# Stages: ingest (PolyMath's problems), import traces, references (five
# per problem from datg's simulated model over loopback HTTP: no GPU, no
# API key; it writes the worked solutions scaletraces draws for each
# problem, 5 to 11 steps ending in the gold answer, so the symbolic DAGs
# have several nodes; the traces write the same steps, some wrong), verify (both graders), langcheck (both detectors), dags
# --builder symbolic, align --aligner symbolic (the en-en and en-x traces
# of every seed, to the five DAGs of their problem), score, tables.
#
# PolyMath's problems come from SRC (default ../shared/polymath, 125 per
# level: import needs the problems; PROBLEMS=3 writes traces, references
# and alignments for the first 3 of each level only, for a quick try);
# the traces' prose from data/demo; the worked solutions go to
# DATA.solutions.jsonl.
# BYTES_PER_TOKEN=1 writes the same traces a fifth as long (the same
# counts of traces, DAGs and alignment pairs: for score and tables, whose
# work is in those counts, not in the text).
# The run goes to DATA (default data/run/scale-N), the traces file and the
# stages' logs (DATA.STAGE.time) next to it.
#
# STAGES="verify align score" reruns only those stages over the run
# already in DATA (after a change to one of them, or to leave langcheck
# out at 10x: STAGES="ingest import references verify dags align score
# tables"). STAGES holds ingest (which also writes the traces file) or
# the run in DATA is reused as it is.
set -euo pipefail

N=${1:?usage: scripts/scale.sh N}
DATG=${DATG:-bin/datg}
SRC=${SRC:-../shared/polymath}
DATA=${DATA:-data/run/scale-$N}
TRACES=${TRACES:-$DATA.traces.jsonl}
SOLUTIONS=$DATA.solutions.jsonl
PROBLEMS=${PROBLEMS:-125} # per level; fewer for a quick try
BYTES_PER_TOKEN=${BYTES_PER_TOKEN:-5} # real lengths; 1 for a fifth of the text
STAGES=" ${STAGES:-ingest import references verify langcheck dags align score tables} "
[ -x "$DATG" ] || { echo "scale: $DATG not built (make build)" >&2; exit 1; }
wants() { [[ "$STAGES" == *" $1 "* ]]; }

if wants ingest; then
  # Only a run this script made (its marker inside) is replaced: DATA may
  # name a directory of the user's, which is never deleted.
  if [ -e "$DATA" ] && [ ! -f "$DATA/.made-by-scale.sh" ]; then
    echo "scale: $DATA exists and was not made by scale.sh; choose another DATA" >&2
    exit 1
  fi
  rm -rf "$DATA"
  mkdir -p "$DATA"
  : > "$DATA/.made-by-scale.sh"
elif [ ! -d "$DATA" ]; then
  echo "scale: no run in $DATA (STAGES must hold ingest)" >&2
  exit 1
fi

rows=()
# stage NAME CMD...: runs CMD under /usr/bin/time, records its wall time,
# CPU time (user + system) and peak RSS.
stage() {
  local name=$1; shift
  wants "${name%% *}" || return 0
  local log="$DATA.${name// /-}.time"
  echo "== $name" >&2
  /usr/bin/time -v "$@" 2>"$log" >/dev/null || { grep -v "^	" "$log" >&2; exit 1; }
  local wall user sys rss
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log")
  user=$(sed -n 's/.*User time (seconds): //p' "$log")
  sys=$(sed -n 's/.*System time (seconds): //p' "$log")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")
  rows+=("| $name | $wall | $(awk "BEGIN { printf \"%.1f s\", $user + $sys }") | $((rss / 1024)) MB |")
}

stage ingest "$DATG" ingest polymath --src "$SRC" --per-level 125 --data "$DATA"
if wants ingest; then
  echo "== writing $((306 * PROBLEMS * N)) traces to $TRACES" >&2
  start=$(date +%s)
  go run ./scripts/scaletraces -n "$N" -problems "$PROBLEMS" -bytes-per-token "$BYTES_PER_TOKEN" -demo data/demo \
    -solutions "$SOLUTIONS" -polymath "$SRC" >"$TRACES"
  echo "   $(du -h "$TRACES" | cut -f1) in $(( $(date +%s) - start )) s" >&2
fi
stage "import traces" "$DATG" import traces --in "$TRACES" --data "$DATA"

if wants references; then
  # The simulated model answers the reference prompts (right as often
  # as its profile says; datg references keeps the five it accepts).
  urls="$DATA/endpoints.txt"
  rm -f "$urls"
  "$DATG" simulate --data "$DATA" --count 2 --url-file "$urls" --solutions "$SOLUTIONS" 2>"$DATA.simulate.log" &
  sim=$!
  trap 'kill $sim 2>/dev/null || true' EXIT
  for _ in $(seq 100); do [ -s "$urls" ] && break; sleep 0.1; done
  [ -s "$urls" ] || { echo "scale: the simulator did not start; see $DATA.simulate.log" >&2; exit 1; }
  stage references "$DATG" references --data "$DATA" --endpoints "$(paste -sd, "$urls")" --model sim-reference --backoff 20ms --limit "$PROBLEMS"
  kill $sim 2>/dev/null || true
  wait $sim 2>/dev/null || true
  trap - EXIT
fi

stage verify "$DATG" verify --data "$DATA"
stage langcheck "$DATG" langcheck --data "$DATA"
stage "dags --builder symbolic" "$DATG" dags --data "$DATA" --builder symbolic
stage "align --aligner symbolic" "$DATG" align --data "$DATA" --aligner symbolic --seeds "$(seq -s, 1 "$N")" --limit "$PROBLEMS"
stage score "$DATG" score --data "$DATA"
# scaletraces numbers its seeds 1..N: the direction probe is seed 1.
stage tables "$DATG" tables --data "$DATA" --probe-seed 1

echo
echo "N = $N: $((306 * PROBLEMS * N)) traces, $(du -h "$TRACES" | cut -f1) of JSONL, $(nproc) CPUs, load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| stage | wall time | CPU time | peak RSS |"
echo "| --- | ---: | ---: | ---: |"
printf '%s\n' "${rows[@]}"
