// RUN: tile-opt %s -split-input-file --tile-assign-layouts | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-assign-layouts="num-warps=8 vector=4" | FileCheck %s --check-prefix=W8

// Every tile gets the default blocked layout of its shape: 8 consecutive
// elements per thread along the last dimension, lanes then warps filling
// the dimensions from the last; the module records the warps per CTA.
// CHECK-DAG: #[[L256:blocked[0-9]*]] = #tile.blocked<spt = [8], tpw = [32], wpc = [4], order = [0]>
// CHECK: module attributes {tile.num_warps = 4 : i32}
// CHECK-LABEL: tile.kernel @elementwise
// CHECK: tile.load {{.*}} -> tensor<256xf32, #[[L256]]>
// CHECK: tile.splat {{.*}} -> tensor<256xf32, #[[L256]]>
// CHECK: arith.mulf {{.*}} : tensor<256xf32, #[[L256]]>
// CHECK: tile.store {{.*}} : tensor<256xf32, #[[L256]]> -> !tile.view<?xf32>
// W8: #tile.blocked<spt = [4], tpw = [32], wpc = [8], order = [0]>
// W8: module attributes {tile.num_warps = 8 : i32}
tile.kernel @elementwise(%x: !tile.view<?xf32>, %a: f32) {
  %i = tile.program_id x : index
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<256xf32>
  %s = tile.splat %a : f32 -> tensor<256xf32>
  %v = arith.mulf %t, %s : tensor<256xf32>
  tile.store %v, %x[%i] : tensor<256xf32> -> !tile.view<?xf32>
}

// -----

// 2-D tiles: a 64x32 tile puts 4 lanes along the rows of 32 (8 elements
// each) and the other 8 lanes and the 4 warps down the rows; a 4x1 tile
// has more threads than elements (copies).
// CHECK-DAG: #[[L64x32:blocked[0-9]*]] = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[L4x1:blocked[0-9]*]] = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
// CHECK-LABEL: tile.kernel @shapes
// CHECK: scf.for {{.*}} -> (tensor<64x32xf32, #[[L64x32]]>)
// CHECK:   scf.yield {{.*}} : tensor<64x32xf32, #[[L64x32]]>
// CHECK: tile.reduce sum {{.*}} : tensor<64x32xf32, #[[L64x32]]> -> tensor<64x1xf32,
// CHECK: arith.constant dense<1.000000e+00> : tensor<4x1xf32, #[[L4x1]]>
tile.kernel @shapes(%x: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x32xf32>) {
    %t = tile.load %x[%k, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32>
    %s = arith.addf %acc, %t : tensor<64x32xf32>
    scf.yield %s : tensor<64x32xf32>
  }
  %m = tile.reduce sum %r axis 1 : tensor<64x32xf32> -> tensor<64x1xf32>
  tile.store %m, %x[%c0, %c0] : tensor<64x1xf32> -> !tile.view<?x?xf32>
  %one = arith.constant dense<1.0> : tensor<4x1xf32>
  tile.store %one, %x[%c0, %c0] : tensor<4x1xf32> -> !tile.view<?x?xf32>
}

// -----

// num-warps must be a power of two.
// RUN: not tile-opt %s -split-input-file --tile-assign-layouts="num-warps=3" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: num-warps must be a power of two in 1..32, got 3
tile.kernel @k() {
  tile.return
}
