// `tessera conv-flags`: the tile-compile flags the conv kernel library
// compiles a length's kernels with (scripts/build-conv-kernels.sh).
//
// RUN: tessera conv-flags --seqlen 1024 | FileCheck %s --check-prefix=K1
// RUN: tessera conv-flags --seqlen 4096 | FileCheck %s --check-prefix=K4
// RUN: tessera conv-flags --seqlen 16382 | FileCheck %s --check-prefix=FUSED16
// RUN: tessera conv-flags --seqlen 65536 | FileCheck %s --check-prefix=K64
// RUN: not tessera conv-flags --seqlen 70000 2>&1 | FileCheck %s --check-prefix=BAD

// K1: {{^}}--num-warps 4 --pair-truncations --fma --step-descriptors{{$}}
// K4: {{^}}--num-warps 8 --no-hoist-invariants --pair-truncations --fma --step-descriptors{{$}}
// FUSED16: {{^}}--num-warps 16 --no-swizzle --no-hoist-invariants{{$}}
// K64: {{^}}--num-warps 8 --no-hoist-invariants --early-refill{{$}}
// BAD: error: --seqlen must be in [2, 65536]
