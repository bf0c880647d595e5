#!/usr/bin/env bash
# Start one vLLM OpenAI-compatible server per GPU for MODEL and wait until
# every one answers; print their base URLs, comma-separated, for
# `datg generate --endpoints`.
#
#   scripts/serve_vllm.sh Qwen/Qwen3-4B            # 8 GPUs, ports 8000-8007
#   GPUS=4 BASE_PORT=9000 scripts/serve_vllm.sh Qwen/Qwen3-8B
#
# Settings are the paper's (appendix G): max_num_seqs 16,
# max_num_batched_tokens 8192, gpu_memory_utilization 0.82. Servers run in
# the background with logs in $LOG_DIR; stop them with `kill $(cat $LOG_DIR/pids)`.
#
# --max-model-len is the study's largest budget (MAX_BUDGET, default the
# paper's 16384; pass 32768 for a 32k study) plus PROMPT_MARGIN (2048, the
# margin datg checks against) plus SCAFFOLD_BUDGET (4096, the Formula-Retry
# scaffold a controlled prompt holds); datg reads max_model_len back from
# /v1/models and refuses a plan that does not fit before it sends anything.
#
# --trust-request-chat-template: `datg generate --api chat` sends its own
# chat template with each request (the Qwen3 ChatML rendering that lets the
# model continue an assistant turn that opened <think>; Qwen3's own template
# would close thinking). vLLM refuses request templates (400) unless started
# with this flag. datg sends the template rather than relying on a
# server-side --chat-template so that the rendering is part of each request
# (and its journal key), whatever the server was started with; keep the
# servers on loopback or behind VLLM_API_KEY, as any client may send one.
# The completions API (the default) needs no template at all.
# With VLLM_API_KEY set, the servers require that key (give datg the same
# key through OPENAI_API_KEY or --api-key-env VLLM_API_KEY).
set -euo pipefail

MODEL=${1:?usage: serve_vllm.sh MODEL}
GPUS=${GPUS:-8}
BASE_PORT=${BASE_PORT:-8000}
HOST=${HOST:-127.0.0.1}
LOG_DIR=${LOG_DIR:-vllm-logs}
TIMEOUT=${TIMEOUT:-1200}          # seconds to wait for all servers
MAX_BUDGET=${MAX_BUDGET:-16384}        # the study's largest budget (study.json budgets)
PROMPT_MARGIN=${PROMPT_MARGIN:-2048}    # room for the prompt (datg generate.PromptMargin)
SCAFFOLD_BUDGET=${SCAFFOLD_BUDGET:-4096} # a Formula-Retry scaffold in the prompt
MAX_MODEL_LEN=${MAX_MODEL_LEN:-$((MAX_BUDGET + PROMPT_MARGIN + SCAFFOLD_BUDGET))}

command -v vllm >/dev/null || { echo "serve_vllm.sh: vllm is not installed (pip install vllm)" >&2; exit 1; }
mkdir -p "$LOG_DIR"
: > "$LOG_DIR/pids"
key_args=()
[ -n "${VLLM_API_KEY:-}" ] && key_args=(--api-key "$VLLM_API_KEY")
urls=()
pids=()
for ((i = 0; i < GPUS; i++)); do
  port=$((BASE_PORT + i))
  CUDA_VISIBLE_DEVICES=$i nohup vllm serve "$MODEL" \
    --host "$HOST" --port "$port" \
    --max-num-seqs 16 \
    --max-num-batched-tokens 8192 \
    --gpu-memory-utilization 0.82 \
    --max-model-len "$MAX_MODEL_LEN" \
    --enable-prefix-caching \
    --trust-request-chat-template \
    "${key_args[@]}" \
    >"$LOG_DIR/vllm-gpu$i.log" 2>&1 &
  echo $! >>"$LOG_DIR/pids"
  pids+=($!)
  urls+=("http://$HOST:$port/v1")
done

auth=()
[ -n "${VLLM_API_KEY:-}" ] && auth=(-H "Authorization: Bearer $VLLM_API_KEY")
deadline=$((SECONDS + TIMEOUT))
for i in "${!urls[@]}"; do
  url=${urls[$i]}
  until curl -sf "${auth[@]}" "$url/models" >/dev/null; do
    if ! kill -0 "${pids[$i]}" 2>/dev/null; then
      echo "serve_vllm.sh: the server for $url (GPU $i) exited; see $LOG_DIR/vllm-gpu$i.log" >&2
      exit 1
    fi
    if ((SECONDS > deadline)); then
      echo "serve_vllm.sh: $url did not answer within ${TIMEOUT}s; see $LOG_DIR" >&2
      exit 1
    fi
    sleep 5
  done
  echo "serve_vllm.sh: $url is up" >&2
done
(IFS=,; echo "${urls[*]}")
