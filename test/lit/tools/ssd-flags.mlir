// `tessera ssd-flags`: the tile-compile flags the SSD kernel library
// compiles each fused variant with (scripts/build-ssd-kernels.sh).
//
// RUN: tessera ssd-flags --dstate 64 | FileCheck %s --check-prefix=N64
// RUN: tessera ssd-flags --dstate 128 | FileCheck %s --check-prefix=N128
// RUN: tessera ssd-flags --dstate 256 | FileCheck %s --check-prefix=N256
// At 16-bit dstate 256 the misaligned-view copies run in a loop; not in f32.
// RUN: tessera ssd-flags --dstate 256 --options all | FileCheck %s --check-prefix=ALL256
// RUN: tessera ssd-flags --dtype f32 --dstate 256 | FileCheck %s --check-prefix=F32N256
// So do the 16-bit walks without options at 128 (not their split kernels).
// RUN: tessera ssd-flags --dstate 128 --options none | FileCheck %s --check-prefix=NONE128
// RUN: tessera ssd-flags --dstate 128 --options none --dtype f16 | FileCheck %s --check-prefix=NONE128
// RUN: tessera ssd-flags ssd-split --dstate 128 --options none | FileCheck %s --check-prefix=S128
// RUN: tessera ssd-flags ssd-fused --dstate 64 | FileCheck %s --check-prefix=N64
// The split forward's kernels and f32 at dstate 64 without LICM; the split
// forward prefetches at most 64 registers a thread a chunk ahead.
// RUN: tessera ssd-flags ssd-split --dstate 64 | FileCheck %s --check-prefix=S64
// RUN: tessera ssd-flags --dtype f32 --dstate 64 | FileCheck %s --check-prefix=N64SPLIT
// RUN: tessera ssd-flags ssd-split --dstate 128 | FileCheck %s --check-prefix=S128
// With z, seq_idx or headdim blocks of 128 (headdim 128) at dstate 64:
// without LICM too; with z, late loads in their chunk.
// RUN: tessera ssd-flags --dstate 64 --options D,z,bias,softplus | FileCheck %s --check-prefix=N64Z
// RUN: tessera ssd-flags ssd-split --dstate 128 --options z | FileCheck %s --check-prefix=S128Z
// RUN: tessera ssd-flags --dstate 64 --options seq | FileCheck %s --check-prefix=N64SPLIT
// RUN: tessera ssd-flags --dstate 64 --headdim 128 | FileCheck %s --check-prefix=N64SPLIT
// RUN: tessera ssd-flags --dstate 64 --options D,Dpc,bias,softplus | FileCheck %s --check-prefix=N64
// No split forward above dstate 128.
// RUN: not tessera ssd-flags ssd-split --dstate 256 2>&1 | FileCheck %s --check-prefix=NOSPLIT
// Kernels that copy initial or final states: no exchange swizzle at 64,
// eight warps along N and stmatrix at 128 with z or seq_idx.
// RUN: tessera ssd-flags --dtype f32 --dstate 64 --options all | FileCheck %s --check-prefix=ALL64
// RUN: tessera ssd-flags --dstate 128 --options all | FileCheck %s --check-prefix=ALL128
// With the copies alone, four warps at 128 (the split forward: eight).
// RUN: tessera ssd-flags --dstate 128 --options h0 | FileCheck %s --check-prefix=N128
// RUN: tessera ssd-flags ssd-split --dstate 128 --options h0 | FileCheck %s --check-prefix=SH0128
// RUN: tessera ssd-flags --dstate 128 --options h0,seq | FileCheck %s --check-prefix=H0128
// The causal mask as one coordinate difference a thread (no
// --no-coordinate-compares) only in the 16-bit fused walks at 128 and 256
// without seq_idx and the split forward at 64.
// RUN: not tessera ssd-flags --options nope 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tessera ssd-flags ssd 2>&1 | FileCheck %s --check-prefix=MODULE

// N64: {{^}}--merge-barriers --stages 3 --num-warps 4 --scratch-lifetimes --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares{{$}}
// N64SPLIT: {{^}}--merge-barriers --stages 3 --num-warps 4 --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares{{$}}
// N128: {{^}}--merge-barriers --stages 2 --num-warps 4 --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors{{$}}
// S64: {{^}}--merge-barriers --stages 3 --num-warps 4 --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --register-prefetch-budget 64{{$}}
// S128: {{^}}--merge-barriers --stages 2 --num-warps 4 --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares --register-prefetch-budget 64{{$}}
// S128Z: {{^}}--merge-barriers --stages 2 --num-warps 4 --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares --late-loads-in-iteration --register-prefetch-budget 64{{$}}
// SH0128: {{^}}--merge-barriers --stages 2 --num-warps 8 --stmatrix --wgmma-along-n --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares --register-prefetch-budget 64{{$}}
// N64Z: {{^}}--merge-barriers --stages 3 --num-warps 4 --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares --late-loads-in-iteration{{$}}
// ALL64: {{^}}--merge-barriers --stages 3 --no-swizzle --num-warps 4 --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares --late-loads-in-iteration{{$}}
// ALL128: {{^}}--merge-barriers --stages 2 --num-warps 8 --stmatrix --wgmma-along-n --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares --late-loads-in-iteration{{$}}
// H0128: {{^}}--merge-barriers --stages 2 --num-warps 8 --stmatrix --wgmma-along-n --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares{{$}}
// N256: {{^}}--merge-barriers --stages 2 --num-warps 8 --wgmma-along-n --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --loop-misaligned-copies{{$}}
// ALL256: {{^}}--merge-barriers --stages 2 --no-swizzle --num-warps 8 --wgmma-along-n --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares --late-loads-in-iteration --loop-misaligned-copies{{$}}
// F32N256: {{^}}--merge-barriers --stages 2 --num-warps 8 --wgmma-along-n --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares{{$}}
// BAD: error: unknown SSD option in 'nope'
// MODULE: error: ssd-flags takes ssd-fused (the default) or ssd-split, not 'ssd'
// NOSPLIT: error: ssd: no split forward at dstate 256 (up to 128)
// NONE128: {{^}}--merge-barriers --stages 2 --num-warps 4 --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --loop-misaligned-copies{{$}}
