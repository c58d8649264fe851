#!/usr/bin/env bash
# Builds run28's variant libraries from this checkout's build/ (no source
# patch: the variants are tile-compile flags) into build-prof/r28, about
# 3 minutes here. Carry build-prof/r28 to the device, then run.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"
ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
[ -x "$ptxas" ] || { echo "make.sh: no ptxas at $ptxas" >&2; exit 1; }
ninja -C build tessera tile-compile tessera-conv-bench tessera-ssd-bench > /dev/null
T=build/bin/tessera C=build/bin/tile-compile O=build-prof/r28
rm -rf $O && mkdir -p $O
# One conv kernel module into folder DIR, with the library's flags for its
# length and gates, DROP taken out and EXTRA added.
kernel() { # dir dtype seqlen gates extra drop
  local d=$O/$1 f n; mkdir -p "$d"
  $T print conv --dtype "$2" --seqlen "$3" --gates "$4" > $O/k.mlir
  f=$(printf ' %s \n' "$($T conv-flags --seqlen "$3" --gates "$4")" | sed "s/ $6 / /")
  # shellcheck disable=SC2086
  $C $O/k.mlir --target sm_90a $f $5 -o $O/k.ptx --info $O/k.json
  n=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' $O/k.json | head -n 1)
  mv $O/k.ptx "$d/$n.ptx"; mv $O/k.json "$d/$n.json"
}
for dt in bf16 f16; do
  # The gated fused kernels (1K, 2K, 4K) as the library builds them, and
  # with late loads in their iteration (4K: with its register prefetch
  # back, which the library turns off there).
  for L in 1024 2048 4096; do
    kernel c_lib $dt $L pre,post "" --none--
    kernel c_late $dt $L pre,post --late-loads-in-iteration --no-register-prefetch
  done
  # Ungated 2K and 4K as shipped (also PART=ncu's 4K) and with --stmatrix
  # (2K: 16 bytes spilled -> none).
  for L in 2048 4096; do
    kernel n_lib $dt $L none "" --none--
    kernel n_stm $dt $L none --stmatrix --none--
  done
done
# SSD: the whole library (every-option variants included), as built and
# with late loads in their iteration (the layer kernels come out the same).
bash scripts/build-ssd-kernels.sh $T $C $O/s_lib > /dev/null
TILE_COMPILE_EXTRA="--late-loads-in-iteration" \
  bash scripts/build-ssd-kernels.sh $T $C $O/s_late > /dev/null
rm -f $O/k.mlir
cp build/bin/tessera-conv-bench build/bin/tessera-ssd-bench "$here/run.sh" $O/
# One line per kernel: folder, kernel, spill bytes, registers.
for f in $O/*/*.ptx; do
  "$ptxas" -arch=sm_90a -v "$f" -o /dev/null 2>&1 | awk -v dir="$(basename "$(dirname "$f")")" '
    /Compiling entry function/ { split($0, q, "\047"); k = q[2] }
    /bytes spill stores/ { s = $5 }
    /Used [0-9]* registers/ { print dir, k, s " bytes spilled,", $5, "registers" }'
done > $O/ptxas.txt
grep -c . $O/ptxas.txt; du -sh $O
