#!/usr/bin/env bash
# Builds run32's SSD variants into build-prof/r32: the fused kernel as the
# library compiles it (lib/) and with z and the per-channel D row loaded
# `at_use` (at_use/: at-use.patch applied to kernels-src/ssd/SsdKernels.cpp
# for the build, then reverted), each with `tessera ssd-flags` for its
# options, then ptxas per kernel. About 4 minutes here. Carry
# build-prof/r32 to the device, then run.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"
T=build/bin/tessera C=build/bin/tile-compile O=build-prof/r32
rm -rf $O && mkdir -p $O
# dtype dstate options
specs=("bf16 128 layer" "bf16 128 D,bias,softplus,z" "bf16 128 Dpc,bias,softplus"
       "bf16 128 Dpc,bias,softplus,seq,z" "bf16 128 all" "f16 128 all"
       "bf16 256 all" "f32 64 all" "f32 256 all")
build_all() { # dir
  local d=$O/$1 spec n; mkdir -p "$d"
  for spec in "${specs[@]}"; do
    set -- $spec
    $T print ssd-fused --dtype "$1" --dstate "$2" --headdim 64 --options "$3" > $O/k.mlir
    # shellcheck disable=SC2046
    $C $O/k.mlir --target sm_90a $($T ssd-flags ssd-fused --dtype "$1" --dstate "$2" --headdim 64 --options "$3") -o $O/k.ptx --info $O/k.json
    n=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' $O/k.json | head -n 1)
    mv $O/k.ptx "$d/$n.ptx"; mv $O/k.json "$d/$n.json"
  done
}
ninja -C build tessera tile-compile tessera-ssd-bench > /dev/null
build_all lib
git apply "$here/at-use.patch"
trap 'set +e; git apply -R "$here/at-use.patch"; ninja -C build tessera > /dev/null' EXIT
ninja -C build tessera > /dev/null
build_all at_use
rm -f $O/k.mlir
cp build/bin/tessera-ssd-bench "$here/run.sh" $O/
"$here/../ptxas-table.sh" $O/*/ > $O/ptxas.txt
cat $O/ptxas.txt; du -sh $O
