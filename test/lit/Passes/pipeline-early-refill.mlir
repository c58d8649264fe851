// RUN: tile-opt %s -split-input-file --tile-assign-layouts=num-warps=4 --tile-accelerate-mma=target=sm_90a --canonicalize --tile-remove-layout-conversions --canonicalize --tile-pipeline="stages=2 early-refill=true" --canonicalize | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-assign-layouts=num-warps=4 --tile-accelerate-mma=target=sm_90a --canonicalize --tile-remove-layout-conversions --canonicalize --tile-pipeline="stages=2" --canonicalize | FileCheck %s --check-prefix=LATE

// tile-pipeline early-refill: every wgmma of the body is waited for in its
// iteration, so the barrier at the bottom of iteration i - 1 frees its
// stage, and iteration i refills it at its top, before waiting for its own
// stage: with two stages each copy overlaps a whole iteration. Without the
// option the refill comes after that barrier, at the bottom (LATE).
// CHECK-LABEL: tile.kernel @per_iteration
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: scf.if
// CHECK:   tile.async_load %arg0
// CHECK: scf.for %[[K:.*]] = {{.*}} {
// CHECK:   %[[STAGE:.*]] = arith.remui %[[K]], %[[C2]]
// CHECK:   %[[AHEAD:.*]] = arith.addi %[[K]], %[[C1]]
// CHECK:   scf.if
// CHECK:     tile.async_load %arg0[%{{.*}}, %[[AHEAD]]]
// CHECK:     tile.async_load %arg1[%[[AHEAD]], %{{.*}}]
// CHECK:   tile.barrier_wait %{{.*}}[%[[STAGE]]]
// CHECK:   tile.warpgroup_mma
// CHECK:   tile.warpgroup_mma_wait %{{.*}} pending 0
// CHECK:   tile.store
// CHECK:   tile.sync_threads
// CHECK-NOT: tile.async_load
// CHECK:   }
// LATE-LABEL: tile.kernel @per_iteration
// LATE: scf.for
// LATE:   tile.barrier_wait
// LATE:   tile.warpgroup_mma
// LATE:   tile.sync_threads
// LATE:   scf.if
// LATE:     tile.async_load %arg0
tile.kernel @per_iteration(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %i = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  scf.for %k = %c0 to %n step %c1 {
    %ta = tile.load %a[%i, %k] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %tb = tile.load %b[%k, %i] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %d = tile.mma %ta, %tb, %z : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    tile.store %d, %c[%k, %i] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  }
  tile.return
}

// -----

// A GEMM keeps its last wgmma group in flight into the next iteration
// (pending 1): its stage is free only after that iteration's wait, so the
// refill stays at the bottom even with the option.
// CHECK-LABEL: tile.kernel @gemm
// CHECK: scf.for
// CHECK:   tile.barrier_wait
// CHECK:   tile.warpgroup_mma_wait %{{.*}} pending 1
// CHECK:   tile.sync_threads
// CHECK:   scf.if
// CHECK:     tile.async_load %arg0
tile.kernel @gemm(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %i = tile.program_id x : index
  %j = tile.program_id y : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %z) -> (tensor<64x64xf32>) {
    %ta = tile.load %a[%i, %k] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %tb = tile.load %b[%k, %j] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %d = tile.mma %ta, %tb, %s : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %acc, %c[%i, %j] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.return
}
