// The fused SSD forward (bf16, dstate 128, headdim 64, the Mamba-2 layer's
// options) through the whole pipeline on sm_90a, as the kernel library
// builds it (two stages).
// RUN: tessera print ssd-fused --dtype bf16 --dstate 128 | tile-compile - --target sm_90a --stages 2 --info %t.json | FileCheck %s
// RUN: FileCheck %s --input-file %t.json --check-prefix=INFO

// CHECK-LABEL: .entry ssd_fused_bf16_q64_p64_n128_bias_softplus_D(
// Prologue: x, B and C of the first chunk copied with cp.async (rank-4
// views), completing on an mbarrier.
// CHECK: cp.async.cg.shared.global
// CHECK: cp.async.mbarrier.arrive.noinc.shared::cta.b64
// The chunk loop waits for its stage.
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// C h^T: C K-major, the state (bf16 copy of the accumulator) N-major.
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{[^;]*}}, p, 1, 1, 0, 1;
// The state update (B o w)^T x: A read transposed from B's buffer layout.
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{[^;]*}}, p, 1, 1, 1, 1;
// C B^T: B read transposed (K-major) from the buffer the copy filled.
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{[^;]*}}, p, 1, 1, 0, 0;
// The next chunk's copies at the bottom of the loop.
// CHECK: cp.async.cg.shared.global
// INFO: "name": "ssd_fused_bf16_q64_p64_n128_bias_softplus_D"
// Two CTAs fit one H200 SM (2 x (S + 1 KB) <= 228 KB): buffers whose
// lifetimes do not overlap share memory.
// INFO-SAME: "shared_bytes": 115712
