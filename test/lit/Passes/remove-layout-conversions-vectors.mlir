// RUN: tile-opt %s -split-input-file --tile-remove-layout-conversions --cse | FileCheck %s

#col = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
#row = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#v = #tile.blocked<spt = [8], tpw = [32], wpc = [4], order = [0]>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>

// The causal mask and decay of an SSD chunk, as the kernel writes them:
// the row and column indices become iotas in the accumulator's layout (no
// exchange); the broadcasts of the cumulative sum c take it converted once
// into the accumulator's layout over 64 x 1, shared by exp(c) (the
// conversion moved above the exp); the column use reads c as a row straight
// into the accumulator's layout (one exchange, not a reshape and a
// conversion).
// CHECK-LABEL: tile.kernel @mask_and_decay
// CHECK-DAG:   %[[R:.*]] = tile.iota : tensor<64x64xi32, #mma>
// CHECK-DAG:   %[[C:.*]] = tile.iota dim 1 : tensor<64x64xi32, #mma>
// CHECK-DAG:   arith.cmpi sle, %[[C]], %[[R]]
// CHECK-DAG:   %[[S:.*]] = tile.scan sum
// CHECK-DAG:   %[[SM:.*]] = tile.convert_layout %[[S]] : tensor<64x1xf32, #{{.*}}> -> tensor<64x1xf32, #mma>
// CHECK-DAG:   tile.broadcast %[[SM]] : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
// CHECK-DAG:   %[[E:.*]] = math.exp %[[SM]] : tensor<64x1xf32, #mma>
// CHECK-DAG:   tile.broadcast %[[E]] : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
// CHECK-DAG:   %[[T:.*]] = tile.reshape %[[S]] : tensor<64x1xf32, #{{.*}}> -> tensor<1x64xf32, #mma>
// CHECK-DAG:   tile.broadcast %[[T]] : tensor<1x64xf32, #mma> -> tensor<64x64xf32, #mma>
tile.kernel @mask_and_decay(%x: !tile.view<?x?xf32>, %acc: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant dense<0xFF800000> : tensor<64x64xf32, #mma>
  %i = tile.iota : tensor<64xi32, #v>
  %ic = tile.reshape %i : tensor<64xi32, #v> -> tensor<64x1xi32, #col>
  %ir = tile.reshape %i : tensor<64xi32, #v> -> tensor<1x64xi32, #row>
  %d = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x1xf32, #col>
  %s = tile.scan sum %d axis 0 : tensor<64x1xf32, #col>
  %e = math.exp %s : tensor<64x1xf32, #col>
  %st = tile.reshape %s : tensor<64x1xf32, #col> -> tensor<1x64xf32, #row>
  %a = tile.load %acc[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #mma>
  %rows = tile.broadcast %ic : tensor<64x1xi32, #col> -> tensor<64x64xi32, #mma>
  %cols = tile.broadcast %ir : tensor<1x64xi32, #row> -> tensor<64x64xi32, #mma>
  %causal = arith.cmpi sle, %cols, %rows : tensor<64x64xi32, #mma>
  %sr = tile.broadcast %s : tensor<64x1xf32, #col> -> tensor<64x64xf32, #mma>
  %sc = tile.broadcast %st : tensor<1x64xf32, #row> -> tensor<64x64xf32, #mma>
  %diff = arith.subf %sr, %sc : tensor<64x64xf32, #mma>
  %masked = arith.select %causal, %diff, %cst : tensor<64x64xi1, #mma>, tensor<64x64xf32, #mma>
  %eb = tile.broadcast %e : tensor<64x1xf32, #col> -> tensor<64x64xf32, #mma>
  %p = arith.mulf %masked, %eb : tensor<64x64xf32, #mma>
  %q = arith.mulf %p, %a : tensor<64x64xf32, #mma>
  tile.store %q, %acc[%c0, %c0] : tensor<64x64xf32, #mma> -> !tile.view<?x?xf32>
}

// -----

#v = #tile.blocked<spt = [8], tpw = [32], wpc = [4], order = [0]>
#b = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#wide = #tile.blocked<spt = [1, 4], tpw = [1, 32], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>

// What stays: an iota reshaped to other non-unit dimensions (8 x 8 is not
// 64 along one dimension) keeps its reshape; a broadcast whose source has
// more than 256 elements keeps its exchange (no conversion added).
// CHECK-LABEL: tile.kernel @stays
// CHECK:       tile.iota : tensor<64xi32
// CHECK:       tile.reshape {{.*}} -> tensor<8x8xi32
// CHECK-NOT:   tile.convert_layout
// CHECK:       tile.broadcast {{.*}} : tensor<1x512xf32, #{{.*}}> -> tensor<64x512xf32, #mma>
tile.kernel @stays(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %i = tile.iota : tensor<64xi32, #v>
  %r = tile.reshape %i : tensor<64xi32, #v> -> tensor<8x8xi32, #b>
  tile.store %r, %y[%c0, %c0] : tensor<8x8xi32, #b> -> !tile.view<?x?xi32>
  %w = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<1x512xf32, #wide>
  %wb = tile.broadcast %w : tensor<1x512xf32, #wide> -> tensor<64x512xf32, #mma>
  tile.store %wb, %x[%c0, %c0] : tensor<64x512xf32, #mma> -> !tile.view<?x?xf32>
}


// -----

#n = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>

// math on an identity conversion of an accumulator-layout tile: nothing to
// move (the pass once rewrote the op into a conversion of itself, forever).
// CHECK-LABEL: tile.kernel @identity_convert
// CHECK:       math.exp {{.*}} : tensor<64x1xf32, #mma>
tile.kernel @identity_convert(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x1xf32, #n>
  %b = tile.convert_layout %a : tensor<64x1xf32, #n> -> tensor<64x1xf32, #n>
  %e = math.exp %b : tensor<64x1xf32, #n>
  tile.store %e, %x[%c0, %c0] : tensor<64x1xf32, #n> -> !tile.view<?x?xf32>
}
