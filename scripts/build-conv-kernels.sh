#!/usr/bin/env bash
# Compiles the long convolution's kernels for every power-of-two length from
# 256 to 65536 (a length runs on the kernels of its power of two, named by
# M) and the fused M = 16384 kernel of lengths that are not powers of two,
# bf16 and f16, with both gates and with none, into a kernel library folder
# (rt::KernelLibrary: <name>.ptx and <name>.json; a multi-pass module holds
# three kernels).
#   scripts/build-conv-kernels.sh TESSERA TILE_COMPILE OUTDIR
set -euo pipefail
tessera=$1 compile=$2 out=$3
mkdir -p "$out"
build() { # dtype seqlen gates
  local tmp name
  tmp=$(mktemp -d)
  "$tessera" print conv --dtype "$1" --seqlen "$2" --gates "$3" > "$tmp/k.mlir"
  # Warps and the scratch swizzle per length, as measured on the H200
  # (bench/RESULTS.md, 2026-12-01). Row-column plans: 16 rows per warp (2
  # warps at 512, 4 at 1K and 2K: the left product's result is then the
  # right product's A operand in registers), 8 at 4K (4 spill). 4 warps at
  # 256; 16 at 8K and for the fused 16K kernel (lengths that are not powers
  # of two; no swizzle, whose registers make its spills worse). The
  # three-pass modules: 4 warps at 16K and 32K (row-column inner 1024), 8 at
  # 64K (inner 4096).
  local flags="--num-warps 4"
  case "$2" in
    512) flags="--num-warps 2" ;;
    4096) flags="--num-warps 8" ;;
    8192) flags="--num-warps 16" ;;
    16382) flags="--num-warps 16 --no-swizzle" ;;
    65536) flags="--num-warps 8" ;;
  esac
  # No LICM but at 1K: what it hoists spills (H200, bf16, 16 x 768: 2K
  # 0.252 ms with LICM, 0.244 without; 64K 6.94 -> 6.53), except at 1K,
  # whose registers it fits (0.139 with, 0.155 without). bench/RESULTS.md,
  # session 10.
  [ "$2" = 1024 ] || flags="$flags --no-hoist-invariants"
  # Early refill (tile-pipeline) at 64K only: 4.24 -> 4.14 ms; 1K to 4K
  # unchanged, 16K 3.01 -> 3.02 (H200, bf16, bench/RESULTS.md, 2026-12-02).
  [ "$2" = 65536 ] && flags="$flags --early-refill"
  # Paired 16-bit conversions, fma and stepped wgmma descriptors from 1K to
  # 16K (H200, bf16, 16 x 768: 1K 0.107 -> 0.097 ms, 2K 0.207 -> 0.178, 4K
  # 0.633 -> 0.627, 16K 3.008 -> 2.915); at 64K 4.13 -> 4.16, so not there.
  # 256, 512, 8K, 32K and the fused 16K kernel are not timed with them yet.
  case "$2" in
    1024 | 2048 | 4096 | 16384) flags="$flags --pair-truncations --fma --step-descriptors" ;;
  esac
  # TILE_COMPILE_EXTRA: flags added to all (variant libraries for A/B runs).
  flags="$flags ${TILE_COMPILE_EXTRA:-}"
  # shellcheck disable=SC2086
  "$compile" "$tmp/k.mlir" --target sm_90a $flags -o "$tmp/k.ptx" --info "$tmp/k.json"
  name=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' "$tmp/k.json" | head -n 1)
  mv "$tmp/k.ptx" "$out/$name.ptx"
  mv "$tmp/k.json" "$out/$name.json"
  rm -rf "$tmp"
}
for dtype in bf16 f16; do
  # 16382: the fused M = 16384 kernel, for even lengths in (8192, 16384).
  for len in 256 512 1024 2048 4096 8192 16382 16384 32768 65536; do
    for gates in none pre,post; do
      build "$dtype" "$len" "$gates"
    done
  done
  # Zero-padding and cropping copies: lengths that are odd, or above 16384
  # and not powers of two, run on padded copies (conv::paddedLength).
  "$tessera" print conv-copy --dtype "$dtype" > "$out/k.mlir"
  "$compile" "$out/k.mlir" --target sm_90a -o "$out/conv_copy_rows_$dtype.ptx" \
    --info "$out/conv_copy_rows_$dtype.json"
  rm "$out/k.mlir"
  # The cuFFT baseline's elementwise kernels (bench/conv_bench.cpp).
  for gates in none pre,post; do
    "$tessera" print conv-baseline --dtype "$dtype" --gates "$gates" > "$out/k.mlir"
    "$compile" "$out/k.mlir" --target sm_90a -o "$out/baseline_${dtype}_${gates/,/_}.ptx" \
      --info "$out/baseline_${dtype}_${gates/,/_}.json"
    rm "$out/k.mlir"
  done
done
