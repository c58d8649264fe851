// RUN: tile-opt %s --tile-assign-layouts --tile-accelerate-mma --canonicalize --tile-remove-layout-conversions | FileCheck %s

// An mma result feeding the A operand of the next mma: the ldmatrix round
// trip through shared memory that tile-accelerate-mma wrote becomes a
// conversion of registers (all warps along M: each thread already holds
// its A fragments); the first mma's operands still go through shared
// memory.
// CHECK-LABEL: tile.kernel @chain
// CHECK-COUNT-2: tile.local_load
// CHECK:         %[[D:.*]] = tile.mma
// CHECK:         %[[H:.*]] = arith.truncf %[[D]] : tensor<64x16xf32, #[[MMA:[a-z0-9_]+]]> to tensor<64x16xbf16, #[[MMA]]>
// CHECK-NOT:     tile.local_alloc
// CHECK:         %[[A:.*]] = tile.convert_layout %[[H]] : tensor<64x16xbf16, #[[MMA]]> -> tensor<64x16xbf16, #[[DOT:[a-z0-9_]+]]>
// CHECK-NOT:     tile.local_alloc
// CHECK:         tile.mma %[[A]]
tile.kernel @chain(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<32x16xbf16>
  %tf = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<16x16xbf16>
  %z = arith.constant dense<0.0> : tensor<64x16xf32>
  %d = tile.mma %ta, %tb, %z : tensor<64x32xbf16>, tensor<32x16xbf16>, tensor<64x16xf32>
  %h = arith.truncf %d : tensor<64x16xf32> to tensor<64x16xbf16>
  %e = tile.mma %h, %tf, %z : tensor<64x16xbf16>, tensor<16x16xbf16>, tensor<64x16xf32>
  tile.store %e, %c[%i, %i] : tensor<64x16xf32> -> !tile.view<?x?xf32>
}
