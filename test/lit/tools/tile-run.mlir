// tile-run: a .mlir kernel on the CPU, device-faithful vs float64.
// RUN: tile-run %s --kernel iota_plus --grid 2 --arg 6 --arg 1.5 --print --mode faithful | FileCheck %s --check-prefix=PRINT
// RUN: tile-run %s --kernel rowsum --grid 3 --arg 20x50 --arg 20x1 --seed 7 | FileCheck %s --check-prefix=DIFF
// RUN: not tile-run %s --kernel rowsum --grid 3 --arg 20x50 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not tile-run %s --kernel nope --grid 1 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not tile-run %s --kernel div0 --grid 1 --arg 4 2>&1 | FileCheck %s --check-prefix=DIV0
// RUN: tile-run %s --kernel iota_2d --grid 1 --arg 2x3 --print --mode faithful | FileCheck %s --check-prefix=IOTA2D

// Program 0 writes 1.5 + [0..3], program 1 writes 1.5 + [0..3] at 4..7,
// masked to the 6 elements of the view.
// PRINT: arg 0
// PRINT-SAME: 6
// PRINT-NEXT: [:] 1.5 2.5 3.5 4.5 1.5 2.5
tile.kernel @iota_plus(%y: !tile.view<?xf32>, %a: f32) {
  %i = tile.program_id x : index
  %r = tile.iota : tensor<4xi32>
  %f = arith.sitofp %r : tensor<4xi32> to tensor<4xf32>
  %s = tile.splat %a : f32 -> tensor<4xf32>
  %v = arith.addf %f, %s : tensor<4xf32>
  tile.store %v, %y[%i] : tensor<4xf32> -> !tile.view<?xf32>
}

// A 2-D iota along dim 1 holds the column index in every row; along dim 0
// the row index: 10 * col + row.
// (A 2 x 4 tile, masked to the 2 x 3 view.)
// IOTA2D: arg 0 (!tile.view<?x?xi32>, 2x3)
// IOTA2D-NEXT: [0, :] 0 10 20
// IOTA2D-NEXT: [1, :] 1 11 21
tile.kernel @iota_2d(%y: !tile.view<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant dense<10> : tensor<2x4xi32>
  %col = tile.iota dim 1 : tensor<2x4xi32>
  %row = tile.iota : tensor<2x4xi32>
  %t = arith.muli %col, %c10 : tensor<2x4xi32>
  %v = arith.addi %t, %row : tensor<2x4xi32>
  tile.store %v, %y[%c0, %c0] : tensor<2x4xi32> -> !tile.view<?x?xi32>
}

// DIFF: seed: 7
// DIFF: kernel @rowsum, grid 3x1x1
// DIFF: arg 1 (!tile.view<?x?xf32>, 20x1): rel L2 diff
tile.kernel @rowsum(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x?xbf16> -> tensor<8x64xbf16>
  %f = arith.extf %t : tensor<8x64xbf16> to tensor<8x64xf32>
  %s = tile.reduce sum %f axis 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  tile.store %s, %y[%i, %c0] : tensor<8x1xf32> -> !tile.view<?x?xf32>
}

// ARGS: tile-run: @rowsum takes 2 arguments but 1 --arg were given
// NAME: tile-run: no kernel @nope in '{{.*}}' (kernels: @iota_plus, @iota_2d, @rowsum, @div0)

// DIV0: error: arith.divsi at loc("{{.*}}tile-run.mlir":[[@LINE+3]]:8), program (0, 0, 0): integer division by zero
tile.kernel @div0(%n: index) {
  %c0 = arith.constant 0 : index
  %q = arith.divsi %n, %c0 : index
}
