#!/usr/bin/env bash
# Builds build-prof/b27 (see README.md): the conv inner pass held to three
# CTAs an SM (XP_INNER_MB) at 8K, 16K and 64K, conv column blocks 128 /
# 256 / 512 at 8K (XP_COLBLOCK), the conv outer passes over 2 or 4 batch
# rows a program (XP_OUTER_ROWS) at 8K and 16K, the fused SSD kernels at
# dstate 64 and 128 (and the split ones at 64) held to three CTAs an SM.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$root/bench/experiments/run27
cd "$root"
# The knobs exist only in binaries built with xp.patch applied; the tree
# is restored and rebuilt at the end.
git diff --quiet kernels-src || { echo "kernels-src has changes; commit or stash them first" >&2; exit 1; }
log=$root/build-prof/make27.log
mkdir -p build-prof
targets="tessera tessera-conv-bench tessera-ssd-bench tile-compile"
git apply "$here/xp.patch"
# shellcheck disable=SC2086
trap 'git checkout -- kernels-src; ninja -C build $targets >> "$log" 2>&1 || echo "restore build failed: $log" >&2' EXIT
# shellcheck disable=SC2086
ninja -C build $targets > "$log" 2>&1 || { echo "build failed: $log" >&2; exit 1; }
T=build/bin/tessera C=build/bin/tile-compile O=build-prof/b27
rm -rf $O; mkdir -p $O
report() { # label ptx
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$2" -o /dev/null 2>&1 | grep -oE "[0-9]+ bytes spill stores|Used [0-9]+ registers" | tr '\n' ' ' | sed "s|^|$1: |" >> $O/ptxas.txt; echo >> $O/ptxas.txt
}
conv() { # dir dtype len gates colblock [XP_INNER_MB [XP_OUTER_ROWS]]
  local d=$O/$1 tmp name; mkdir -p $d; tmp=$(mktemp -d)
  XP_COLBLOCK=$5 XP_INNER_MB=${6:-} XP_OUTER_ROWS=${7:-} $T print conv --dtype $2 --seqlen $3 --gates $4 > $tmp/k.mlir
  $C $tmp/k.mlir --target sm_90a $($T conv-flags --seqlen $3 --gates $4) -o $tmp/k.ptx --info $tmp/k.json
  name=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' $tmp/k.json | head -n 1)
  mv $tmp/k.ptx $d/$name.ptx; mv $tmp/k.json $d/$name.json; rm -rf $tmp
  report "$1 $2 $3 $4" $d/$name.ptx
}
for dt in bf16 f16; do
  for g in none pre,post; do
    for len in 8192 16384 65536; do
      conv c${len}_lib $dt $len $g 128; conv c${len}_mb3 $dt $len $g 128 3
    done
    conv c8192_c256 $dt 8192 $g 256; conv c8192_c512 $dt 8192 $g 512
    # The outer passes over 2 and 4 batch rows a program (twiddles and DFT
    # matrices built once; 72 -> 128 registers at 8K, 96 -> 168 at 16K).
    for r in 2 4; do
      conv c8192_r$r $dt 8192 $g 128 "" $r; conv c16384_r$r $dt 16384 $g 128 "" $r
    done
  done
done
ssd() { # dir module dstate extraflags
  local d=$O/$1 tmp name; mkdir -p $d; tmp=$(mktemp -d)
  $T print $2 --dtype bf16 --dstate $3 --headdim 64 --options layer > $tmp/k.mlir
  # shellcheck disable=SC2046
  $C $tmp/k.mlir --target sm_90a $($T ssd-flags $2 --dstate $3) $4 -o $tmp/k.ptx --info $tmp/k.json
  name=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' $tmp/k.json | head -n 1)
  mv $tmp/k.ptx $d/$name.ptx; mv $tmp/k.json $d/$name.json; rm -rf $tmp
  report "$1 $2" $d/$name.ptx
}
for n in 64 128; do
  for m in ssd-fused ssd-split; do
    ssd n${n}_lib $m $n ""; ssd n${n}_mb3 $m $n "--min-blocks-per-sm 3"
  done
done
cp build/bin/tessera-conv-bench build/bin/tessera-ssd-bench "$here/run.sh" $O/
du -sh $O
