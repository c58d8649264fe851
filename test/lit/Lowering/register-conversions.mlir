// RUN: tile-opt %s -split-input-file --convert-tile-to-llvm | FileCheck %s

// An mma.sync accumulator with every warp along M holds, in each thread,
// exactly the elements of the A fragments of the next mma (m16n8 tiles side
// by side are the k16 halves of one A fragment): the conversion is register
// moves, with no shared memory and no barrier, and needs no scratch.
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>
#dot = #tile.dot_operand<idx = 0, parent = #mma, kwidth = 2>
// CHECK-LABEL: llvm.func @acc_to_a(
// CHECK-SAME:    tile.shared_bytes = 0
// CHECK-NOT:     nvvm.barrier
// CHECK-NOT:     !llvm.ptr<3>
// CHECK:         llvm.return
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @acc_to_a(%v: !tile.view<?x?xbf16>, %w: !tile.view<?x?xbf16>) {
  %i = tile.program_id x : index
  %t = tile.load %v[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #mma>
  %a = tile.convert_layout %t : tensor<64x32xbf16, #mma> -> tensor<64x32xbf16, #dot>
  tile.store %a, %w[%i, %i] : tensor<64x32xbf16, #dot> -> !tile.view<?x?xbf16>
}
}

// -----

// With warps along N as well, a warp's A rows span columns another warp
// holds: through shared memory.
#mma = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>
#dot = #tile.dot_operand<idx = 0, parent = #mma, kwidth = 2>
// CHECK-LABEL: llvm.func @acc_to_a_across_warps
// CHECK-SAME:    tile.shared_bytes = 4096
// CHECK:         nvvm.barrier
// CHECK:         llvm.store {{.*}} !llvm.ptr<3>
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @acc_to_a_across_warps(%v: !tile.view<?x?xbf16>, %w: !tile.view<?x?xbf16>) {
  %i = tile.program_id x : index
  %t = tile.load %v[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #mma>
  %a = tile.convert_layout %t : tensor<64x32xbf16, #mma> -> tensor<64x32xbf16, #dot>
  tile.store %a, %w[%i, %i] : tensor<64x32xbf16, #dot> -> !tile.view<?x?xbf16>
}
}

// -----

// A row of a wgmma accumulator (the accumulator's layout over 64 x 1: each
// thread holds its rows) broadcast along the columns, and a 1 x 1 tile
// every thread holds broadcast to the whole accumulator: register copies,
// with no shared memory and no barrier, and no scratch.
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
#one = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
// CHECK-LABEL: llvm.func @broadcast_in_registers(
// CHECK-SAME:    tile.shared_bytes = 0
// CHECK-NOT:     nvvm.barrier
// CHECK-NOT:     !llvm.ptr<3>
// CHECK:         llvm.return
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @broadcast_in_registers(%v: !tile.view<?x?xf32>, %s: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %row = tile.load %v[%i, %i] : !tile.view<?x?xf32> -> tensor<64x1xf32, #mma>
  %one = tile.load %s[%i, %i] : !tile.view<?x?xf32> -> tensor<1x1xf32, #one>
  %a = tile.broadcast %row : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
  %b = tile.broadcast %one : tensor<1x1xf32, #one> -> tensor<64x64xf32, #mma>
  %c = arith.addf %a, %b : tensor<64x64xf32, #mma>
  tile.store %c, %w[%i, %i] : tensor<64x64xf32, #mma> -> !tile.view<?x?xf32>
}
}

// -----

// A column in a blocked layout (one row per lane) broadcast to the
// accumulator, whose rows sit on other threads: through shared memory.
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
#col = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
// CHECK-LABEL: llvm.func @broadcast_across_threads(
// CHECK-SAME:    tile.shared_bytes = 256
// CHECK:         nvvm.barrier
// CHECK:         llvm.store {{.*}} !llvm.ptr<3>
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @broadcast_across_threads(%v: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %row = tile.load %v[%i, %i] : !tile.view<?x?xf32> -> tensor<64x1xf32, #col>
  %a = tile.broadcast %row : tensor<64x1xf32, #col> -> tensor<64x64xf32, #mma>
  tile.store %a, %w[%i, %i] : tensor<64x64xf32, #mma> -> !tile.view<?x?xf32>
}
}

// -----

// A permute whose result layout is the source's with its dimensions
// permuted and its registers in another order (a blocked layout lists
// registers dimension by dimension in its order) keeps every element in
// its thread: register moves, no shared memory. The (re, im) interleave of
// the conv outer passes.
#src = #tile.blocked<spt = [1, 2, 1, 2], tpw = [1, 1, 8, 4], wpc = [4, 1, 1, 1], order = [3, 2, 1, 0]>
#dst = #tile.blocked<spt = [1, 1, 2, 2], tpw = [1, 8, 4, 1], wpc = [4, 1, 1, 1], order = [3, 2, 1, 0]>
// CHECK-LABEL: llvm.func @permute_reordered_registers(
// CHECK-SAME:    tile.shared_bytes = 0
// CHECK-NOT:     nvvm.barrier
// CHECK-NOT:     !llvm.ptr<3>
// CHECK:         llvm.return
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @permute_reordered_registers(%v: !tile.view<?x?x?x?xf32>, %w: !tile.view<?x?x?x?xf32>) {
  %i = tile.program_id x : index
  %t = tile.load %v[%i, %i, %i, %i] : !tile.view<?x?x?x?xf32> -> tensor<4x2x8x128xf32, #src>
  %p = tile.permute %t [0, 2, 3, 1] : tensor<4x2x8x128xf32, #src> -> tensor<4x8x128x2xf32, #dst>
  tile.store %p, %w[%i, %i, %i, %i] : tensor<4x8x128x2xf32, #dst> -> !tile.view<?x?x?x?xf32>
}
}

// -----

// The same permute into a layout whose threads hold other elements goes
// through shared memory.
#src = #tile.blocked<spt = [1, 2, 1, 2], tpw = [1, 1, 8, 4], wpc = [4, 1, 1, 1], order = [3, 2, 1, 0]>
#dst = #tile.blocked<spt = [1, 1, 1, 2], tpw = [1, 1, 32, 1], wpc = [1, 1, 4, 1], order = [3, 2, 1, 0]>
// CHECK-LABEL: llvm.func @permute_across_threads(
// CHECK-SAME:    tile.shared_bytes = 32768
// CHECK:         nvvm.barrier
// CHECK:         llvm.store {{.*}} !llvm.ptr<3>
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @permute_across_threads(%v: !tile.view<?x?x?x?xf32>, %w: !tile.view<?x?x?x?xf32>) {
  %i = tile.program_id x : index
  %t = tile.load %v[%i, %i, %i, %i] : !tile.view<?x?x?x?xf32> -> tensor<4x2x8x128xf32, #src>
  %p = tile.permute %t [0, 2, 3, 1] : tensor<4x2x8x128xf32, #src> -> tensor<4x8x128x2xf32, #dst>
  tile.store %p, %w[%i, %i, %i, %i] : tensor<4x8x128x2xf32, #dst> -> !tile.view<?x?x?x?xf32>
}
}

// -----

// An accumulator stored through a reshape that adds unit dimensions in
// front: each thread stores its pairs of elements (4 bytes) where they
// are, with no shared memory.
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>
// CHECK-LABEL: llvm.func @accumulator_unit_dims(
// CHECK-SAME:    tile.shared_bytes = 0
// CHECK-NOT:     nvvm.barrier
// CHECK-NOT:     !llvm.ptr<3>
// CHECK:         "st.global.b32 [$0], $1;"
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @accumulator_unit_dims(%v: !tile.view<?x?xbf16>, %w: !tile.view<?x?x?x?xbf16>) {
  %i = tile.program_id x : index
  %t = tile.load %v[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x16xbf16, #mma>
  %r = tile.reshape %t : tensor<64x16xbf16, #mma> -> tensor<1x1x64x16xbf16, #mma>
  tile.store %r, %w[%i, %i, %i, %i] : tensor<1x1x64x16xbf16, #mma> -> !tile.view<?x?x?x?xbf16>
}
}
