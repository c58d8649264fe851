#!/usr/bin/env bash
# Compiles the fused SSD forward variants the GPU checks and benchmarks use
# into a kernel library folder (ssd::KernelLibrary reads <name>.ptx and
# <name>.json). Prefetch stages as measured on the H200 (bench/RESULTS.md):
# two (two CTAs of the dstate-128 kernel fit one SM; 2.71 ms with four),
# three at dstate 64 (1.08 ms, 1.20 with two).
#   scripts/build-ssd-kernels.sh TESSERA TILE_COMPILE OUTDIR
set -euo pipefail
tessera=$1 compile=$2 out=$3
mkdir -p "$out"
build() { # dtype dstate headdim options
  local stages=2 tmp
  [ "$2" -le 64 ] && stages=3
  tmp=$(mktemp -d)
  "$tessera" print ssd-fused --dtype "$1" --dstate "$2" --headdim "$3" \
    --options "$4" > "$tmp/k.mlir"
  # No scratch swizzle: its address registers cost the 255-register kernel
  # more than the bank conflicts it removes (H200: 1.884 vs 1.936 ms at
  # dstate 128, 6.569 vs 7.033 at 256). TILE_COMPILE_FLAGS overrides.
  # stmatrix for the shared-memory copies of the state and scores: faster at
  # dstate 128 (H200: 1.401 vs 1.436 ms), slower at 64 and 256 (0.952 vs
  # 0.842, 4.786 vs 4.619; bench/RESULTS.md, 2026-12-01).
  local tuned=
  [ "$2" -eq 128 ] && tuned=--stmatrix
  # Eight warps with warpgroups along N at dstate 256 (ssd::fusedWarps; the
  # 64-row products on wgmma, two warpgroups splitting N) and headdim blocks
  # of 64: 4.618 -> 2.593 ms. Eight warps are slower at 64 and 128 (0.826
  # -> 1.249, 1.456 -> 1.621; H200, bench/RESULTS.md, 2026-12-01).
  [ "$2" -gt 128 ] && tuned="--num-warps 8 --wgmma-along-n"
  # shellcheck disable=SC2086
  "$compile" "$tmp/k.mlir" --target sm_90a --stages "$stages" ${TILE_COMPILE_FLAGS---no-swizzle} $tuned \
    -o "$tmp/k.ptx" --info "$tmp/k.json"
  local name
  name=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' "$tmp/k.json" | head -n 1)
  mv "$tmp/k.ptx" "$out/$name.ptx"
  mv "$tmp/k.json" "$out/$name.json"
  rm -rf "$tmp"
}
# The benchmark shapes: the Mamba-2 layer options, bf16.
for n in 64 128 256; do build bf16 "$n" 64 layer; done
[ -n "${SSD_BENCH_ONLY:-}" ] && exit 0
# Every option, each element type; no options at all.
build bf16 128 64 all
build bf16 128 64 none
build f16 128 64 layer
build f16 128 64 all
build f32 64 64 layer
build f32 64 64 all
