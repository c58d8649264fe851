#!/usr/bin/env bash
# Compiles the long convolution's kernels for every power-of-two length from
# 512 to 65536 (a length runs on the kernels of its power of two, named by
# M; lengths below 512 on those of 512), bf16 and f16, with both gates and
# with none, into a kernel library folder
# (rt::KernelLibrary: <name>.ptx and <name>.json; a multi-pass module holds
# three kernels, four in bf16 with conv_bound).
#   scripts/build-conv-kernels.sh TESSERA TILE_COMPILE OUTDIR
# CONV_DTYPES ("bf16 f16") and CONV_LENGTHS (powers of two) narrow it;
# TILE_COMPILE_EXTRA and TILE_COMPILE_DROP add or remove flags (A/B
# libraries).
set -euo pipefail
tessera=$1 compile=$2 out=$3
mkdir -p "$out"
build() { # dtype seqlen gates
  local tmp name
  tmp=$(mktemp -d)
  "$tessera" print conv --dtype "$1" --seqlen "$2" --gates "$3" > "$tmp/k.mlir"
  # The flags per length and gates, as measured on the H200
  # (conv::compileFlags).
  local flags
  flags=$("$tessera" conv-flags --seqlen "$2" --gates "$3")
  # Variant libraries for A/B runs: TILE_COMPILE_DROP, flags taken out
  # wherever they are chosen; TILE_COMPILE_EXTRA, flags added to all.
  local f
  for f in ${TILE_COMPILE_DROP:-}; do
    flags=$(printf '%s\n' " $flags " | sed "s/ $f / /g")
  done
  flags="$flags ${TILE_COMPILE_EXTRA:-}"
  # shellcheck disable=SC2086
  "$compile" "$tmp/k.mlir" --target sm_90a $flags -o "$tmp/k.ptx" --info "$tmp/k.json"
  name=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' "$tmp/k.json" | head -n 1)
  mv "$tmp/k.ptx" "$out/$name.ptx"
  mv "$tmp/k.json" "$out/$name.json"
  rm -rf "$tmp"
}
for dtype in ${CONV_DTYPES:-bf16 f16}; do
  for len in ${CONV_LENGTHS:-512 1024 2048 4096 8192 16384 32768 65536}; do
    for gates in none pre,post; do
      build "$dtype" "$len" "$gates"
    done
  done
  # Zero-padding and cropping copies: lengths that are odd, or above 4096
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
