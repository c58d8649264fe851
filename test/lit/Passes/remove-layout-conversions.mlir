// RUN: tile-opt %s -split-input-file --tile-remove-layout-conversions | FileCheck %s

#a = #tile.blocked<spt = [8], tpw = [32], wpc = [4], order = [0]>
#b = #tile.blocked<spt = [4], tpw = [32], wpc = [4], order = [0]>
#c = #tile.blocked<spt = [1], tpw = [32], wpc = [4], order = [0]>

// A conversion to the same layout disappears; a chain keeps only its ends;
// a round trip a -> b -> a disappears.
// CHECK-LABEL: tile.kernel @chains
// CHECK-SAME: (%[[X:.*]]: !tile.view<?xf32>)
// CHECK: %[[T:.*]] = tile.load
// CHECK: %[[C:.*]] = tile.convert_layout %[[T]] : tensor<256xf32, #[[A:blocked[0-9]*]]> -> tensor<256xf32, #[[B:blocked[0-9]*]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %[[C]]
// CHECK: tile.store %[[T]]
// CHECK: tile.store %[[T]]
tile.kernel @chains(%x: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<256xf32, #a>
  %1 = tile.convert_layout %t : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %2 = tile.convert_layout %1 : tensor<256xf32, #b> -> tensor<256xf32, #c>
  tile.store %2, %x[%c0] : tensor<256xf32, #c> -> !tile.view<?xf32>
  %3 = tile.convert_layout %1 : tensor<256xf32, #b> -> tensor<256xf32, #a>
  tile.store %3, %x[%c0] : tensor<256xf32, #a> -> !tile.view<?xf32>
  %4 = tile.convert_layout %t : tensor<256xf32, #a> -> tensor<256xf32, #a>
  tile.store %4, %x[%c0] : tensor<256xf32, #a> -> !tile.view<?xf32>
}
