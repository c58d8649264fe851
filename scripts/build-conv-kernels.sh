#!/usr/bin/env bash
# Compiles the long convolution's kernels for every power-of-two length from
# 256 to 65536 (a length runs on the kernels of its power of two, named by
# M), bf16 and f16, with both gates and with none, into a kernel library folder (rt::KernelLibrary:
# <name>.ptx and <name>.json; a multi-pass module holds three kernels).
#   scripts/build-conv-kernels.sh TESSERA TILE_COMPILE OUTDIR
set -euo pipefail
tessera=$1 compile=$2 out=$3
mkdir -p "$out"
build() { # dtype seqlen gates
  local tmp name
  tmp=$(mktemp -d)
  "$tessera" print conv --dtype "$1" --seqlen "$2" --gates "$3" > "$tmp/k.mlir"
  # The scratch swizzle halves the 1K kernel's time (bank conflicts were its
  # limit); from 4K on, where the kernels run out of registers, its address
  # arithmetic costs more than it saves (H200, bench/RESULTS.md).
  local swizzle=
  [ "$2" -gt 2048 ] && swizzle=--no-swizzle
  "$compile" "$tmp/k.mlir" --target sm_90a $swizzle -o "$tmp/k.ptx" --info "$tmp/k.json"
  name=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' "$tmp/k.json" | head -n 1)
  mv "$tmp/k.ptx" "$out/$name.ptx"
  mv "$tmp/k.json" "$out/$name.json"
  rm -rf "$tmp"
}
for dtype in bf16 f16; do
  for len in 256 512 1024 2048 4096 8192 16384 32768 65536; do
    for gates in none pre,post; do
      build "$dtype" "$len" "$gates"
    done
  done
  # The cuFFT baseline's elementwise kernels (bench/conv_bench.cpp).
  for gates in none pre,post; do
    "$tessera" print conv-baseline --dtype "$dtype" --gates "$gates" > "$out/k.mlir"
    "$compile" "$out/k.mlir" --target sm_90a -o "$out/baseline_${dtype}_${gates/,/_}.ptx" \
      --info "$out/baseline_${dtype}_${gates/,/_}.json"
    rm "$out/k.mlir"
  done
done
