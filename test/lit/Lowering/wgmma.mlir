// The Hopper GEMM tile through the whole pipeline: TMA copies on mbarriers,
// wgmma reading 128-byte swizzled shared memory, one group in flight.
// RUN: tessera print gemm --dtype bf16 --tile 128x256x64 | tile-compile - --target sm_90a --num-warps 8 --info %t.json | FileCheck %s
// RUN: FileCheck %s --input-file %t.json --check-prefix=INFO
// RUN: tessera print gemm --dtype bf16 --tile 128x256x64 | tile-compile - --target sm_90a --num-warps 8 --no-pipeline | FileCheck %s --check-prefix=NOPIPE
// RUN: tessera print gemm --dtype f16 | tile-compile - --target sm_80 | FileCheck %s --check-prefix=SM80
// RUN: tessera print gemm --dtype bf16 --tile 64x64x32 | tile-compile - --target sm_90a --num-warps 8 --wgmma-along-n --info %t.n.json | FileCheck %s --check-prefix=ALONGN
// RUN: FileCheck %s --input-file %t.n.json --check-prefix=ALONGN-INFO
// RUN: tessera print gemm --dtype bf16 --tile 128x256x64 | tile-compile - --target sm_90a --num-warps 8 | FileCheck %s --check-prefix=NOSTEP
// RUN: tessera print gemm --dtype bf16 --tile 128x256x64 | tile-compile - --target sm_90a --num-warps 8 --step-descriptors | FileCheck %s --check-prefix=STEP

// The B operand's K steps (2048 bytes apart: 128 in the start address
// field). By default each descriptor is rebuilt from its address (add,
// shift, or); with --step-descriptors the steps are adds to the first.
// NOSTEP-LABEL: .entry gemm_bf16_f32_128x256x64(
// NOSTEP: wgmma.fence.sync.aligned;
// NOSTEP-NOT: add.s64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 128;
// NOSTEP-COUNT-4: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 4611686293338849280;
// NOSTEP-NOT: add.s64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 128;
// NOSTEP: wgmma.mma_async
// STEP-LABEL: .entry gemm_bf16_f32_128x256x64(
// STEP: or.b64 [[D:%rd[0-9]+]], {{%rd[0-9]+}}, 4611686293338849280;
// STEP: add.s64 {{%rd[0-9]+}}, [[D]], 128;
// STEP: add.s64 {{%rd[0-9]+}}, [[D]], 256;
// STEP: add.s64 {{%rd[0-9]+}}, [[D]], 384;
// STEP: wgmma.mma_async

// CHECK: .extern .shared .align 1024 .b8 tessera_smem[];
// CHECK-LABEL: .entry gemm_bf16_f32_128x256x64(
// Three views (ptr, 2 sizes, 2 strides each), then the two tensor maps.
// CHECK-COUNT-15: .param .u64
// CHECK-NEXT: .param .u64 gemm_bf16_f32_128x256x64_param_15,
// CHECK-NEXT: .param .u64 gemm_bf16_f32_128x256x64_param_16
// CHECK: .maxntid 256, 1, 1
// CHECK: mbarrier.init.shared::cta.b64
// CHECK: fence.mbarrier_init.release.cluster;
// Prologue: A (16 KB, one box) and B (32 KB, four 64-column boxes).
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{.*}}], 16384; @p cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{.*}}], 32768;
// CHECK-SAME: @p cp.async.bulk.tensor.2d
// CHECK-SAME: @p cp.async.bulk.tensor.2d
// CHECK-SAME: @p cp.async.bulk.tensor.2d
// CHECK-SAME: @p cp.async.bulk.tensor.2d
// CHECK-NOT: cp.async.bulk.tensor.2d
// CHECK-SAME: }
// Main loop.
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK: wgmma.fence.sync.aligned;
// Four k16 steps of K = 64; trans-b = 1 (B is N-major).
// CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{[^;]*}}, p, 1, 1, 0, 1;
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{[^;]*}}, p, 1, 1, 0, 1;
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{[^;]*}}, p, 1, 1, 0, 1;
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{[^;]*}}, p, 1, 1, 0, 1;
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: bar.sync 0;
// CHECK: cp.async.bulk.tensor.2d
// After the loop.
// CHECK: wgmma.wait_group.sync.aligned 0;
// INFO: "shared_bytes": 196640
// INFO: "tma": [
// INFO-NEXT: {"arg": 0, "box": [128, 64], "swizzle": 128},
// INFO-NEXT: {"arg": 1, "box": [64, 64], "swizzle": 128}

// Without tile-pipeline: the operands go through registers into swizzled
// shared memory (16-byte stores), fenced for the async proxy.
// NOPIPE-NOT: cp.async.bulk
// NOPIPE: st.shared.v4.b32
// NOPIPE: fence.proxy.async.shared::cta;
// NOPIPE: bar.sync 0;
// NOPIPE: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// NOPIPE: wgmma.wait_group.sync.aligned 0;

// sm_80: cp.async into the ring (16-byte pieces, zero-filled past the
// edge; element by element for misaligned rows), waits by test_wait,
// ldmatrix into mma.sync fragments.
// SM80: mbarrier.init.shared::cta.b64
// SM80-NOT: fence.mbarrier_init
// SM80: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// SM80: cp.async.mbarrier.arrive.noinc.shared::cta.b64
// SM80: mbarrier.arrive.shared::cta.b64
// SM80: mbarrier.test_wait.parity.shared::cta.b64
// SM80: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// SM80: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// SM80: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SM80-NOT: wgmma

// 64 rows on 8 warps with --wgmma-along-n: two warpgroups along N, 32
// columns each (warpgroup
// g = warp / 4 starts its B descriptors one 64-byte slab of K rows, 2048
// bytes, per group in; the GPU cases check the products).
// ALONGN-LABEL: .entry gemm_bf16_f32_64x64x32(
// ALONGN: .maxntid 256, 1, 1
// ALONGN: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {{[^;]*}}, p, 1, 1, 0, 1;
// ALONGN-SAME: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {{[^;]*}}, p, 1, 1, 0, 1;
// ALONGN-NOT: wgmma.mma_async
// ALONGN: wgmma.commit_group.sync.aligned;
// B's TMA box and swizzle are one group's 32 columns (64 bytes).
// ALONGN-INFO: {"arg": 1, "box": [32, 32], "swizzle": 64}
