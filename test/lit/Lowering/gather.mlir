// RUN: tile-opt %s --convert-tile-to-llvm | FileCheck %s

// A gather along both axes of a 64 x 16 f32 tile (the conv inner pass's
// partner map): one exchange. The source goes to shared memory once (eight
// f32 a thread, 4 KB of scratch) between two barriers, and each of the
// eight result registers is read back at its row and column index, both
// taken from the result's own position: no second exchange for the column.
// CHECK-LABEL: llvm.func @gather_both_axes(
// CHECK-SAME:    tile.shared_bytes = 4096
// CHECK-COUNT-1: nvvm.barrier
// CHECK-COUNT-8: llvm.store {{.*}} !llvm.ptr<3>
// CHECK:         nvvm.barrier
// CHECK-NOT:     nvvm.barrier
// CHECK-COUNT-8: llvm.load {{.*}} !llvm.ptr<3>
// CHECK-NOT:     nvvm.barrier
// CHECK-NOT:     !llvm.ptr<3>
// CHECK:         llvm.return
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @gather_both_axes(%v: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %v[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  %c63 = arith.constant dense<63> : tensor<64x16xi32, #mma>
  %c15 = arith.constant dense<15> : tensor<64x16xi32, #mma>
  %i = tile.iota : tensor<64x16xi32, #mma>
  %j = tile.iota dim 1 : tensor<64x16xi32, #mma>
  %r = arith.subi %c63, %i : tensor<64x16xi32, #mma>
  %c = arith.subi %c15, %j : tensor<64x16xi32, #mma>
  %g = tile.gather %t[%r, %c] axes [0, 1] : tensor<64x16xf32, #mma> [tensor<64x16xi32, #mma>, tensor<64x16xi32, #mma>] -> tensor<64x16xf32, #mma>
  tile.store %g, %w[%c0, %c0] : tensor<64x16xf32, #mma> -> !tile.view<?x?xf32>
}
}

// Two sources through the same indices (the real and imaginary planes of
// the conv inner pass's partner): one exchange for both. Each source has 4
// KB of the scratch, both are stored between the same two barriers, and
// each result register reads both planes at one address, the second 4096
// bytes on.
// CHECK-LABEL: llvm.func @gather_two_sources(
// CHECK-SAME:    tile.shared_bytes = 8192
// CHECK-COUNT-1: nvvm.barrier
// CHECK-COUNT-8: llvm.store {{.*}} !llvm.ptr<3>
// CHECK-NOT:     nvvm.barrier
// CHECK:         llvm.getelementptr %{{.*}}[4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NOT:     nvvm.barrier
// CHECK-COUNT-8: llvm.store {{.*}} !llvm.ptr<3>
// CHECK-NOT:     !llvm.ptr<3>
// CHECK:         nvvm.barrier
// CHECK-NOT:     nvvm.barrier
// CHECK:         %[[AT:.*]] = llvm.getelementptr {{.*}} -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.load %[[AT]] : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %[[IM:.*]] = llvm.getelementptr %[[AT]][4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.load %[[IM]] : !llvm.ptr<3> -> f32
// CHECK-COUNT-14: llvm.load {{.*}} !llvm.ptr<3>
// CHECK-NOT:     nvvm.barrier
// CHECK-NOT:     !llvm.ptr<3>
// CHECK:         llvm.return
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @gather_two_sources(%v: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %re = tile.load %v[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  %im = tile.load %v[%c64, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  %c63 = arith.constant dense<63> : tensor<64x16xi32, #mma>
  %c15 = arith.constant dense<15> : tensor<64x16xi32, #mma>
  %i = tile.iota : tensor<64x16xi32, #mma>
  %j = tile.iota dim 1 : tensor<64x16xi32, #mma>
  %r = arith.subi %c63, %i : tensor<64x16xi32, #mma>
  %c = arith.subi %c15, %j : tensor<64x16xi32, #mma>
  %gr, %gi = tile.gather %re, %im[%r, %c] axes [0, 1] : tensor<64x16xf32, #mma>, tensor<64x16xf32, #mma> [tensor<64x16xi32, #mma>, tensor<64x16xi32, #mma>] -> tensor<64x16xf32, #mma>, tensor<64x16xf32, #mma>
  tile.store %gr, %w[%c0, %c0] : tensor<64x16xf32, #mma> -> !tile.view<?x?xf32>
  tile.store %gi, %w[%c64, %c0] : tensor<64x16xf32, #mma> -> !tile.view<?x?xf32>
}
}

// Sources of 64 bytes (16 f32) take 128 bytes each, so that every source
// starts aligned; tf32 sources take four bytes an element, as the f32
// registers that hold them (not the three bytes of its 19 bits).
// CHECK-LABEL: llvm.func @gather_small_sources(
// CHECK-SAME:    tile.shared_bytes = 256
// CHECK:         llvm.getelementptr %{{.*}}[128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-LABEL: llvm.func @gather_tf32_sources(
// CHECK-SAME:    tile.shared_bytes = 8192
// CHECK:         llvm.getelementptr %{{.*}}[4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
#b1 = #tile.blocked<spt = [1], tpw = [32], wpc = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @gather_small_sources(%v: !tile.view<?xf32>, %w: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = tile.load %v[%c0] : !tile.view<?xf32> -> tensor<16xf32, #b1>
  %b = tile.load %v[%c16] : !tile.view<?xf32> -> tensor<16xf32, #b1>
  %c15 = arith.constant dense<15> : tensor<16xi32, #b1>
  %i = tile.iota : tensor<16xi32, #b1>
  %r = arith.subi %c15, %i : tensor<16xi32, #b1>
  %ga, %gb = tile.gather %a, %b[%r] axes [0] : tensor<16xf32, #b1>, tensor<16xf32, #b1> [tensor<16xi32, #b1>] -> tensor<16xf32, #b1>, tensor<16xf32, #b1>
  tile.store %ga, %w[%c0] : tensor<16xf32, #b1> -> !tile.view<?xf32>
  tile.store %gb, %w[%c16] : tensor<16xf32, #b1> -> !tile.view<?xf32>
}
tile.kernel @gather_tf32_sources(%v: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %re = tile.load %v[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  %im = tile.load %v[%c64, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  %tr = arith.truncf %re : tensor<64x16xf32, #mma> to tensor<64x16xtf32, #mma>
  %ti = arith.truncf %im : tensor<64x16xf32, #mma> to tensor<64x16xtf32, #mma>
  %c63 = arith.constant dense<63> : tensor<64x16xi32, #mma>
  %i = tile.iota : tensor<64x16xi32, #mma>
  %r = arith.subi %c63, %i : tensor<64x16xi32, #mma>
  %gr, %gi = tile.gather %tr, %ti[%r] axes [0] : tensor<64x16xtf32, #mma>, tensor<64x16xtf32, #mma> [tensor<64x16xi32, #mma>] -> tensor<64x16xtf32, #mma>, tensor<64x16xtf32, #mma>
  %er = arith.extf %gr : tensor<64x16xtf32, #mma> to tensor<64x16xf32, #mma>
  %ei = arith.extf %gi : tensor<64x16xtf32, #mma> to tensor<64x16xf32, #mma>
  tile.store %er, %w[%c0, %c0] : tensor<64x16xf32, #mma> -> !tile.view<?x?xf32>
  tile.store %ei, %w[%c64, %c0] : tensor<64x16xf32, #mma> -> !tile.view<?x?xf32>
}
}
