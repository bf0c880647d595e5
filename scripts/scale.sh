#!/usr/bin/env bash
# scripts/scale.sh N: the stages that read every trace, at N times the
# paper's design (38,250 x N traces of real length: scripts/scaletraces),
# each as its own process, with its wall time and peak RSS in a table.
#
#   make build && scripts/scale.sh 1
#
# PolyMath's problems come from SRC (default ../shared/polymath, 125 per
# level: import needs the problems); the traces' prose from data/demo.
# The run goes to DATA (default data/run/scale-N), the traces file next to
# it. Stages run: import traces, verify (both graders), langcheck (both
# detectors). align --aligner symbolic, score and tables need reference
# derivations and DAGs for the problems and are not run here.
set -euo pipefail

N=${1:?usage: scripts/scale.sh N}
DATG=${DATG:-bin/datg}
SRC=${SRC:-../shared/polymath}
DATA=${DATA:-data/run/scale-$N}
TRACES=${TRACES:-$DATA.traces.jsonl}
PROBLEMS=${PROBLEMS:-125} # per level; fewer for a quick try
[ -x "$DATG" ] || { echo "scale: $DATG not built (make build)" >&2; exit 1; }
rm -rf "$DATA"
mkdir -p "$DATA"

rows=()
# stage NAME CMD...: runs CMD under /usr/bin/time, records time and peak RSS.
stage() {
  local name=$1; shift
  local log="$DATA.$name.time"
  echo "== $name" >&2
  /usr/bin/time -v "$@" 2>"$log" >/dev/null || { tail -20 "$log" >&2; exit 1; }
  local wall rss
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")
  rows+=("| $name | $wall | $((rss / 1024)) MB |")
}

stage ingest "$DATG" ingest polymath --src "$SRC" --per-level 125 --data "$DATA"
echo "== writing $((306 * PROBLEMS * N)) traces to $TRACES" >&2
start=$(date +%s)
go run ./scripts/scaletraces -n "$N" -problems "$PROBLEMS" -demo data/demo >"$TRACES"
echo "   $(du -h "$TRACES" | cut -f1) in $(( $(date +%s) - start )) s" >&2
stage "import traces" "$DATG" import traces --in "$TRACES" --data "$DATA"
stage verify "$DATG" verify --data "$DATA"
stage langcheck "$DATG" langcheck --data "$DATA"

echo
echo "N = $N: $((306 * PROBLEMS * N)) traces, $(du -h "$TRACES" | cut -f1) of JSONL, $(nproc) CPUs"
echo
echo "| stage | wall time | peak RSS |"
echo "| --- | ---: | ---: |"
printf '%s\n' "${rows[@]}"
