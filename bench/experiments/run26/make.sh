#!/usr/bin/env bash
# Builds build-prof/b26 (see README.md): conv column blocks 256/512 at 8K and 16K (XP_COLBLOCK hack in the
# tessera and bench binaries copied here), conv 1K with min-blocks 3, SSD
# layer 128 on 8 warps along N, conv 8K outer passes padded to K = 16.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$root/bench/experiments/run26
cd "$root"
# The experiment knobs (XP_COLBLOCK, XP_PAD_OUTER) exist only in binaries
# built with xp.patch applied; the tree is restored and rebuilt at the end.
git diff --quiet kernels-src || { echo "kernels-src has changes; commit or stash them first" >&2; exit 1; }
log=$root/build-prof/make26.log
mkdir -p build-prof
targets="tessera tessera-conv-bench tessera-ssd-bench tile-compile"
git apply "$here/xp.patch"
# shellcheck disable=SC2086
trap 'git checkout -- kernels-src; ninja -C build $targets >> "$log" 2>&1 || echo "restore build failed: $log" >&2' EXIT
# shellcheck disable=SC2086
ninja -C build $targets > "$log" 2>&1 || { echo "build failed: $log" >&2; exit 1; }
T=build/bin/tessera C=build/bin/tile-compile O=build-prof/b26
rm -rf $O; mkdir -p $O
conv() { # dir dtype len gates colblock extraflags
  local d=$O/$1 tmp name; mkdir -p $d; tmp=$(mktemp -d)
  XP_COLBLOCK=$5 $T print conv --dtype $2 --seqlen $3 --gates $4 > $tmp/k.mlir
  $C $tmp/k.mlir --target sm_90a $($T conv-flags --seqlen $3) $6 -o $tmp/k.ptx --info $tmp/k.json
  name=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' $tmp/k.json | head -n 1)
  mv $tmp/k.ptx $d/$name.ptx; mv $tmp/k.json $d/$name.json; rm -rf $tmp
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v $d/$name.ptx -o /dev/null 2>&1 | grep -oE "[0-9]+ bytes spill stores|Used [0-9]+ registers" | tr '\n' ' ' | sed "s|^|$1 $2 $3 $4: |" >> $O/ptxas.txt; echo >> $O/ptxas.txt
}
for dt in bf16 f16; do
  for g in none pre,post; do
    conv c8k_c128 $dt 8192 $g 128 ""; conv c8k_c256 $dt 8192 $g 256 ""; conv c8k_c512 $dt 8192 $g 512 ""
    conv c16k_c128 $dt 16384 $g 128 ""; conv c16k_c256 $dt 16384 $g 256 ""
  done
  # Eight warps (a later --num-warps wins): 2K and the three passes at
  # 8K, 16K and 64K spill-free, gates too (2K 16 / 68 bytes, 64K 372 on
  # four warps).
  for g in none pre,post; do
    conv c2k_w4 $dt 2048 $g 128 ""; conv c2k_w8 $dt 2048 $g 128 "--num-warps 8"
    conv c8k_w8 $dt 8192 $g 128 "--num-warps 8"; conv c16k_w8 $dt 16384 $g 128 "--num-warps 8"
    conv c64k_w4 $dt 65536 $g 128 ""; conv c64k_w8 $dt 65536 $g 128 "--num-warps 8"
    # Only the outer passes on eight warps (tile.kernel num_warps), the
    # inner pass on four.
    XP_OUTER_WARPS=8 conv c8k_o8 $dt 8192 $g 128 ""
    XP_OUTER_WARPS=8 conv c16k_o8 $dt 16384 $g 128 ""
    XP_OUTER_WARPS=8 conv c64k_o8 $dt 65536 $g 128 ""
    # 4K on sixteen warps (268 bytes spilled at 128 registers; 16 warps an
    # SM instead of 8).
    conv c4k_w8 $dt 4096 $g 128 ""; conv c4k_w16 $dt 4096 $g 128 "--num-warps 16"
    # 4K with conjugate partners (the first stage's four products give both
    # transforms; off at 4K since it spilled 76 bytes on eight warps).
    XP_CONJ=1 conv c4k_w8_conj $dt 4096 $g 128 ""
    XP_CONJ=1 conv c4k_w16_conj $dt 4096 $g 128 "--num-warps 16"
  done
  conv c1k_base $dt 1024 none 128 ""; conv c1k_mb3 $dt 1024 none 128 "--min-blocks-per-sm 3"
  conv c1k_base $dt 1024 pre,post 128 ""; conv c1k_mb3 $dt 1024 pre,post 128 "--min-blocks-per-sm 3"
done
ssd() { # dir module flags [dstate]
  local d=$O/$1 tmp name; mkdir -p $d; tmp=$(mktemp -d)
  $T print $2 --dtype bf16 --dstate ${4:-128} --headdim 64 --options layer > $tmp/k.mlir
  $C $tmp/k.mlir --target sm_90a $3 -o $tmp/k.ptx --info $tmp/k.json
  name=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' $tmp/k.json | head -n 1)
  mv $tmp/k.ptx $d/$name.ptx; mv $tmp/k.json $d/$name.json; rm -rf $tmp
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v $d/$name.ptx -o /dev/null 2>&1 | grep -oE "[0-9]+ bytes spill stores|Used [0-9]+ registers" | tr '\n' ' ' | sed "s|^|$1 $2: |" >> $O/ptxas.txt; echo >> $O/ptxas.txt
}
f=$($T ssd-flags --dstate 128)
for m in ssd-fused ssd-split; do
  ssd n128_lib $m "$f"
  ssd n128_noswz $m "${f/--num-warps 4/--no-swizzle --stmatrix --num-warps 4}"
  ssd n128_w8n $m "${f/--num-warps 4/--num-warps 8 --wgmma-along-n}"
  ssd n128_licm $m "${f/--no-hoist-invariants /}"
done
# dstate 64 with the swizzle: LICM, no early refill, A from shared memory,
# eight warps along N.
f=$($T ssd-flags --dstate 64)
for m in ssd-fused ssd-split; do
  ssd n64_lib $m "$f" 64
  ssd n64_licm $m "${f/--no-hoist-invariants /}" 64
  ssd n64_noearly $m "${f/--early-refill /}" 64
  ssd n64_smemA $m "$f --no-wgmma-register-a" 64
  ssd n64_w8n $m "${f/--num-warps 4/--num-warps 8 --wgmma-along-n}" 64
done
# The 8K outer passes padded to the Tensor Core's K = 16.
for dt in bf16 f16; do for g in none pre,post; do
  d=$O/c8k_pad; mkdir -p $d; tmp=$(mktemp -d)
  XP_PAD_OUTER=1 $T print conv --dtype $dt --seqlen 8192 --gates $g > $tmp/k.mlir
  $C $tmp/k.mlir --target sm_90a $($T conv-flags --seqlen 8192) -o $tmp/k.ptx --info $tmp/k.json
  name=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' $tmp/k.json | head -n 1)
  mv $tmp/k.ptx $d/$name.ptx; mv $tmp/k.json $d/$name.json; rm -rf $tmp
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v $d/$name.ptx -o /dev/null 2>&1 | grep -oE "[0-9]+ bytes spill stores|Used [0-9]+ registers" | tr '\n' ' ' | sed "s|^|c8k_pad $dt 8192 $g: |" >> $O/ptxas.txt; echo >> $O/ptxas.txt
done; done
cp build/bin/tessera-conv-bench build/bin/tessera-ssd-bench "$here/run.sh" $O/
