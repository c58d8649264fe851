#!/usr/bin/env bash
# Prepared A/B run (bench/experiments/run27/README.md; carry build-prof/b27).
# Writes everything to $OUT/run27.txt (the call's output keeps only its
# tail) and prints the time lines.
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
cb=$here/tessera-conv-bench sb=$here/tessera-ssd-bench
out=${OUT:-$here}
log=$out/run27-${PART:-all}.txt
line() { grep -E '^(time|FAIL|SKIP|check|kernels)|error' | sed 's/ on NVIDIA H200//; s/ input random//; s/kernels per call (mean of 5, events between launches)://' | cut -c1-400; }
part=${PART:-all} # conv, ssd, ncu or all (conv and ssd)
{
cat $here/ptxas.txt
if [ "$part" = conv ] || [ "$part" = all ]; then
echo "== conv inner pass on three CTAs an SM (16 x 768; 64K 4 x 768), two reps"
for rep in 1 2; do for len in 8192 16384 65536; do for v in lib mb3; do
  b=16; [ $len = 65536 ] && b=4
  for dt in bf16 f16; do echo "-- c${len}_$v $dt"; XP_COLBLOCK=128 $cb --lib $here/c${len}_$v --batch $b --channels 768 --seqlen $len --dtype $dt --no-baseline 2>&1 | line; done
done; done; done
for len in 8192 16384 65536; do
  for dt in bf16 f16; do XP_COLBLOCK=128 $cb --lib $here/c${len}_mb3 --batch 2 --channels 4 --seqlen $len --dtype $dt --gates pre,post --rows 3 --no-time 2>&1 | line; done
  XP_COLBLOCK=128 $cb --lib $here/c${len}_mb3 --batch 20 --channels 2 --seqlen $len --rows 4 --no-time 2>&1 | line
  XP_COLBLOCK=128 $cb --lib $here/c${len}_mb3 --batch 1 --channels 3 --seqlen $len --input constant --no-time 2>&1 | line
done
echo "== conv 8K column blocks 128 / 256 / 512, two reps"
for rep in 1 2; do for v in 128 256 512; do
  d=$here/c8192_c$v; [ $v = 128 ] && d=$here/c8192_lib
  for dt in bf16 f16; do echo "-- c8192_c$v $dt"; XP_COLBLOCK=$v $cb --lib $d --batch 16 --channels 768 --seqlen 8192 --dtype $dt --no-baseline 2>&1 | line; done
done; done
for v in 256 512; do for dt in bf16 f16; do XP_COLBLOCK=$v $cb --lib $here/c8192_c$v --batch 2 --channels 4 --seqlen 8192 --dtype $dt --gates pre,post --rows 3 --no-time 2>&1 | line; done; done
echo "== conv outer passes over 2 / 4 batch rows a program, two reps"
for rep in 1 2; do for len in 8192 16384; do for v in lib r2 r4; do
  r=${v#r}; [ $v = lib ] && r=1
  for dt in bf16 f16; do echo "-- c${len}_$v $dt"; XP_OUTER_ROWS=$r XP_COLBLOCK=128 $cb --lib $here/c${len}_$v --batch 16 --channels 768 --seqlen $len --dtype $dt --no-baseline 2>&1 | line; done
done; done; done
for len in 8192 16384; do for r in 2 4; do
  # Batches that are not multiples of the rows a program.
  for dt in bf16 f16; do XP_OUTER_ROWS=$r XP_COLBLOCK=128 $cb --lib $here/c${len}_r$r --batch 3 --channels 4 --seqlen $len --dtype $dt --gates pre,post --rows 3 --no-time 2>&1 | line; done
  XP_OUTER_ROWS=$r XP_COLBLOCK=128 $cb --lib $here/c${len}_r$r --batch 21 --channels 2 --seqlen $len --rows 4 --no-time 2>&1 | line
done; done
fi
if [ "$part" = ssd ] || [ "$part" = all ]; then
echo "== SSD on three CTAs an SM, two reps"
for rep in 1 2; do for n in 64 128; do for v in lib mb3; do
  echo "-- n${n}_$v"; $sb --lib $here/n${n}_$v --dstate $n 2>&1 | line
  echo "-- n${n}_$v h64g8"; $sb --lib $here/n${n}_$v --dstate $n --nheads 64 --ngroups 8 2>&1 | line
  echo "-- n${n}_$v 2x16K seg8"; $sb --lib $here/n${n}_$v --dstate $n --batch 2 --seqlen 16384 --segments 8 2>&1 | line
done; done; done
fi
if [ "$part" = ncu ]; then
echo "== ncu: executed instructions by opcode, 8K passes (bf16, shipped)"
XP_COLBLOCK=128 timeout 150 ncu --clock-control none --metrics sass__inst_executed_per_opcode,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed --print-metric-instances values -k "regex:conv_(outer|inner)" -c 3 $cb --lib $here/c8192_lib --batch 16 --channels 768 --seqlen 8192 --no-time --no-baseline > $out/ncu-opcodes-8k.txt 2>&1
tail -n 40 $out/ncu-opcodes-8k.txt | cut -c1-400
fi
} > "$log" 2>&1
grep -E '^(--|==)|convolve|forward|FAIL|error' "$log" | sed 's/ (median of 20).*//' | cut -c1-200
if [ "$part" = ncu ]; then tail -n 40 "$log"; fi
