// RUN: tile-opt %s -split-input-file --tile-remove-layout-conversions | FileCheck %s

// The inverse outer pass of the convolution: a wgmma accumulator whose
// rows 16 b + 8 j + i hold part j of output 8 b + i, interleaved into
// (re, im) pairs by reshapes and a permute, rounded and stored. Each step
// keeps every element in its thread when its result takes the layout the
// accumulator's pushes through it (a blocked layout each time), so the
// conversion moves down the chain to the store, which writes the pairs
// as they are: 8-byte vectors, whole 32-byte sectors. No conversion is
// left.
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 128]>
#b2 = #tile.blocked<spt = [1, 8], tpw = [2, 16], wpc = [4, 1], order = [1, 0]>
#b4 = #tile.blocked<spt = [1, 1, 1, 8], tpw = [1, 1, 2, 16], wpc = [1, 1, 4, 1], order = [3, 2, 1, 0]>
#p4 = #tile.blocked<spt = [1, 1, 1, 2], tpw = [1, 1, 32, 1], wpc = [1, 1, 4, 1], order = [3, 2, 1, 0]>
#s2 = #tile.blocked<spt = [1, 8], tpw = [1, 32], wpc = [4, 1], order = [1, 0]>
#o4 = #tile.blocked<spt = [1, 1, 1, 8], tpw = [1, 1, 1, 32], wpc = [1, 1, 4, 1], order = [3, 2, 1, 0]>
// CHECK-DAG: #[[PAIRS:.*]] = #tile.blocked<spt = [1, 4], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[OUT:.*]] = #tile.blocked<spt = [1, 1, 1, 4], tpw = [1, 1, 8, 4], wpc = [1, 1, 4, 1], order = [3, 2, 1, 0]>
// CHECK-LABEL: tile.kernel @interleave_to_store
// CHECK-NOT:   tile.convert_layout
// CHECK:       tile.reshape %{{.*}} : tensor<64x128xf32, #mma> -> tensor<4x2x8x128xf32
// CHECK:       tile.permute
// CHECK:       tile.reshape %{{.*}} -> tensor<32x256xf32, #[[PAIRS]]>
// CHECK:       arith.truncf %{{.*}} : tensor<32x256xf32, #[[PAIRS]]> to tensor<32x256xbf16, #[[PAIRS]]>
// CHECK:       tile.store %{{.*}} : tensor<1x1x32x256xbf16, #[[OUT]]>
// CHECK-NOT:   tile.convert_layout
tile.kernel @interleave_to_store(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?x?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32, #mma>
  %acc = arith.mulf %t, %t : tensor<64x128xf32, #mma>
  %0 = tile.convert_layout %acc : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #b2>
  %1 = tile.reshape %0 : tensor<64x128xf32, #b2> -> tensor<4x2x8x128xf32, #b4>
  %2 = tile.permute %1 [0, 2, 3, 1] : tensor<4x2x8x128xf32, #b4> -> tensor<4x8x128x2xf32, #p4>
  %3 = tile.reshape %2 : tensor<4x8x128x2xf32, #p4> -> tensor<32x256xf32, #s2>
  %4 = arith.truncf %3 : tensor<32x256xf32, #s2> to tensor<32x256xbf16, #s2>
  %5 = tile.reshape %4 : tensor<32x256xbf16, #s2> -> tensor<1x1x32x256xbf16, #o4>
  tile.store %5, %y[%c0, %c0, %c0, %c0] : tensor<1x1x32x256xbf16, #o4> -> !tile.view<?x?x?x?xbf16>
}

// -----

// Rows in their plain order (part j of output n in row 32 j + n): the
// pairs' last bit is a warp bit, which no blocked layout of the pairs
// places where the accumulator does. The chain stays as it is.
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 128]>
#b2 = #tile.blocked<spt = [1, 8], tpw = [2, 16], wpc = [4, 1], order = [1, 0]>
#b3 = #tile.blocked<spt = [1, 1, 8], tpw = [1, 2, 16], wpc = [1, 4, 1], order = [2, 1, 0]>
#p3 = #tile.blocked<spt = [1, 1, 2], tpw = [1, 32, 1], wpc = [4, 1, 1], order = [2, 1, 0]>
#s2 = #tile.blocked<spt = [1, 8], tpw = [1, 32], wpc = [4, 1], order = [1, 0]>
// CHECK-LABEL: tile.kernel @plain_rows
// CHECK:       tile.convert_layout %{{.*}} : tensor<64x128xf32, #mma> ->
// CHECK:       tile.reshape
// CHECK:       tile.permute
// CHECK:       tile.reshape
// CHECK:       tile.store
tile.kernel @plain_rows(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32, #mma>
  %acc = arith.mulf %t, %t : tensor<64x128xf32, #mma>
  %0 = tile.convert_layout %acc : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #b2>
  %1 = tile.reshape %0 : tensor<64x128xf32, #b2> -> tensor<2x32x128xf32, #b3>
  %2 = tile.permute %1 [1, 2, 0] : tensor<2x32x128xf32, #b3> -> tensor<32x128x2xf32, #p3>
  %3 = tile.reshape %2 : tensor<32x128x2xf32, #p3> -> tensor<32x256xf32, #s2>
  tile.store %3, %y[%c0, %c0] : tensor<32x256xf32, #s2> -> !tile.view<?x?xf32>
}

// -----

// The forward outer pass: (re, im) pairs loaded 8 to a thread, split into
// planes stacked along K for a Tensor Core operand in shared memory. The
// reshapes and the permute (each moving data between threads as assigned)
// take the layouts the load's pushes through them, and the shared-memory
// write takes the last one as it is: no exchange before the write.
#l4 = #tile.blocked<spt = [1, 1, 1, 8], tpw = [1, 1, 1, 32], wpc = [1, 1, 4, 1], order = [3, 2, 1, 0]>
#r3 = #tile.blocked<spt = [1, 1, 2], tpw = [1, 32, 1], wpc = [1, 4, 1], order = [2, 1, 0]>
#t3 = #tile.blocked<spt = [1, 1, 8], tpw = [1, 2, 16], wpc = [1, 4, 1], order = [2, 1, 0]>
#k2 = #tile.blocked<spt = [1, 8], tpw = [2, 16], wpc = [4, 1], order = [1, 0]>
#a2 = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 128]>
#smem = #tile.nvmma_shared<swizzle = 128>
// CHECK-DAG: #[[K:.*]] = #tile.blocked<spt = [1, 4], tpw = [1, 32], wpc = [4, 1], order = [1, 0]>
// CHECK-LABEL: tile.kernel @pairs_to_shared
// CHECK-NOT:   tile.convert_layout
// CHECK:       %[[B:.*]] = tile.reshape %{{.*}} -> tensor<64x128xbf16, #[[K]]>
// CHECK-NEXT:  tile.local_alloc %[[B]] : tensor<64x128xbf16, #[[K]]>
// CHECK-NOT:   tile.convert_layout
tile.kernel @pairs_to_shared(%u: !tile.view<?x?x?x?xbf16>, %f: !tile.view<?x?xbf16>, %w: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %0 = tile.load %u[%c0, %c0, %c0, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x1x32x256xbf16, #l4>
  %1 = tile.reshape %0 : tensor<1x1x32x256xbf16, #l4> -> tensor<32x128x2xbf16, #r3>
  %2 = tile.permute %1 [2, 0, 1] : tensor<32x128x2xbf16, #r3> -> tensor<2x32x128xbf16, #t3>
  %3 = tile.reshape %2 : tensor<2x32x128xbf16, #t3> -> tensor<64x128xbf16, #k2>
  %4 = tile.local_alloc %3 : tensor<64x128xbf16, #k2> -> !tile.smem<64x128xbf16, #smem>
  %a = tile.load %f[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a2>
  %as = tile.local_alloc %a : tensor<64x64xbf16, #a2> -> !tile.smem<64x64xbf16, #smem>
  %zero = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %5 = tile.warpgroup_mma %as, %4, %zero : !tile.smem<64x64xbf16, #smem>, !tile.smem<64x128xbf16, #smem>, tensor<64x128xf32, #mma>
  %6 = tile.warpgroup_mma_wait %5 pending 0 : tensor<64x128xf32, #mma>
  tile.store %6, %w[%c0, %c0] : tensor<64x128xf32, #mma> -> !tile.view<?x?xf32>
}

// -----

// A chain that reaches no consumer taking any layout (here a sum with
// another tile) keeps its layouts: moving the exchange would gain nothing.
#l2 = #tile.blocked<spt = [1, 8], tpw = [1, 32], wpc = [4, 1], order = [1, 0]>
#r2 = #tile.blocked<spt = [1, 8], tpw = [2, 16], wpc = [4, 1], order = [1, 0]>
// CHECK-LABEL: tile.kernel @no_consumer
// CHECK:       %[[R:.*]] = tile.reshape %{{.*}} : tensor<32x256xf32, #{{.*}}> -> tensor<64x128xf32, #[[L:blocked[0-9]*]]>
// CHECK-NOT:   tile.convert_layout
// CHECK:       arith.addf %[[R]], %{{.*}} : tensor<64x128xf32, #[[L]]>
tile.kernel @no_consumer(%u: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %0 = tile.load %u[%c0, %c0] : !tile.view<?x?xf32> -> tensor<32x256xf32, #l2>
  %1 = tile.reshape %0 : tensor<32x256xf32, #l2> -> tensor<64x128xf32, #r2>
  %2 = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32, #r2>
  %3 = arith.addf %1, %2 : tensor<64x128xf32, #r2>
  tile.store %3, %w[%c0, %c0] : tensor<64x128xf32, #r2> -> !tile.view<?x?xf32>
}

// -----

// A reshape that only adds unit dimensions in front keeps an accumulator's
// own layout, and the store takes it: the conv inner pass stores its
// wgmma results (rows of one sector) into a wider view with no exchange.
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>
#b2 = #tile.blocked<spt = [1, 8], tpw = [16, 2], wpc = [4, 1], order = [1, 0]>
#b6 = #tile.blocked<spt = [1, 1, 1, 1, 1, 8], tpw = [1, 1, 1, 1, 16, 2], wpc = [1, 1, 1, 1, 4, 1], order = [5, 4, 3, 2, 1, 0]>
// CHECK-LABEL: tile.kernel @accumulator_into_wider_view
// CHECK-NOT:   tile.convert_layout
// CHECK:       %[[R:.*]] = tile.reshape %{{.*}} : tensor<64x16xbf16, #mma> -> tensor<1x1x1x1x64x16xbf16, #mma>
// CHECK-NEXT:  tile.store %[[R]], {{.*}} : tensor<1x1x1x1x64x16xbf16, #mma>
tile.kernel @accumulator_into_wider_view(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?x?x?x?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  %acc = arith.mulf %t, %t : tensor<64x16xf32, #mma>
  %h = arith.truncf %acc : tensor<64x16xf32, #mma> to tensor<64x16xbf16, #mma>
  %0 = tile.convert_layout %h : tensor<64x16xbf16, #mma> -> tensor<64x16xbf16, #b2>
  %1 = tile.reshape %0 : tensor<64x16xbf16, #b2> -> tensor<1x1x1x1x64x16xbf16, #b6>
  tile.store %1, %y[%c0, %c0, %c0, %c0, %c0, %c0] : tensor<1x1x1x1x64x16xbf16, #b6> -> !tile.view<?x?x?x?x?x?xbf16>
}

// -----

// Rows wider than a sector (64 x 128 bf16: 256 bytes) keep the exchange to
// 16-byte vectors before the store (the 64K forward outer pass ran 0.489
// -> 0.825 ms storing from the accumulator).
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 128]>
#b2 = #tile.blocked<spt = [1, 8], tpw = [2, 16], wpc = [4, 1], order = [1, 0]>
#b5 = #tile.blocked<spt = [1, 1, 1, 1, 8], tpw = [1, 1, 1, 2, 16], wpc = [1, 1, 1, 4, 1], order = [4, 3, 2, 1, 0]>
// CHECK-LABEL: tile.kernel @wide_rows_exchange
// CHECK:       tile.convert_layout %{{.*}} : tensor<64x128xbf16, #mma> ->
// CHECK:       tile.store %{{.*}} : tensor<1x1x1x64x128xbf16, #{{blocked[0-9]*}}>
tile.kernel @wide_rows_exchange(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?x?x?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32, #mma>
  %acc = arith.mulf %t, %t : tensor<64x128xf32, #mma>
  %h = arith.truncf %acc : tensor<64x128xf32, #mma> to tensor<64x128xbf16, #mma>
  %0 = tile.convert_layout %h : tensor<64x128xbf16, #mma> -> tensor<64x128xbf16, #b2>
  %1 = tile.reshape %0 : tensor<64x128xbf16, #b2> -> tensor<1x1x1x64x128xbf16, #b5>
  tile.store %1, %y[%c0, %c0, %c0, %c0, %c0] : tensor<1x1x1x64x128xbf16, #b5> -> !tile.view<?x?x?x?x?xbf16>
}
