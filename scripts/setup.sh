#!/usr/bin/env bash
# The main job on a fresh machine: install what is needed, build, then run
# the shipped kernels and report their error against float64 references.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
build=${TESSERA_BUILD_DIR:-$root/build}
echo
echo "== tile IR of the example GEMM (bf16 in, f32 out) =="
"$build/bin/tessera" print gemm --dtype bf16
echo
"$build/bin/tessera" demo
