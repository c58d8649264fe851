// RUN: tile-opt %s -split-input-file --convert-tile-to-llvm | FileCheck %s

#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// Row maxima of an mma accumulator (64 x 32, four warps along M): a row's
// 32 elements are 8 registers in each of the 4 lanes of a quad, so each
// thread combines its 8 (7 max) and two butterfly shuffles (lanes 1 and 2
// apart) finish, for each of its two rows; no shared memory, no barrier.
// CHECK-LABEL: llvm.func @row_max
// CHECK-SAME:  tile.shared_bytes = 0
// CHECK-COUNT-7: llvm.intr.maximum
// CHECK:       shfl.sync.bfly.b32 $0, $1, 1, 31, -1;
// CHECK:       llvm.intr.maximum
// CHECK:       shfl.sync.bfly.b32 $0, $1, 2, 31, -1;
// CHECK:       llvm.intr.maximum
// CHECK-COUNT-7: llvm.intr.maximum
// CHECK:       shfl.sync.bfly.b32 $0, $1, 1, 31, -1;
// CHECK:       shfl.sync.bfly.b32 $0, $1, 2, 31, -1;
// CHECK-NOT:   nvvm.barrier0
// CHECK-NOT:   shfl.sync
// CHECK:       llvm.return
tile.kernel @row_max(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #mma>
  %m = tile.reduce max %a axis 1 : tensor<64x32xf32, #mma> -> tensor<64x1xf32, #mma>
  %b = tile.broadcast %m : tensor<64x1xf32, #mma> -> tensor<64x32xf32, #mma>
  %d = arith.subf %a, %b : tensor<64x32xf32, #mma>
  tile.store %d, %x[%c0, %c0] : tensor<64x32xf32, #mma> -> !tile.view<?x?xf32>
}

// -----

#mma = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>

// Column sums when the warps split the rows too: registers (rows 8 apart),
// shuffles over the lanes that hold other rows (4, 8 and 16 apart), then
// one partial a warp through shared memory between barriers: 4 bytes for
// each of 128 threads and of its 2 columns.
// CHECK-LABEL: llvm.func @column_sums
// CHECK-SAME:  tile.shared_bytes = 1024
// CHECK:       shfl.sync.bfly.b32 $0, $1, 4, 31, -1;
// CHECK:       shfl.sync.bfly.b32 $0, $1, 8, 31, -1;
// CHECK:       shfl.sync.bfly.b32 $0, $1, 16, 31, -1;
// CHECK:       nvvm.barrier0
// CHECK:       llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK:       nvvm.barrier0
// CHECK:       llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:   scf.for
tile.kernel @column_sums(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<32x16xf32, #mma>
  %s = tile.reduce sum %a axis 0 : tensor<32x16xf32, #mma> -> tensor<1x16xf32, #mma>
  tile.store %s, %x[%c0, %c0] : tensor<1x16xf32, #mma> -> !tile.view<?x?xf32>
}

// -----

#b = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>

// Copies: an 8 x 32 tile on four warps (the warps hold copies, a warp bit
// that moves nothing). i32 minimum along the rows: 7 in-thread, then lanes
// 1 and 2 apart (columns 8 and 16); the copies compute the same, no
// barrier.
// CHECK-LABEL: llvm.func @row_min_with_copies
// CHECK-SAME:  tile.shared_bytes = 0
// CHECK-COUNT-7: llvm.intr.smin
// CHECK:       shfl.sync.bfly.b32 $0, $1, 1, 31, -1;
// CHECK:       llvm.intr.smin
// CHECK:       shfl.sync.bfly.b32 $0, $1, 2, 31, -1;
// CHECK:       llvm.intr.smin
// CHECK-NOT:   nvvm.barrier0
// CHECK:       llvm.return
tile.kernel @row_min_with_copies(%x: !tile.view<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xi32> -> tensor<8x32xi32, #b>
  %m = tile.reduce min %a axis 1 : tensor<8x32xi32, #b> -> tensor<8x1xi32, #b>
  %d = tile.broadcast %m : tensor<8x1xi32, #b> -> tensor<8x32xi32, #b>
  tile.store %d, %x[%c0, %c0] : tensor<8x32xi32, #b> -> !tile.view<?x?xi32>
}

// -----

#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// An accumulator with a unit dimension in front (a row of a wider view):
// the same two shuffles a row.
// CHECK-LABEL: llvm.func @row_sum_rank3
// CHECK-SAME:  tile.shared_bytes = 0
// CHECK-COUNT-2: shfl.sync.bfly.b32 $0, $1, {{1|2}}, 31, -1;
// CHECK-NOT:   nvvm.barrier0
tile.kernel @row_sum_rank3(%x: !tile.view<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0, %c0] : !tile.view<?x?x?xf32> -> tensor<1x64x32xf32, #mma>
  %s = tile.reduce sum %a axis 2 : tensor<1x64x32xf32, #mma> -> tensor<1x64x1xf32, #mma>
  %b = tile.broadcast %s : tensor<1x64x1xf32, #mma> -> tensor<1x64x32xf32, #mma>
  %d = arith.subf %a, %b : tensor<1x64x32xf32, #mma>
  tile.store %d, %x[%c0, %c0, %c0] : tensor<1x64x32xf32, #mma> -> !tile.view<?x?x?xf32>
}
