// tf32 wgmma in the PTX: operands rounded with cvt.rna.tf32.f32 before
// they are written to shared memory (B, transposed in registers, with
// 4-byte stores into its N x K buffer), then m64nNk8 with two descriptors
// and no transpose immediates.
// RUN: tile-compile %s --target sm_90a --wgmma-tf32 | FileCheck %s
// RUN: tessera print gemm --dtype f32 | tile-compile - --target sm_90a --wgmma-tf32 | FileCheck %s --check-prefix=GEMM
// RUN: tile-compile %s --target sm_90a | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: .entry nn(
// CHECK-COUNT-32: cvt.rna.tf32.f32
// CHECK: st.shared.v4.b32
// CHECK: fence.proxy.async.shared::cta;
// CHECK: st.shared.b32
// CHECK: fence.proxy.async.shared::cta;
// CHECK: wgmma.fence.sync.aligned;
// The accumulator is zero: the first K step does not read it (scale-d z).
// CHECK: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{{[^}]*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, z, 1, 1;
// CHECK-COUNT-3: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{{[^}]*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// CHECK: wgmma.commit_group.sync.aligned;
// The GEMM's main loop (64 x 64 x 32 tiles) on tf32 wgmma.
// GEMM: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// GEMM-NOT: mma.sync
// OFF-NOT: wgmma.mma_async
// OFF: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
tile.kernel @nn(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.mma %ta, %tb, %z : tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>
  tile.store %d, %c[%i, %i] : tensor<64x64xf32> -> !tile.view<?x?xf32>
}
