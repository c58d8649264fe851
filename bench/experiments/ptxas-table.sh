#!/usr/bin/env bash
# One line per kernel of every DIR/*.ptx: folder, kernel, bytes spilled,
# registers (ptxas -v for sm_90a). Used by the experiments' make.sh.
#   bench/experiments/ptxas-table.sh DIR...
set -euo pipefail
ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
for d in "$@"; do
  for f in "$d"/*.ptx; do
    "$ptxas" -arch=sm_90a -v "$f" -o /dev/null 2>&1 | awk -v dir="$(basename "$d")" '
      /Compiling entry function/ { split($0, q, "\047"); k = q[2] }
      /bytes spill stores/ { s = $5 }
      /Used [0-9]* registers/ { print dir, k, s " bytes spilled,", $5, "registers" }'
  done
done
