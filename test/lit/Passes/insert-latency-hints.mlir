// RUN: tile-opt %s -split-input-file --tile-insert-latency-hints | FileCheck %s
// RUN: tile-compile %s --target sm_90a --latency-hints | FileCheck %s --check-prefix=PTX
// RUN: tile-compile %s --target sm_80 --latency-hints | FileCheck %s --check-prefix=SM80
// RUN: tile-compile %s --target sm_90a | FileCheck %s --check-prefix=NOHINTS

// A GEMM: the A and B tiles move with the k loop (latency from their 4 KB:
// 2 + log2 4 = 4) and are read by every program along the grid dimension
// their index ignores (evict_last); C is written once (evict_first). The
// author's hint on the third load wins.
// CHECK-LABEL: tile.kernel @gemm
// CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] latency(4) cache(evict_last) {{.*}} -> tensor<64x32xbf16>
// CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] latency(4) cache(evict_last) {{.*}} -> tensor<32x64xbf16>
// CHECK: tile.load %{{.*}} latency(9) cache(normal) {{.*}} -> tensor<16x16xbf16>
// CHECK: tile.store %{{.*}} latency(1) cache(evict_first)
// On sm_90a the A and B tiles come by TMA (tile-pipeline), the policy as
// its cache-hint operand; on sm_80 by cp.async with the hint.
// PTX-LABEL: .entry gemm(
// PTX: createpolicy.fractional.L2::evict_last.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint
// PTX: createpolicy.fractional.L2::evict_first.b64
// PTX: st.global.L2::cache_hint
// SM80-LABEL: .entry gemm(
// SM80: createpolicy.fractional.L2::evict_last.b64
// SM80: cp.async.cg.shared.global.L2::cache_hint
// SM80: createpolicy.fractional.L2::evict_first.b64
// SM80: st.global.L2::cache_hint
// NOHINTS-LABEL: .entry gemm(
// NOHINTS-NOT: createpolicy
// NOHINTS-NOT: cache_hint
// NOHINTS: .entry copy(
tile.kernel @gemm(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %i = tile.program_id x : index
  %j = tile.program_id y : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %z) -> (tensor<64x64xf32>) {
    %ta = tile.load %a[%i, %k] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %b[%k, %j] : !tile.view<?x?xbf16> -> tensor<32x64xbf16>
    %tc = tile.load %a[%k, %k] latency(9) cache(normal) : !tile.view<?x?xbf16> -> tensor<16x16xbf16>
    %d = tile.mma %ta, %tb, %s : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %acc, %c[%i, %j] : tensor<64x64xf32> -> !tile.view<?x?xf32>
}

// -----

// A copy: each program reads its own tile once (evict_first, latency 1
// outside any loop); the store goes back to a view the kernel also reads
// (normal: no hint).
// CHECK-LABEL: tile.kernel @copy
// CHECK: tile.load %{{.*}} latency(1) cache(evict_first)
// CHECK: tile.store %{{.*}} latency(1) cache(normal)
// PTX-LABEL: .entry copy(
// PTX: ld.global.L2::cache_hint
// PTX-NOT: st.global.L2::cache_hint
tile.kernel @copy(%x: !tile.view<?xf32>) {
  %i = tile.program_id x : index
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<256xf32>
  tile.store %t, %x[%i] : tensor<256xf32> -> !tile.view<?xf32>
}
