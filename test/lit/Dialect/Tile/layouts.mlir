// Level-2 tile types: every layout attribute round-trips, on its own and on
// tiles, in the custom and the generic form.
// RUN: tile-opt %s -split-input-file | tile-opt -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file --mlir-print-op-generic | tile-opt -split-input-file | FileCheck %s

#blocked = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>
#wgmma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
#a = #tile.dot_operand<idx = 0, parent = #mma, kwidth = 2>
#b = #tile.dot_operand<idx = 1, parent = #mma, kwidth = 2>

// CHECK-DAG: #[[BLOCKED:blocked[0-9]*]] = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[MMA:mma[0-9]*]] = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>
// CHECK-DAG: #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
// CHECK-DAG: #tile.dot_operand<idx = 0, parent = #[[MMA]], kwidth = 2>
// CHECK-DAG: #tile.dot_operand<idx = 1, parent = #[[MMA]], kwidth = 2>
// CHECK-LABEL: tile.kernel @convert
// CHECK: tile.convert_layout %{{.*}} : tensor<64x32xf32, #[[BLOCKED]]> -> tensor<64x32xf32, #[[MMA]]>
tile.kernel @convert(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #blocked>
  %m = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #mma>
  %w = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #wgmma>
  %h = arith.truncf %t : tensor<64x32xf32, #blocked> to tensor<64x32xf16, #blocked>
  %a = tile.convert_layout %h : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #a>
  %b = tile.convert_layout %h : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #b>
  %back = tile.convert_layout %m : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
  tile.store %back, %x[%c0, %c0] : tensor<64x32xf32, #blocked> -> !tile.view<?x?xf32>
}

// -----

// A shared-memory layout attribute (the Tensor Core path keeps operands in
// shared memory with it).
// CHECK: #shared = #tile.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
// CHECK: module attributes {tile.swizzle = #shared}
// CHECK-NOT: tile.swizzle = #tile.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
module attributes {tile.swizzle = #tile.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>} {
}

// -----

// An accumulator with unit dimensions in front is a tile (the result of a
// reshape that adds them, stored into a wider view as it is).
// CHECK-LABEL: func.func @mma_unit_dims
// CHECK: tile.reshape %{{.*}} : tensor<64x16xf32, #mma> -> tensor<1x1x64x16xf32, #mma>
func.func @mma_unit_dims(%t: tensor<64x16xf32, #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>>) -> tensor<1x1x64x16xf32, #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>> {
  %r = tile.reshape %t : tensor<64x16xf32, #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>> -> tensor<1x1x64x16xf32, #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>>
  return %r : tensor<1x1x64x16xf32, #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>>
}
