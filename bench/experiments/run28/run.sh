#!/usr/bin/env bash
# run28 on the device (carry build-prof/r28): every variant checked against
# float64 before it is timed; log in $OUT/run28.txt.
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
cb=$here/tessera-conv-bench sb=$here/tessera-ssd-bench
log=${OUT:-$here}/run28.txt
line() { grep -Ei '^(time|FAIL|SKIP|check|kernels)|error|fault|killed|alloc|cannot' | sed 's/ on NVIDIA H200//; s/ input random//' | cut -c1-300; }
part=${PART:-ab} # ab (the A/B timings) or ncu (where the 4K kernel stalls)
if [ "$part" = ncu ]; then
  # The ungated 4K kernel (0.628 ms, 1.68x cuFFT; the 2.2x target is 0.48):
  # issue activity, occupancy and warp stall reasons, one launch.
  timeout 200 ncu --clock-control none --section SchedulerStats \
    --section WarpStateStats --section Occupancy --section LaunchStats \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    -k regex:conv_fused -c 1 $cb --lib $here/n_lib --batch 16 \
    --channels 768 --seqlen 4096 --no-time --no-baseline > "${OUT:-$here}/ncu-4k.txt" 2>&1
  grep -Ei 'stall|issue|occupancy|registers|shared memory|warp cycles|eligible|active warps' \
    "${OUT:-$here}/ncu-4k.txt" | cut -c1-160 | head -60
  exit 0
fi
# Each run at most 60 s: a hanging variant costs one entry, not the call.
cb="timeout 60 $cb" sb="timeout 60 $sb"
{
cat $here/ptxas.txt
echo "== conv gated fused: library vs late loads in iteration (16 x 768), two reps"
for rep in 1 2; do for L in 4096 2048 1024; do for dt in bf16 f16; do for v in lib late; do
  echo "-- L$L $dt $v"; $cb --lib $here/c_$v --batch 16 --channels 768 --seqlen $L --dtype $dt --gates pre,post --no-baseline 2>&1 | line
done; done; done; done
echo "== conv ungated 2K / 4K: library vs --stmatrix (2K spill-free with it)"
for rep in 1; do for L in 2048 4096; do for dt in bf16 f16; do for v in lib stm; do
  echo "-- L$L none $dt $v"; $cb --lib $here/n_$v --batch 16 --channels 768 --seqlen $L --dtype $dt --no-baseline 2>&1 | line
done; done; done; done
echo "== SSD every option: library vs late loads in iteration"
for rep in 1; do for v in lib late; do
  echo "-- all bf16 n128 $v"; $sb --lib $here/s_$v --options all 2>&1 | line
  echo "-- all f16 n128 $v"; $sb --lib $here/s_$v --options all --dtype f16 2>&1 | line
  echo "-- all bf16 n256 $v"; $sb --lib $here/s_$v --options all --dstate 256 2>&1 | line
  # f32 unsplit (--segments 1: the fused kernel; batch 2 would otherwise
  # run split and time the segment kernels), then as the library runs it.
  echo "-- all f32 n64 fused $v"; $sb --lib $here/s_$v --options all --dtype f32 --dstate 64 --batch 2 --segments 1 2>&1 | line
  echo "-- all f32 n256 fused $v"; $sb --lib $here/s_$v --options all --dtype f32 --dstate 256 --batch 2 --segments 1 2>&1 | line
  echo "-- all f32 n64 split $v"; $sb --lib $here/s_$v --options all --dtype f32 --dstate 64 --batch 2 2>&1 | line
  echo "-- layer bf16 n128 $v"; $sb --lib $here/s_$v 2>&1 | line
done; done
} > "$log" 2>&1
grep -E '^(--|==)|convolve|forward|FAIL|error' "$log" | sed 's/ (median of 20).*//' | cut -c1-200
