// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-accelerate-mma=target=sm_90a --canonicalize --tile-remove-layout-conversions | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-accelerate-mma=target=sm_90a --canonicalize "--tile-remove-layout-conversions=wgmma-register-a=0" | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s -split-input-file --tile-assign-layouts=num-warps=8 "--tile-accelerate-mma=target=sm_90a warpgroups-along-n=1" --canonicalize --tile-remove-layout-conversions | FileCheck %s --check-prefix=ALONGN

// An accumulator, after elementwise math in its registers, as the A operand
// of the next wgmma: every thread already holds its A fragments, so A is
// taken from registers (a conversion that moves no data) instead of being
// written to shared memory. The loaded operands still go through shared
// memory.
// CHECK-DAG:   #[[MMA64:[a-z0-9_]+]] = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
// CHECK-DAG:   #[[MMA32:[a-z0-9_]+]] = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 32]>
// CHECK-DAG:   #[[DOT:[a-z0-9_]+]] = #tile.dot_operand<idx = 0, parent = #[[MMA32]], kwidth = 2>
// CHECK-LABEL: tile.kernel @chain
// CHECK:       %[[D:.*]] = tile.warpgroup_mma_wait {{.*}} : tensor<64x64xf32, #[[MMA64]]>
// CHECK:       %[[S:.*]] = math.exp %[[D]] : tensor<64x64xf32, #[[MMA64]]>
// CHECK:       %[[H:.*]] = arith.truncf %[[S]] : tensor<64x64xf32, #[[MMA64]]> to tensor<64x64xbf16, #[[MMA64]]>
// CHECK:       %[[F:.*]] = tile.local_alloc %{{.*}} : tensor<64x32xbf16, #{{.*}}> -> !tile.smem<64x32xbf16
// CHECK-NOT:   tile.local_alloc
// CHECK:       %[[A:.*]] = tile.convert_layout %[[H]] : tensor<64x64xbf16, #[[MMA64]]> -> tensor<64x64xbf16, #[[DOT]]>
// CHECK:       tile.warpgroup_mma %[[A]], %[[F]], %{{.*}} : tensor<64x64xbf16, #[[DOT]]>, !tile.smem<64x32xbf16, {{.*}}>, tensor<64x32xf32, #[[MMA32]]>
// With wgmma-register-a off, A goes through shared memory.
// OFF-LABEL: tile.kernel @chain
// OFF:       %[[H:.*]] = arith.truncf
// OFF:       %[[SA:.*]] = tile.local_alloc %[[H]] : tensor<64x64xbf16, #{{.*}}> -> !tile.smem<64x64xbf16
// OFF:       tile.warpgroup_mma %[[SA]], %{{.*}} : !tile.smem<64x64xbf16
// Two warpgroups along N split the accumulator's columns: a warpgroup does
// not hold the whole rows its A needs, so A goes through shared memory.
// ALONGN-LABEL: tile.kernel @chain
// ALONGN:       %[[H:.*]] = arith.truncf
// ALONGN:       %[[SA:.*]] = tile.local_alloc %[[H]] : tensor<64x64xbf16, #{{.*}}> -> !tile.smem<64x64xbf16
// ALONGN:       tile.warpgroup_mma %[[SA]], %{{.*}} : !tile.smem<64x64xbf16
tile.kernel @chain(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<32x64xbf16>
  %tf = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %z2 = arith.constant dense<0.0> : tensor<64x32xf32>
  %d = tile.mma %ta, %tb, %z : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %s = math.exp %d : tensor<64x64xf32>
  %h = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
  %e = tile.mma %h, %tf, %z2 : tensor<64x64xbf16>, tensor<64x32xbf16>, tensor<64x32xf32>
  tile.store %e, %c[%i, %i] : tensor<64x32xf32> -> !tile.view<?x?xf32>
}

// -----

// The transpose of an accumulator is read by wgmma's transpose-A from
// shared memory: its fragments are not where the threads hold them.
// CHECK-LABEL: tile.kernel @transposed
// CHECK:       %[[SA:.*]] = tile.local_alloc %{{.*}} : tensor<64x64xbf16, #mma{{[0-9]*}}> -> !tile.smem<64x64xbf16
// CHECK:       tile.warpgroup_mma %[[SA]] transposed,
tile.kernel @transposed(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<32x64xbf16>
  %tf = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %z2 = arith.constant dense<0.0> : tensor<64x32xf32>
  %d = tile.mma %ta, %tb, %z : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %h = arith.truncf %d : tensor<64x64xf32> to tensor<64x64xbf16>
  %t = tile.permute %h [1, 0] : tensor<64x64xbf16> -> tensor<64x64xbf16>
  %e = tile.mma %t, %tf, %z2 : tensor<64x64xbf16>, tensor<64x32xbf16>, tensor<64x32xf32>
  tile.store %e, %c[%i, %i] : tensor<64x32xf32> -> !tile.view<?x?xf32>
}
