// RUN: tile-opt %s | tile-opt | FileCheck %s
// The level-2 shared-memory, mbarrier, TMA and wgmma ops round-trip.

#nv = #tile.nvmma_shared<swizzle = 128>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
// CHECK-LABEL: tile.kernel @hopper
// CHECK: tile.local_alloc : !tile.smem<2x64x64xbf16, #tile.nvmma_shared<swizzle = 128>>
// CHECK: tile.barrier_alloc count 2 : !tile.smem<2xi64>
// CHECK: tile.local_index %{{.*}}[%{{.*}}] : !tile.smem<2x64x64xbf16, {{.*}}> -> !tile.smem<64x64xbf16, {{.*}}>
// CHECK: tile.async_load %arg0[%{{.*}}, %{{.*}}] into %{{.*}}, %{{.*}}[%{{.*}}] cache(evict_last) : !tile.view<?x?xbf16> -> !tile.smem<64x64xbf16, {{.*}}>, !tile.smem<2xi64>
// CHECK: tile.barrier_wait %{{.*}}[%{{.*}}], %{{.*}} : !tile.smem<2xi64>
// CHECK: tile.warpgroup_mma %{{.*}}, %{{.*}}, %{{.*}} : !tile.smem<64x64xbf16, {{.*}}>, !tile.smem<64x64xbf16, {{.*}}>, tensor<64x64xf32, #mma>
// CHECK: tile.warpgroup_mma_wait %{{.*}} pending 1 : tensor<64x64xf32, #mma>
// CHECK: tile.sync_threads
// CHECK: tile.local_alloc %{{.*}} : tensor<64x64xf32, #mma> -> !tile.smem<64x64xf32, #tile.nvmma_shared<swizzle = 128>>
tile.kernel @hopper(%a: !tile.view<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %ring = tile.local_alloc : !tile.smem<2x64x64xbf16, #nv>
  %full = tile.barrier_alloc count 2 : !tile.smem<2xi64>
  %s = tile.local_index %ring[%c0] : !tile.smem<2x64x64xbf16, #nv> -> !tile.smem<64x64xbf16, #nv>
  tile.async_load %a[%c0, %c0] into %s, %full[%c0] cache(evict_last) : !tile.view<?x?xbf16> -> !tile.smem<64x64xbf16, #nv>, !tile.smem<2xi64>
  tile.barrier_wait %full[%c0], %true : !tile.smem<2xi64>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %d = tile.warpgroup_mma %s, %s, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x64xbf16, #nv>, tensor<64x64xf32, #mma>
  %w = tile.warpgroup_mma_wait %d pending 1 : tensor<64x64xf32, #mma>
  tile.sync_threads
  %f = tile.local_alloc %w : tensor<64x64xf32, #mma> -> !tile.smem<64x64xf32, #nv>
}

// A in registers, in the accumulator's A dot-operand layout.
#dot = #tile.dot_operand<idx = 0, parent = #mma, kwidth = 2>
// CHECK-LABEL: tile.kernel @register_a
// CHECK: tile.warpgroup_mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xbf16, #dot_op>, !tile.smem<64x64xbf16, {{.*}}>, tensor<64x64xf32, #mma>
tile.kernel @register_a() {
  %ra = arith.constant dense<1.0> : tensor<64x64xbf16, #dot>
  %s = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %d = tile.warpgroup_mma %ra, %s, %z : tensor<64x64xbf16, #dot>, !tile.smem<64x64xbf16, #nv>, tensor<64x64xf32, #mma>
}
