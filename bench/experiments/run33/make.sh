#!/usr/bin/env bash
# Builds run33's conv libraries into build-prof/r33: the three-pass
# kernels of 16K, 32K and 64K as the library builds them (lib/), with the
# outer passes on eight warps at 64K (w8/: outer-warps.patch, outer FFT of
# 64) and from outer 16 (w8all/: the same patch at 16K and 32K too), both
# with --wgmma-along-n added (the inner pass stays on four warps, where
# it changes nothing). The patch is applied for the build, then reverted.
# About 3 minutes here. Carry build-prof/r33 to the device, then run.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"
T=build/bin/tessera C=build/bin/tile-compile O=build-prof/r33
rm -rf $O && mkdir -p $O
kernel() { # dir dtype seqlen gates extra
  local d=$O/$1 n; mkdir -p "$d"
  $T print conv --dtype "$2" --seqlen "$3" --gates "$4" > $O/k.mlir
  # shellcheck disable=SC2046
  $C $O/k.mlir --target sm_90a $($T conv-flags --seqlen "$3" --gates "$4") $5 -o $O/k.ptx --info $O/k.json
  n=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' $O/k.json | head -n 1)
  mv $O/k.ptx "$d/$n.ptx"; mv $O/k.json "$d/$n.json"
}
all() { # dir extra
  for dt in bf16 f16; do for g in none pre,post; do for L in 16384 32768 65536; do
    kernel "$1" $dt $L $g "$2"
  done; done; done
}
ninja -C build tessera tile-compile tessera-conv-bench > /dev/null
all lib ""
src=kernels-src/conv/ConvKernels.cpp
cp $src $O/ConvKernels.cpp.orig
git apply "$here/outer-warps.patch"
trap 'set +e; cp $O/ConvKernels.cpp.orig $src; ninja -C build tessera > /dev/null' EXIT
ninja -C build tessera > /dev/null
all w8 --wgmma-along-n
sed -i 's|if (Mo >= 64) // run33: OUTER_FROM|if (Mo >= 16) // run33: OUTER_FROM|' $src
grep -q 'Mo >= 16' $src
ninja -C build tessera > /dev/null
all w8all --wgmma-along-n
rm -f $O/k.mlir
cp build/bin/tessera-conv-bench "$here/run.sh" $O/
"$here/../ptxas-table.sh" $O/*/ > $O/ptxas.txt
grep -E "outer" $O/ptxas.txt | grep bf16 | grep -v pre_post; du -sh $O
