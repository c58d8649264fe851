#!/usr/bin/env bash
# run33 on the device (carry build-prof/r33): the conv three-pass kernels
# with the outer passes on eight warps (w8: 64K; w8all: 16K, 32K, 64K)
# against the library (lib), each checked against float64 first; 16 x 768
# (32K 8 x 768, 64K 4 x 768). Log in $OUT/run33.txt. About 4 minutes.
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
cb="timeout 60 $here/tessera-conv-bench"
log=${OUT:-$here}/run33.txt
line() { grep -Ei '^(time|FAIL|SKIP|check|kernels)|error|fault|killed|cannot' | sed 's/ on NVIDIA H200//; s/ input random//' | cut -c1-300; }
t() { # variant dtype seqlen batch gates
  echo "-- $1 $2 L$3 b$4 $5"
  $cb --lib $here/$1 --batch $4 --channels 768 --seqlen $3 --dtype $2 --gates $5 --no-baseline 2>&1 | line
}
{
cat $here/ptxas.txt
for rep in 1 2; do
  for dt in bf16 f16; do for v in lib w8 w8all; do t $v $dt 65536 4 none; done; done
  for v in lib w8all; do t $v bf16 16384 16 none; t $v bf16 32768 8 none; done
done
for v in lib w8; do t $v bf16 65536 4 pre,post; done
} > "$log" 2>&1
grep -E '^--|convolve|FAIL|error' "$log" | cut -c1-200
