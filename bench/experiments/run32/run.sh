#!/usr/bin/env bash
# run32 on the device (carry build-prof/r32): the SSD kernels with z and
# the per-channel D row loaded at their use (at_use/) against the library
# (lib/), each run checked against float64 first; 8 x 4096 x 80 heads x 64
# (f32: batch 2, fused); log in $OUT/run32.txt. About 3 minutes.
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
sb="timeout 60 $here/tessera-ssd-bench"
log=${OUT:-$here}/run32.txt
line() { grep -Ei '^(time|FAIL|SKIP|check)|error|fault|killed|cannot' | sed 's/ on NVIDIA H200//; s/ (median of 20).*//' | cut -c1-300; }
{
cat $here/ptxas.txt
for rep in 1 2; do for spec in "bf16 128 layer" "bf16 128 D,bias,softplus,z" \
    "bf16 128 Dpc,bias,softplus" "bf16 128 Dpc,bias,softplus,seq,z" \
    "bf16 128 all" "f16 128 all" "bf16 256 all" "f32 64 all" "f32 256 all"; do
  set -- $spec
  batch=8; [ "$1" = f32 ] && batch=2
  for v in lib at_use; do
    echo "-- $1 $2 $3 $v"
    $sb --lib $here/$v --dtype $1 --dstate $2 --options $3 --batch $batch --segments 1 2>&1 | line
  done
done; done
} > "$log" 2>&1
grep -E '^--|forward|FAIL|error' "$log" | cut -c1-200
