#!/usr/bin/env bash
# Start one vLLM OpenAI-compatible server per GPU for MODEL and wait until
# every one answers; print their base URLs, comma-separated, for
# `datg generate --endpoints`.
#
#   pipelines/vllm/serve.sh Qwen/Qwen3-4B            # 8 GPUs, ports 8000-8007
#   GPUS=4 BASE_PORT=9000 pipelines/vllm/serve.sh Qwen/Qwen3-8B
#
# Settings are the paper's (appendix G): max_num_seqs 16,
# max_num_batched_tokens 8192, gpu_memory_utilization 0.82. Servers run in
# the background with logs in $LOG_DIR; stop them with `kill $(cat $LOG_DIR/pids)`.
set -euo pipefail

MODEL=${1:?usage: serve.sh MODEL}
GPUS=${GPUS:-8}
BASE_PORT=${BASE_PORT:-8000}
HOST=${HOST:-127.0.0.1}
LOG_DIR=${LOG_DIR:-vllm-logs}
TIMEOUT=${TIMEOUT:-1200}          # seconds to wait for all servers
MAX_MODEL_LEN=${MAX_MODEL_LEN:-20480}  # prompt + the 16384-token high-level budget

command -v vllm >/dev/null || { echo "serve.sh: vllm is not installed (pip install vllm)" >&2; exit 1; }
mkdir -p "$LOG_DIR"
: > "$LOG_DIR/pids"
urls=()
for ((i = 0; i < GPUS; i++)); do
  port=$((BASE_PORT + i))
  CUDA_VISIBLE_DEVICES=$i nohup vllm serve "$MODEL" \
    --host "$HOST" --port "$port" \
    --max-num-seqs 16 \
    --max-num-batched-tokens 8192 \
    --gpu-memory-utilization 0.82 \
    --max-model-len "$MAX_MODEL_LEN" \
    --enable-prefix-caching \
    >"$LOG_DIR/vllm-gpu$i.log" 2>&1 &
  echo $! >>"$LOG_DIR/pids"
  urls+=("http://$HOST:$port/v1")
done

deadline=$((SECONDS + TIMEOUT))
for url in "${urls[@]}"; do
  until curl -sf "$url/models" >/dev/null; do
    if ((SECONDS > deadline)); then
      echo "serve.sh: $url did not answer within ${TIMEOUT}s; see $LOG_DIR" >&2
      exit 1
    fi
    sleep 5
  done
  echo "serve.sh: $url is up" >&2
done
(IFS=,; echo "${urls[*]}")
