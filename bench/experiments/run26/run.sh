#!/usr/bin/env bash
# Prepared A/B run (bench/experiments/run26/README.md; carry build-prof/b26): conv column blocks at 8K / 16K, conv 1K
# min-blocks 3, SSD 128 on 8 warps, the small split case, ncu opcode mix.
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
cb=$here/tessera-conv-bench sb=$here/tessera-ssd-bench
# PART=conv, PART=warps or PART=ssd runs one part (each under 7 min);
# default all three.
part=${PART:-all}
out=${OUT:-$here}
line() { grep -E '^(time|FAIL|SKIP|check|kernels)|error' | sed 's/ on NVIDIA H200//; s/ input random//' | cut -c1-330 | tail -n 3; }
if [ "$part" = all ] || [ "$part" = conv ]; then
echo "== conv column blocks (16 x 768)"
for v in c8k_c128 c8k_c256 c8k_c512 c16k_c128 c16k_c256; do
  cbk=${v##*_c}; len=8192; [[ $v == c16k* ]] && len=16384
  for dt in bf16 f16; do echo "-- $v $dt"; XP_COLBLOCK=$cbk $cb --lib $here/$v --batch 16 --channels 768 --seqlen $len --dtype $dt --no-baseline 2>&1 | line; done
  for dt in bf16 f16; do XP_COLBLOCK=$cbk $cb --lib $here/$v --batch 2 --channels 4 --seqlen $len --dtype $dt --gates pre,post --rows 3 --no-time 2>&1 | line; done
done
echo "== conv 8K outer passes padded to K = 16 (Tensor Cores), two reps"
for rep in 1 2; do for v in c8k_c128 c8k_pad; do for dt in bf16 f16; do
  echo "-- $v $dt"; XP_COLBLOCK=128 $cb --lib $here/$v --batch 16 --channels 768 --seqlen 8192 --dtype $dt --no-baseline 2>&1 | line
done; done; done
for dt in bf16 f16; do for g in none pre,post; do XP_COLBLOCK=128 $cb --lib $here/c8k_pad --batch 2 --channels 4 --seqlen 8192 --dtype $dt --gates $g --rows 3 --no-time 2>&1 | line; done; done
XP_COLBLOCK=128 $cb --lib $here/c8k_pad --batch 20 --channels 2 --seqlen 8192 --rows 4 --no-time 2>&1 | line
XP_COLBLOCK=128 $cb --lib $here/c8k_pad --batch 1 --channels 3 --seqlen 8192 --input constant --no-time 2>&1 | line
echo "== conv 1K min-blocks 3"
for rep in 1 2; do for v in c1k_base c1k_mb3; do for dt in bf16 f16; do
  echo "-- $v $dt"; $cb --lib $here/$v --batch 16 --channels 768 --seqlen 1024 --dtype $dt --no-baseline 2>&1 | line
done; done; done
$cb --lib $here/c1k_mb3 --batch 2 --channels 4 --seqlen 1024 --gates pre,post --rows 3 --no-time 2>&1 | line
fi
if [ "$part" = all ] || [ "$part" = warps ]; then
echo "== conv on eight warps (16 x 768; 64K 4 x 768), two reps"
for rep in 1 2; do for v in c2k_w4 c2k_w8 c4k_w8 c4k_w16 c4k_w8_conj c4k_w16_conj c8k_c128 c8k_w8 c8k_o8 c16k_c128 c16k_w8 c16k_o8 c64k_w4 c64k_w8 c64k_o8; do
  case $v in c2k*) len=2048 b=16 ;; c4k*) len=4096 b=16 ;; c8k*) len=8192 b=16 ;; c16k*) len=16384 b=16 ;; *) len=65536 b=4 ;; esac
  for dt in bf16 f16; do echo "-- $v $dt"; XP_COLBLOCK=128 $cb --lib $here/$v --batch $b --channels 768 --seqlen $len --dtype $dt --no-baseline 2>&1 | line; done
done; done
for v in c2k_w8 c4k_w16 c4k_w8_conj c4k_w16_conj c8k_w8 c8k_o8 c16k_w8 c16k_o8 c64k_w8 c64k_o8; do
  case $v in c2k*) len=2048 ;; c4k*) len=4096 ;; c8k*) len=8192 ;; c16k*) len=16384 ;; *) len=65536 ;; esac
  for dt in bf16 f16; do XP_COLBLOCK=128 $cb --lib $here/$v --batch 2 --channels 4 --seqlen $len --dtype $dt --gates pre,post --rows 3 --no-time 2>&1 | line; done
  XP_COLBLOCK=128 $cb --lib $here/$v --batch 20 --channels 2 --seqlen $len --rows 4 --no-time 2>&1 | line
done
fi
if [ "$part" = all ] || [ "$part" = ssd ]; then
echo "== SSD dstate 64"
for rep in 1 2; do for v in n64_lib n64_licm n64_noearly n64_smemA n64_w8n; do
  echo "-- $v"; $sb --lib $here/$v --dstate 64 2>&1 | line
  echo "-- $v 2x16K seg8"; $sb --lib $here/$v --dstate 64 --batch 2 --seqlen 16384 --segments 8 2>&1 | line
done; done
echo "== SSD dstate 128"
for rep in 1 2; do for v in n128_lib n128_noswz n128_w8n n128_licm; do
  echo "-- $v"; $sb --lib $here/$v 2>&1 | line
  echo "-- $v h64g8"; $sb --lib $here/$v --nheads 64 --ngroups 8 2>&1 | line
  echo "-- $v 2x4000 seg5"; $sb --lib $here/$v --batch 2 --seqlen 4000 --nheads 16 --ngroups 4 --segments 5 2>&1 | line
  echo "-- $v 2x16K seg8"; $sb --lib $here/$v --batch 2 --seqlen 16384 --segments 8 2>&1 | line
done; done
fi
if [ "$part" = all ] || [ "$part" = ssd ]; then
echo "== ncu opcode mix (8K passes, bf16, c128)"
XP_COLBLOCK=128 timeout 90 ncu --clock-control none --metrics sass__inst_executed_per_opcode,smsp__inst_executed.sum --print-metric-instances values -k "regex:conv_(outer|inner)" -c 3 $cb --lib $here/c8k_c128 --batch 16 --channels 768 --seqlen 8192 --no-time --no-baseline > $out/ncu-opcodes-8k.txt 2>&1; tail -n 30 $out/ncu-opcodes-8k.txt | cut -c1-600
fi
