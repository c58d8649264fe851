#!/usr/bin/env bash
# Runs every GPU test of the bundle on the GPU host and prints a short
# summary last. Logs go to $OUT when set (the device tool), else ./logs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
logs=${OUT:-$here/logs}
mkdir -p "$logs"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$logs/gpu.txt" 2>&1
date -u +%Y-%m-%dT%H:%M:%SZ >> "$logs/gpu.txt"

# cuBLAS and the CUDA runtime for the benchmark baseline.
export LD_LIBRARY_PATH=${CUDA_HOME:-/usr/local/cuda}/lib64:${LD_LIBRARY_PATH:-}
status=0
run() { # name, command...
  local name=$1; shift
  local start=$(date +%s%N)
  "$@" > "$logs/$name.log" 2>&1
  local rc=$?
  local ms=$(( ($(date +%s%N) - start) / 1000000 ))
  [ $rc -eq 0 ] || status=1
  printf '%-16s rc=%d  %6d ms  %s\n' "$name" "$rc" "$ms" "$(tail -n 1 "$logs/$name.log")" >> "$logs/summary.txt"
}
: > "$logs/summary.txt"
run runtime-smoke "$here/runtime-smoke"
run gpu-cases "$here/tessera-gpu-run" "$here/cases"
if [ -x "$here/tessera-gemm-bench" ]; then
  run gemm-bench "$here/tessera-gemm-bench" "$here/gemm_bf16.ptx" "$here/gemm_bf16.json" --sizes 4096,8192
  run gemm-bench-hints "$here/tessera-gemm-bench" "$here/gemm_bf16_hints.ptx" "$here/gemm_bf16.json" --sizes 4096,8192
  echo "== default (no inserted hints)"; cat "$logs/gemm-bench.log"
  echo "== with tile-insert-latency-hints"; cat "$logs/gemm-bench-hints.log"
fi

echo "== failures =="
grep -h "^FAIL" "$logs"/*.log | head -40
echo "== summary ($(cat "$logs/gpu.txt" | head -1)) =="
cat "$logs/summary.txt"
exit $status
