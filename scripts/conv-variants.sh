#!/usr/bin/env bash
# Compiles variants of the long convolution's kernels (warps, exchange
# swizzle) into one kernel library folder per variant, and writes the script
# that times them all in one run on the GPU host: how the per-length choice
# in conv::compileFlags was made (bench/RESULTS.md, 2026-12-01).
#   scripts/conv-variants.sh TESSERA TILE_COMPILE OUTDIR [DTYPE] LEN:WARPS[:FLAGS] ...
# FLAGS: tile-compile flags without their dashes, joined by commas
# (no-swizzle, no-pipeline, stmatrix, wgmma-along-n; noswizzle is
# no-swizzle).
# then, on the GPU host (with tessera-conv-bench next to OUTDIR):
#   bash OUTDIR/run.sh
set -euo pipefail
tessera=$1 compile=$2 out=$3
shift 3
dtype=bf16
case "${1:-}" in bf16|f16) dtype=$1; shift ;; esac
[ $# -gt 0 ] || { echo "usage: $0 TESSERA TILE_COMPILE OUTDIR [bf16|f16] LEN:WARPS[:FLAG,...] ..." >&2; exit 2; }
mkdir -p "$out"
{
  echo '#!/usr/bin/env bash'
  echo '# Times every variant (no baseline; sampled rows checked first).'
  echo 'here=$(cd "$(dirname "$0")" && pwd)'
  echo 'export LD_LIBRARY_PATH=${CUDA_HOME:-/usr/local/cuda}/lib64:${LD_LIBRARY_PATH:-}'
  echo 'bench=${BENCH:-$here/../tessera-conv-bench}'
} > "$out/run.sh"
for spec in "$@"; do
  IFS=: read -r len warps extra <<< "$spec"
  flags="--num-warps $warps"
  IFS=, read -r -a names <<< "${extra:-}"
  for n in "${names[@]}"; do
    [ "$n" = noswizzle ] && n=no-swizzle
    flags="$flags --$n"
  done
  tag="${dtype}_${len}_w${warps}${extra:+_${extra//,/_}}"
  mkdir -p "$out/$tag"
  "$tessera" print conv --dtype "$dtype" --seqlen "$len" --gates none > "$out/$tag/k.mlir"
  # shellcheck disable=SC2086
  "$compile" "$out/$tag/k.mlir" --target sm_90a $flags -o "$out/$tag/k.ptx" --info "$out/$tag/k.json"
  name=$(sed -n 's/.*"name": "\([^"]*\)".*/\1/p' "$out/$tag/k.json" | head -n 1)
  mv "$out/$tag/k.ptx" "$out/$tag/$name.ptx"
  mv "$out/$tag/k.json" "$out/$tag/$name.json"
  rm "$out/$tag/k.mlir"
  batch=16
  [ "$len" -gt 16384 ] && batch=4
  echo "printf '%-28s ' $tag; \"\$bench\" --lib \"\$here/$tag\" --batch $batch --channels 768 --seqlen $len --dtype $dtype --no-baseline 2>&1 | grep -E '^(time|FAIL)' | tail -n 1" >> "$out/run.sh"
done
chmod +x "$out/run.sh"
