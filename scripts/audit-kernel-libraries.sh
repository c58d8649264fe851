#!/usr/bin/env bash
# Builds the shipped SSD and conv kernel libraries into WORKDIR and audits
# every kernel with ptxas against test/gpu/ptxas-ledger.txt: accepted for
# sm_90a, Tensor Core MMA, no spills beyond the ledger's known ones
# (scripts/audit-ptxas.py; exit 77 without ptxas).
#   scripts/audit-kernel-libraries.sh TESSERA TILE_COMPILE WORKDIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# The libraries as shipped: no variant knobs of the build scripts.
unset TILE_COMPILE_FLAGS TILE_COMPILE_EXTRA TILE_COMPILE_DROP SSD_BENCH_ONLY
tessera=$1 compile=$2 work=$3
ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
if [ ! -x "$ptxas" ]; then
  echo "SKIP: no ptxas at $ptxas (CUDA toolkit not installed)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
"$root/scripts/build-ssd-kernels.sh" "$tessera" "$compile" "$work/ssd"
"$root/scripts/build-conv-kernels.sh" "$tessera" "$compile" "$work/conv"
exec python3 "$root/scripts/audit-ptxas.py" "$root/test/gpu/ptxas-ledger.txt" \
  "$work/ssd" "$work/conv" --ptxas "$ptxas"
