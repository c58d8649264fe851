#!/usr/bin/env bash
# Compiles the long convolution's kernels of some lengths under several sets
# of tile-compile flags, one kernel library folder per (flags, length), and
# writes OUTDIR/run.sh, which times them all in one run on the GPU host (no
# baseline; sampled rows checked first). How flag choices such as warps or
# --no-pipeline are measured.
#   scripts/conv-flag-variants.sh TESSERA TILE_COMPILE OUTDIR DTYPE "LEN ..." TAG="FLAGS" ...
# then, on the GPU host (with tessera-conv-bench next to OUTDIR):
#   bash OUTDIR/run.sh
set -euo pipefail
tessera=$1 compile=$2 out=$3 dtype=$4 lengths=$5
shift 5
mkdir -p "$out"
{
  echo '#!/usr/bin/env bash'
  echo 'here=$(cd "$(dirname "$0")" && pwd)'
  echo 'export LD_LIBRARY_PATH=${CUDA_HOME:-/usr/local/cuda}/lib64:${LD_LIBRARY_PATH:-}'
  echo 'bench=${BENCH:-$here/../tessera-conv-bench}'
} > "$out/run.sh"
for len in $lengths; do
  "$tessera" print conv --dtype "$dtype" --seqlen "$len" --gates none > "$out/k$len.mlir"
  for spec in "$@"; do
    tag=${spec%%=*} flags=${spec#*=}
    dir="$out/${tag}_$len"
    mkdir -p "$dir"
    # shellcheck disable=SC2086
    "$compile" "$out/k$len.mlir" --target sm_90a $flags -o "$dir/k.ptx" --info "$dir/k.json"
    name=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' "$dir/k.json" | head -n 1)
    mv "$dir/k.ptx" "$dir/$name.ptx"
    mv "$dir/k.json" "$dir/$name.json"
    batch=16
    [ "$len" -gt 16384 ] && batch=4
    echo "printf '%-24s ' ${tag}_$len; \"\$bench\" --lib \"\$here/${tag}_$len\" --batch $batch --channels 768 --seqlen $len --dtype $dtype --no-baseline 2>&1 | tail -n 1" >> "$out/run.sh"
  done
  rm "$out/k$len.mlir"
done
chmod +x "$out/run.sh"
