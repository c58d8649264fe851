#!/usr/bin/env bash
# tessera-tune list / clear on a temporary cache, with no driver reachable
# (TESSERA_LIBCUDA points nowhere): the cache commands must not need one.
#   tessera-tune-test.sh PATH/TO/tessera-tune
set -u
tune=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export TESSERA_LIBCUDA=/nonexistent/libcuda.so.1 TESSERA_CACHE_DIR=$dir/default
cache=$dir/autotune.json
fails=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
has() { grep -qF -- "$2" <<< "$1"; }

out=$("$tune" list --cache "$cache" 2>&1)
check "list of a missing cache" has "$out" "autotune cache $cache: 0 entries"

cat > "$cache" <<'JSON'
{"kernel": "gemm_bf16_f32", "bucket": "4096x4096x4096", "device": "NVIDIA H200 (sm_90)", "config": "128x256x64.w8.s4", "ms": 0.1875, "date": "2026-11-30T12:00:00Z"}
{"kernel": "gemm_bf16_f32", "bucket": "8192x8192x8192", "device": "NVIDIA H200 (sm_90)", "config": "128x256x64.w8.s4.hints", "ms": 1.4321, "date": "2026-11-30T12:00:01Z"}
{"kernel": "attention", "bucket": "4096x128", "device": "NVIDIA H200 (sm_90)", "config": "64x64.w4", "ms": 0.5, "date": "2026-11-30T12:00:02Z"}
JSON
out=$("$tune" list --cache "$cache" 2>&1)
echo "$out"
check "list counts" has "$out" "autotune cache $cache: 3 entries"
check "list header" has "$out" "kernel         bucket          device               config                      ms  date"
check "list row" has "$out" "gemm_bf16_f32  8192x8192x8192  NVIDIA H200 (sm_90)  128x256x64.w8.s4.hints  1.4321  2026-11-30T12:00:01Z"

out=$("$tune" clear --cache "$cache" --kernel attention 2>&1)
check "clear one kernel" has "$out" "removed 1 entry of kernel 'attention'"
out=$("$tune" list --cache "$cache" 2>&1)
check "the others are kept" has "$out" "2 entries"
check "attention is gone" bash -c "! grep -q attention '$cache'"
check "no temporary file" test "$(ls "$dir")" = "autotune.json"

out=$("$tune" clear --cache "$cache" 2>&1)
check "clear all" has "$out" "removed $cache (2 entries)"
check "the file is gone" test ! -e "$cache"
out=$("$tune" clear --cache "$cache" 2>&1)
check "clear of a missing cache" has "$out" "no autotune cache at $cache"

echo "not json" > "$cache"
out=$("$tune" list --cache "$cache" 2>&1)
rc=$?
check "a corrupt cache lists as empty" has "$out" "0 entries"
check "with a warning" has "$out" "warning: autotune cache $cache is corrupt (line 1"
check "and exit status 0" test $rc -eq 0
out=$("$tune" clear --cache "$cache" 2>&1)
check "a corrupt cache can be cleared" has "$out" "removed $cache (it was unreadable)"

out=$("$tune" path)
check "path follows TESSERA_CACHE_DIR" test "$out" = "$dir/default/autotune.json"
"$tune" list > /dev/null 2>&1
check "list of the default cache creates nothing" test ! -e "$dir/default"

"$tune" frobnicate > /dev/null 2>&1
check "an unknown command is a usage error" test $? -eq 2
"$tune" list --kernel x > /dev/null 2>&1
check "list takes no --kernel" test $? -eq 2

[ $fails -eq 0 ] && echo PASS || echo "FAILED: $fails"
exit $((fails > 0))
