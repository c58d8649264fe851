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

#a = #tile.blocked<spt = [1, 4], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#b = #tile.blocked<spt = [8, 1], tpw = [4, 8], wpc = [1, 4], order = [0, 1]>
#c = #tile.blocked<spt = [1, 1], tpw = [1, 32], wpc = [1, 4], order = [1, 0]>

// What stays: a reduce of a conversion another op uses too (the exchange
// stays anyway, and in #b the column sums need no warp exchange, in #a
// they would), and a reduce of 16-bit elements (the lowering combines
// 32-bit registers in place).
// CHECK-LABEL: tile.kernel @shared_conversion_stays
// CHECK:       %[[B:.*]] = tile.convert_layout %{{.*}} : tensor<64x64xf32, #[[A:blocked[0-9]*]]> -> tensor<64x64xf32, #[[BL:blocked[0-9]*]]>
// CHECK:       tile.reduce sum %[[B]] axis 0 : tensor<64x64xf32, #[[BL]]>
// CHECK:       math.sqrt %[[B]]
tile.kernel @shared_conversion_stays(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #a>
  %u = math.exp %t : tensor<64x64xf32, #a>
  %v = tile.convert_layout %u : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
  %s = tile.reduce sum %v axis 0 : tensor<64x64xf32, #b> -> tensor<1x64xf32, #c>
  tile.store %s, %x[%c0, %c0] : tensor<1x64xf32, #c> -> !tile.view<?x?xf32>
  %r = math.sqrt %v : tensor<64x64xf32, #b>
  tile.store %r, %y[%c0, %c0] : tensor<64x64xf32, #b> -> !tile.view<?x?xf32>
}

// CHECK-LABEL: tile.kernel @half_stays
// CHECK:       %[[H:.*]] = tile.convert_layout %{{.*}} : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #[[BL:blocked[0-9]*]]>
// CHECK:       tile.reduce max %[[H]] axis 1 : tensor<64x32xf16, #[[BL]]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>
#rows = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#col = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
tile.kernel @half_stays(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #mma>
  %h = arith.truncf %a : tensor<64x32xf32, #mma> to tensor<64x32xf16, #mma>
  %hb = tile.convert_layout %h : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #rows>
  %m = tile.reduce max %hb axis 1 : tensor<64x32xf16, #rows> -> tensor<64x1xf16, #col>
  tile.store %m, %y[%c0, %c0] : tensor<64x1xf16, #col> -> !tile.view<?x?xf16>
}
