#!/usr/bin/env bash
# Compiles the fused SSD forward variants the GPU checks and benchmarks use
# into a kernel library folder (ssd::KernelLibrary reads <name>.ptx and
# <name>.json), each with the flags `tessera ssd-flags` gives for it.
#   scripts/build-ssd-kernels.sh TESSERA TILE_COMPILE OUTDIR
set -euo pipefail
tessera=$1 compile=$2 out=$3
mkdir -p "$out"
build() { # dtype dstate headdim options [module: ssd-fused or ssd-split]
  local tmp flags name
  tmp=$(mktemp -d)
  "$tessera" print "${5:-ssd-fused}" --dtype "$1" --dstate "$2" --headdim "$3" \
    --options "$4" > "$tmp/k.mlir"
  # The flags are ssd::fusedCompile's (stages, warps, stmatrix, warpgroups
  # along N, exchange swizzle, LICM; measured on the H200,
  # bench/RESULTS.md), per module: the split forward's three kernels may
  # differ from the fused one.
  # TILE_COMPILE_FLAGS, when set, replaces them all (variant timings).
  flags=${TILE_COMPILE_FLAGS-$("$tessera" ssd-flags "${5:-ssd-fused}" \
    --dtype "$1" --dstate "$2" --headdim "$3" --options "$4")}
  # TILE_COMPILE_EXTRA: flags added to those (variant libraries for A/B).
  flags="$flags ${TILE_COMPILE_EXTRA:-}"
  # shellcheck disable=SC2086
  "$compile" "$tmp/k.mlir" --target sm_90a $flags -o "$tmp/k.ptx" --info "$tmp/k.json"
  name=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' "$tmp/k.json" | head -n 1)
  mv "$tmp/k.ptx" "$out/$name.ptx"
  mv "$tmp/k.json" "$out/$name.json"
  rm -rf "$tmp"
}
# The benchmark shapes: the Mamba-2 layer options, bf16; the split forward
# (long sequences on small grids) up to dstate 128.
for n in 64 128 256; do build bf16 "$n" 64 layer; done
for n in 64 128; do build bf16 "$n" 64 layer ssd-split; done
[ -n "${SSD_BENCH_ONLY:-}" ] && exit 0
# Every option, each element type; no options at all.
build bf16 128 64 all
build bf16 128 64 none
build f16 128 64 layer
build f16 128 64 all
build f32 64 64 layer
build f32 64 64 all
build bf16 256 64 all
build f32 256 64 all
# z and D per channel without seq_idx or state copies: their epilogue loads
# issued at their use (ssd::epilogueLoadsAtUse), both at 128, D's row at 256.
build bf16 128 64 Dpc,bias,softplus,z
build bf16 256 64 Dpc,bias,softplus
# Initial and final states with the layer options: four warps at 128.
build bf16 128 64 D,bias,softplus,h0,hT
# The split forward with every option, each element type.
build bf16 128 64 all ssd-split
build f16 128 64 all ssd-split
build f32 64 64 all ssd-split
build f32 64 64 layer ssd-split
build f16 128 64 layer ssd-split
build bf16 128 64 none ssd-split
