// RUN: tile-opt %s -split-input-file --tile-remove-layout-conversions --canonicalize --cse | FileCheck %s

#b = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#c = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// The row maxima of an mma accumulator, as the conv kernels scale each row
// by them: the reduce runs in the accumulator's layout (each row's
// elements lie in one warp), the elementwise ops on the maxima follow it,
// and the broadcast back needs no exchange: no conversion is left.
// CHECK-LABEL: tile.kernel @row_scale
// CHECK-NOT: tile.convert_layout
// CHECK:     %[[M:.*]] = tile.reduce max %{{.*}} axis 1 : tensor<64x32xf32, #mma> -> tensor<64x1xf32, #mma>
// CHECK:     %[[S:.*]] = arith.divf %{{.*}}, %[[M]] : tensor<64x1xf32, #mma>
// CHECK:     %[[SB:.*]] = tile.broadcast %[[S]] : tensor<64x1xf32, #mma> -> tensor<64x32xf32, #mma>
// CHECK-NOT: tile.convert_layout
// CHECK:     %[[Y:.*]] = arith.mulf %{{.*}}, %[[SB]] : tensor<64x32xf32, #mma>
// CHECK:     tile.convert_layout %[[Y]]
tile.kernel @row_scale(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant dense<1.0> : tensor<64x1xf32, #c>
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #mma>
  %abs = math.absf %a : tensor<64x32xf32, #mma>
  %ab = tile.convert_layout %abs : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #b>
  %m = tile.reduce max %ab axis 1 : tensor<64x32xf32, #b> -> tensor<64x1xf32, #c>
  %s = arith.divf %one, %m : tensor<64x1xf32, #c>
  %sb = tile.broadcast %s : tensor<64x1xf32, #c> -> tensor<64x32xf32, #b>
  %a2 = tile.convert_layout %a : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #b>
  %y = arith.mulf %a2, %sb : tensor<64x32xf32, #b>
  tile.store %y, %x[%c0, %c0] : tensor<64x32xf32, #b> -> !tile.view<?x?xf32>
}

// -----

#b = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#c = #tile.blocked<spt = [1, 1], tpw = [1, 32], wpc = [1, 4], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>

// Column sums of an accumulator whose warps split the rows too: in its
// layout as well (one partial a warp through shared memory).
// CHECK-LABEL: tile.kernel @column_sums
// CHECK: %[[S:.*]] = tile.reduce sum %{{.*}} axis 0 : tensor<32x16xf32, #mma> -> tensor<1x16xf32, #mma>
// CHECK: tile.convert_layout %[[S]] : tensor<1x16xf32, #mma> -> tensor<1x16xf32, #{{.*}}>
tile.kernel @column_sums(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<32x16xf32, #mma>
  %ab = tile.convert_layout %a : tensor<32x16xf32, #mma> -> tensor<32x16xf32, #b>
  %s = tile.reduce sum %ab axis 0 : tensor<32x16xf32, #b> -> tensor<1x16xf32, #c>
  tile.store %s, %x[%c0, %c0] : tensor<1x16xf32, #c> -> !tile.view<?x?xf32>
}

// -----

#b = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#c = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
#dot = #tile.dot_operand<idx = 0, parent = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>, kwidth = 2>

// What stays: a reduce of an mma operand fragment (warps that share its
// rows hold copies) keeps its conversion.
// CHECK-LABEL: tile.kernel @operand_stays
// CHECK: %[[A:.*]] = tile.convert_layout %{{.*}} : tensor<64x32xbf16, #dot_op> -> tensor<64x32xbf16, #[[B:.*]]>
// CHECK: tile.reduce max %[[A]] axis 1 : tensor<64x32xbf16, #[[B]]>
tile.kernel @operand_stays(%x: !tile.view<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #b>
  %s = tile.local_alloc %a : tensor<64x32xbf16, #b> -> !tile.smem<64x32xbf16, #tile.nvmma_shared<swizzle = 64>>
  %f = tile.local_load %s : !tile.smem<64x32xbf16, #tile.nvmma_shared<swizzle = 64>> -> tensor<64x32xbf16, #dot>
  %fb = tile.convert_layout %f : tensor<64x32xbf16, #dot> -> tensor<64x32xbf16, #b>
  %m = tile.reduce max %fb axis 1 : tensor<64x32xbf16, #b> -> tensor<64x1xbf16, #c>
  tile.store %m, %x[%c0, %c0] : tensor<64x1xbf16, #c> -> !tile.view<?x?xbf16>
}
