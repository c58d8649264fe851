// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-order-global-memory | FileCheck %s

// With layouts: an in-place update of the same tile in one layout whose
// elements each have one owner needs no barrier (each thread reads and
// writes its own elements, in its own order); tiles of one shape at
// different constant indices are disjoint. A tile of another shape, or a
// layout that gives an element several owners (a 1x1 tile: every thread
// holds it), still gets one.
// CHECK-LABEL: tile.kernel @layouts
// CHECK:         tile.load %arg0[%c0, %c0]
// CHECK-NEXT:    tile.load %arg0[%c1, %c0]
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    tile.store %{{.*}}, %arg0[%c0, %c0]
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    tile.load %arg0[%c0, %c0] : {{.*}} -> tensor<1x1xf32
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    tile.store %{{.*}}, %arg0[%c0, %c0] : tensor<1x1xf32
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    tile.load %arg0[%c1, %c0] : {{.*}} -> tensor<32x64xf32
tile.kernel @layouts(%w: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %b = tile.load %w[%c1, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %s = arith.addf %a, %b : tensor<64x64xf32>
  tile.store %s, %w[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  %one = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<1x1xf32>
  %two = arith.addf %one, %one : tensor<1x1xf32>
  tile.store %two, %w[%c0, %c0] : tensor<1x1xf32> -> !tile.view<?x?xf32>
  %h = tile.load %w[%c1, %c0] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  tile.store %h, %y[%c0, %c0] : tensor<32x64xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// A layout over one warp in a kernel of four: the other three warps hold
// copies of every element and store them too, so an in-place update of
// the tile still needs its barriers.
// CHECK-LABEL: tile.kernel @fewer_warps
// CHECK:         tile.store
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    tile.load
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    tile.store
#b = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [1, 1], order = [1, 0]>
tile.kernel @fewer_warps(%w: !tile.view<?x?xf32>) attributes {num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %cst = arith.constant dense<1.0> : tensor<64x64xf32, #b>
  tile.store %cst, %w[%c0, %c0] : tensor<64x64xf32, #b> -> !tile.view<?x?xf32>
  %a = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #b>
  %s = arith.addf %a, %a : tensor<64x64xf32, #b>
  tile.store %s, %w[%c0, %c0] : tensor<64x64xf32, #b> -> !tile.view<?x?xf32>
  tile.return
}
