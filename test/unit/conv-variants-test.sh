#!/usr/bin/env bash
# scripts/conv-variants.sh builds one library folder per variant, with the
# warps and flags asked for, and a run script naming each of them.
#   conv-variants-test.sh SCRIPT TESSERA TILE_COMPILE
set -euo pipefail
script=$1 tessera=$2 compile=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bash "$script" "$tessera" "$compile" "$out" f16 256:2 256:4:noswizzle 256:4:no-swizzle,no-pipeline
fail() { echo "FAIL: $*" >&2; exit 1; }
for tag in f16_256_w2 f16_256_w4_noswizzle f16_256_w4_no-swizzle_no-pipeline; do
  json=$out/$tag/conv_fused_f16_M512_32_16_rc.json
  [ -f "$json" ] || fail "$tag: no $json"
  [ -f "${json%.json}.ptx" ] || fail "$tag: no PTX"
  grep -qF -- "--lib \"\$here/$tag\"" "$out/run.sh" || fail "run.sh does not time $tag"
done
grep -q '"num_warps": 2' "$out/f16_256_w2/conv_fused_f16_M512_32_16_rc.json" || fail "w2 is not 2 warps"
grep -q '"num_warps": 4' "$out/f16_256_w4_noswizzle/conv_fused_f16_M512_32_16_rc.json" || fail "w4 is not 4 warps"
# The swizzle shows in the PTX as byte-addressed shared memory XORs; the
# two variants must differ.
cmp -s "$out/f16_256_w2/conv_fused_f16_M512_32_16_rc.ptx" \
  "$out/f16_256_w4_noswizzle/conv_fused_f16_M512_32_16_rc.ptx" && fail "variants are identical"
if bash "$script" "$tessera" "$compile" "$out/none" 2>/dev/null; then
  fail "no variants must be a usage error"
fi
echo "conv-variants: PASS"
