// `tessera conv-flags`: the tile-compile flags the conv kernel library
// compiles a length's kernels with (scripts/build-conv-kernels.sh), gates
// as `tessera print conv` takes them (default both).
//
// RUN: tessera conv-flags --seqlen 512 | FileCheck %s --check-prefix=K05
// Below 512: the kernel of 512.
// RUN: tessera conv-flags --seqlen 256 | FileCheck %s --check-prefix=K05
// The post gate at 1K, 2K and 4K with both gates: loaded late in its row's
// iteration; stmatrix at 1K with both gates and at every 2K.
// RUN: tessera conv-flags --seqlen 1024 | FileCheck %s --check-prefix=K1LATE
// RUN: tessera conv-flags --seqlen 1024 --gates pre,post | FileCheck %s --check-prefix=K1LATE
// RUN: tessera conv-flags --seqlen 1024 --gates post | FileCheck %s --check-prefix=K1
// RUN: tessera conv-flags --seqlen 1024 --gates pre | FileCheck %s --check-prefix=K1
// RUN: tessera conv-flags --seqlen 2048 | FileCheck %s --check-prefix=K2LATE
// RUN: tessera conv-flags --seqlen 2048 --gates pre | FileCheck %s --check-prefix=K2
// RUN: tessera conv-flags --seqlen 2048 --gates none | FileCheck %s --check-prefix=K2NONE
// Three CTAs an SM at 1K without gates, five at 512.
// RUN: tessera conv-flags --seqlen 1024 --gates none | FileCheck %s --check-prefix=K1NONE
// RUN: tessera conv-flags --seqlen 512 --gates none | FileCheck %s --check-prefix=K05NONE
// RUN: tessera conv-flags --seqlen 300 --gates none | FileCheck %s --check-prefix=K05NONE
// 4K: LICM, but not with both gates (late loads then); stmatrix.
// RUN: tessera conv-flags --seqlen 4096 | FileCheck %s --check-prefix=K4GATED
// RUN: tessera conv-flags --seqlen 4096 --gates post | FileCheck %s --check-prefix=K4
// RUN: tessera conv-flags --seqlen 4096 --gates pre | FileCheck %s --check-prefix=K4
// RUN: tessera conv-flags --seqlen 4096 --gates none | FileCheck %s --check-prefix=K4
// Three passes from 8192 (the same flags at every size), for lengths that
// are not powers of two too.
// RUN: tessera conv-flags --seqlen 8192 | FileCheck %s --check-prefix=K16
// RUN: tessera conv-flags --seqlen 12000 | FileCheck %s --check-prefix=K16
// RUN: tessera conv-flags --seqlen 16384 | FileCheck %s --check-prefix=K16
// RUN: tessera conv-flags --seqlen 65536 | FileCheck %s --check-prefix=K16
// RUN: not tessera conv-flags --seqlen 70000 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tessera conv-flags --seqlen 1 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tessera conv-flags 4096 2>&1 | FileCheck %s --check-prefix=STRAY
// RUN: not tessera conv-flags --seqlen 1024 --gates both 2>&1 | FileCheck %s --check-prefix=GATES

// K05: {{^}}--num-warps 2 --no-hoist-invariants --pair-truncations --fma --step-descriptors --merge-barriers{{$}}
// K05NONE: {{^}}--num-warps 2 --no-hoist-invariants --min-blocks-per-sm 5 --pair-truncations --fma --step-descriptors --merge-barriers{{$}}
// K1: {{^}}--num-warps 4 --pair-truncations --fma --step-descriptors --merge-barriers{{$}}
// K1LATE: {{^}}--num-warps 4 --late-loads-in-iteration --stmatrix --pair-truncations --fma --step-descriptors --merge-barriers{{$}}
// K2: {{^}}--num-warps 4 --no-hoist-invariants --stmatrix --pair-truncations --fma --step-descriptors --merge-barriers{{$}}
// K2LATE: {{^}}--num-warps 4 --no-hoist-invariants --late-loads-in-iteration --stmatrix --pair-truncations --fma --step-descriptors --merge-barriers{{$}}
// K2NONE: {{^}}--num-warps 4 --no-hoist-invariants --stmatrix --pair-truncations --fma --step-descriptors --merge-barriers{{$}}
// K1NONE: {{^}}--num-warps 4 --min-blocks-per-sm 3 --pair-truncations --fma --step-descriptors --merge-barriers{{$}}
// K4: {{^}}--num-warps 8 --stmatrix --pair-truncations --fma --step-descriptors --merge-barriers{{$}}
// K4GATED: {{^}}--num-warps 8 --no-hoist-invariants --late-loads-in-iteration --stmatrix --pair-truncations --fma --step-descriptors --merge-barriers{{$}}
// K16: {{^}}--num-warps 4 --no-hoist-invariants --pair-truncations --fma --step-descriptors --merge-barriers{{$}}
// BAD: error: --seqlen must be in [2, 65536]
// STRAY: error: conv-flags takes no kernel name (use --seqlen)
// GATES: error: --gates is none, pre, post or pre,post
