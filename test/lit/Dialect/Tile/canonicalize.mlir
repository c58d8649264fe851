// Folders and canonicalization patterns of the tile ops.
//
// RUN: tile-opt %s -canonicalize -split-input-file | FileCheck %s

//===----------------------------------------------------------------------===//
// tile.dim
//===----------------------------------------------------------------------===//

// A static dimension of a view folds to a constant; a dynamic one does not.
// CHECK-LABEL: tile.kernel @dim_static(
// CHECK-SAME:    %[[X:.*]]: !tile.view<?x64xf32>, %[[Y:.*]]: !tile.view<?x64xf32>)
tile.kernel @dim_static(%x: !tile.view<?x64xf32>, %y: !tile.view<?x64xf32>) {
  // CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
  // CHECK-DAG: %[[D0:.*]] = tile.dim %[[X]][0] : !tile.view<?x64xf32>
  // CHECK-NOT: tile.dim %[[X]][1]
  // CHECK:     %[[T:.*]] = tile.load %[[X]][%[[D0]], %[[C64]]]
  %d0 = tile.dim %x[0] : !tile.view<?x64xf32>
  %d1 = tile.dim %x[1] : !tile.view<?x64xf32>
  %t = tile.load %x[%d0, %d1] : !tile.view<?x64xf32> -> tensor<16x64xf32>
  tile.store %t, %y[%d0, %d1] : tensor<16x64xf32> -> !tile.view<?x64xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.reshape
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: tile.kernel @reshape_identity(
// CHECK-SAME:    %[[X:.*]]: !tile.view<?x?xf32>, %[[I:.*]]: index)
tile.kernel @reshape_identity(%x: !tile.view<?x?xf32>, %i: index) {
  // CHECK-NEXT: %[[T:.*]] = tile.load
  // CHECK-NEXT: tile.store %[[T]], %[[X]]
  // CHECK-NEXT: tile.return
  %t = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  %r = tile.reshape %t : tensor<64x32xf32> -> tensor<64x32xf32>
  tile.store %r, %x[%i, %i] : tensor<64x32xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @reshape_of_reshape(
tile.kernel @reshape_of_reshape(%x: !tile.view<?x?xf32>, %y: !tile.view<?xf32>, %i: index) {
  // CHECK:      %[[T:.*]] = tile.load
  // CHECK-NEXT: %[[R:.*]] = tile.reshape %[[T]] : tensor<64x32xf32> -> tensor<2048xf32>
  // CHECK-NEXT: tile.store %[[R]]
  %t = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  %a = tile.reshape %t : tensor<64x32xf32> -> tensor<1x64x1x32xf32>
  %b = tile.reshape %a : tensor<1x64x1x32xf32> -> tensor<32x64xf32>
  %c = tile.reshape %b : tensor<32x64xf32> -> tensor<2048xf32>
  tile.store %c, %y[%i] : tensor<2048xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

// A reshape back to the original shape disappears altogether.
// CHECK-LABEL: tile.kernel @reshape_round_trip(
tile.kernel @reshape_round_trip(%x: !tile.view<?x?xf32>, %i: index) {
  // CHECK-NEXT: %[[T:.*]] = tile.load
  // CHECK-NEXT: tile.store %[[T]]
  %t = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  %a = tile.reshape %t : tensor<64x32xf32> -> tensor<2048xf32>
  %b = tile.reshape %a : tensor<2048xf32> -> tensor<64x32xf32>
  tile.store %b, %x[%i, %i] : tensor<64x32xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @reshape_constant(
tile.kernel @reshape_constant(%x: !tile.view<?x?xi32>, %y: !tile.view<?x?xf32>, %i: index) {
  // CHECK-DAG: %[[C:.*]] = arith.constant dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi32>
  // CHECK-DAG: %[[S:.*]] = arith.constant dense<1.500000e+00> : tensor<64x32xf32>
  // CHECK-NOT: tile.reshape
  // CHECK:     tile.store %[[C]]
  // CHECK:     tile.store %[[S]]
  %c = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %r = tile.reshape %c : tensor<4xi32> -> tensor<2x2xi32>
  tile.store %r, %x[%i, %i] : tensor<2x2xi32> -> !tile.view<?x?xi32>
  %s = arith.constant dense<1.5> : tensor<2048xf32>
  %q = tile.reshape %s : tensor<2048xf32> -> tensor<64x32xf32>
  tile.store %q, %y[%i, %i] : tensor<64x32xf32> -> !tile.view<?x?xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.permute
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: tile.kernel @permute_identity(
tile.kernel @permute_identity(%x: !tile.view<?x?x?xf32>, %i: index) {
  // CHECK-NEXT: %[[T:.*]] = tile.load
  // CHECK-NEXT: tile.store %[[T]]
  %t = tile.load %x[%i, %i, %i] : !tile.view<?x?x?xf32> -> tensor<2x4x8xf32>
  %p = tile.permute %t [0, 1, 2] : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  tile.store %p, %x[%i, %i, %i] : tensor<2x4x8xf32> -> !tile.view<?x?x?xf32>
  tile.return
}

// -----

// Two transposes cancel.
// CHECK-LABEL: tile.kernel @permute_transpose_twice(
tile.kernel @permute_transpose_twice(%x: !tile.view<?x?xf32>, %i: index) {
  // CHECK-NEXT: %[[T:.*]] = tile.load
  // CHECK-NEXT: tile.store %[[T]]
  %t = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  %a = tile.permute %t [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  %b = tile.permute %a [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
  tile.store %b, %x[%i, %i] : tensor<64x32xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// permute(permute(x, p), q) == permute(x, [p[q[0]], p[q[1]], ...]).
// CHECK-LABEL: tile.kernel @permute_compose(
tile.kernel @permute_compose(%x: !tile.view<?x?x?xf32>, %i: index) {
  // CHECK:      %[[T:.*]] = tile.load
  // CHECK-NEXT: %[[P:.*]] = tile.permute %[[T]] [1, 0, 2] : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  // CHECK-NEXT: tile.store %[[P]]
  %t = tile.load %x[%i, %i, %i] : !tile.view<?x?x?xf32> -> tensor<2x4x8xf32>
  %a = tile.permute %t [1, 2, 0] : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  %b = tile.permute %a [0, 2, 1] : tensor<4x8x2xf32> -> tensor<4x2x8xf32>
  tile.store %b, %x[%i, %i, %i] : tensor<4x2x8xf32> -> !tile.view<?x?x?xf32>
  tile.return
}

// -----

// Three rotations of a rank-3 tile are the identity.
// CHECK-LABEL: tile.kernel @permute_rotate_three_times(
tile.kernel @permute_rotate_three_times(%x: !tile.view<?x?x?xf32>, %i: index) {
  // CHECK-NEXT: %[[T:.*]] = tile.load
  // CHECK-NEXT: tile.store %[[T]]
  %t = tile.load %x[%i, %i, %i] : !tile.view<?x?x?xf32> -> tensor<2x4x8xf32>
  %a = tile.permute %t [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %b = tile.permute %a [2, 0, 1] : tensor<8x2x4xf32> -> tensor<4x8x2xf32>
  %c = tile.permute %b [2, 0, 1] : tensor<4x8x2xf32> -> tensor<2x4x8xf32>
  tile.store %c, %x[%i, %i, %i] : tensor<2x4x8xf32> -> !tile.view<?x?x?xf32>
  tile.return
}

// -----

// A splat constant permutes to a splat constant; other constants stay.
// CHECK-LABEL: tile.kernel @permute_constant(
tile.kernel @permute_constant(%x: !tile.view<?x?xf32>, %i: index) {
  // CHECK-DAG: %[[S:.*]] = arith.constant dense<2.000000e+00> : tensor<32x64xf32>
  // CHECK-DAG: %[[D:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  // CHECK:     tile.store %[[S]]
  // CHECK:     %[[P:.*]] = tile.permute %[[D]] [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
  // CHECK:     tile.store %[[P]]
  %s = arith.constant dense<2.0> : tensor<64x32xf32>
  %a = tile.permute %s [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  tile.store %a, %x[%i, %i] : tensor<32x64xf32> -> !tile.view<?x?xf32>
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = tile.permute %d [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
  tile.store %b, %x[%i, %i] : tensor<2x2xf32> -> !tile.view<?x?xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.broadcast
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: tile.kernel @broadcast_identity(
tile.kernel @broadcast_identity(%x: !tile.view<?x?xf32>, %i: index) {
  // CHECK-NEXT: %[[T:.*]] = tile.load
  // CHECK-NEXT: tile.store %[[T]]
  %t = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<32x1xf32>
  %b = tile.broadcast %t : tensor<32x1xf32> -> tensor<32x1xf32>
  tile.store %b, %x[%i, %i] : tensor<32x1xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @broadcast_constant(
tile.kernel @broadcast_constant(%x: !tile.view<?x?xf32>, %i: index) {
  // CHECK-NEXT: %[[C:.*]] = arith.constant dense<-1.000000e+00> : tensor<32x64xf32>
  // CHECK-NEXT: tile.store %[[C]]
  %c = arith.constant dense<-1.0> : tensor<32x1xf32>
  %b = tile.broadcast %c : tensor<32x1xf32> -> tensor<32x64xf32>
  tile.store %b, %x[%i, %i] : tensor<32x64xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @broadcast_of_broadcast(
tile.kernel @broadcast_of_broadcast(%x: !tile.view<?x?xf32>, %i: index) {
  // CHECK:      %[[T:.*]] = tile.load
  // CHECK-NEXT: %[[B:.*]] = tile.broadcast %[[T]] : tensor<1x1xf32> -> tensor<32x64xf32>
  // CHECK-NEXT: tile.store %[[B]]
  %t = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<1x1xf32>
  %a = tile.broadcast %t : tensor<1x1xf32> -> tensor<32x1xf32>
  %b = tile.broadcast %a : tensor<32x1xf32> -> tensor<32x64xf32>
  tile.store %b, %x[%i, %i] : tensor<32x64xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @broadcast_of_splat(
// CHECK-SAME:    %{{.*}}: !tile.view<?x?xf32>, %{{.*}}: index, %[[S:.*]]: f32)
tile.kernel @broadcast_of_splat(%x: !tile.view<?x?xf32>, %i: index, %s: f32) {
  // CHECK-NEXT: %[[B:.*]] = tile.splat %[[S]] : f32 -> tensor<32x64xf32>
  // CHECK-NEXT: tile.store %[[B]]
  %a = tile.splat %s : f32 -> tensor<32x1xf32>
  %b = tile.broadcast %a : tensor<32x1xf32> -> tensor<32x64xf32>
  tile.store %b, %x[%i, %i] : tensor<32x64xf32> -> !tile.view<?x?xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.splat
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: tile.kernel @splat_constant(
tile.kernel @splat_constant(%x: !tile.view<?x?xf32>, %y: !tile.view<?xi32>,
                            %z: !tile.view<?xi1>, %i: index) {
  // CHECK-DAG: %[[F:.*]] = arith.constant dense<3.000000e+00> : tensor<32x64xf32>
  // CHECK-DAG: %[[N:.*]] = arith.constant dense<7> : tensor<128xi32>
  // CHECK-DAG: %[[B:.*]] = arith.constant dense<true> : tensor<16xi1>
  // CHECK-NOT: tile.splat
  // CHECK:     tile.store %[[F]]
  // CHECK:     tile.store %[[N]]
  // CHECK:     tile.store %[[B]]
  %f = arith.constant 3.0 : f32
  %a = tile.splat %f : f32 -> tensor<32x64xf32>
  tile.store %a, %x[%i, %i] : tensor<32x64xf32> -> !tile.view<?x?xf32>
  %n = arith.constant 7 : i32
  %b = tile.splat %n : i32 -> tensor<128xi32>
  tile.store %b, %y[%i] : tensor<128xi32> -> !tile.view<?xi32>
  %t = arith.constant true
  %c = tile.splat %t : i1 -> tensor<16xi1>
  tile.store %c, %z[%i] : tensor<16xi1> -> !tile.view<?xi1>
  tile.return
}

// -----

// A splat of a run-time scalar stays.
// CHECK-LABEL: tile.kernel @splat_argument(
// CHECK-SAME:    %[[S:[^:]*]]: f32)
tile.kernel @splat_argument(%x: !tile.view<?xf32>, %i: index, %s: f32) {
  // CHECK-NEXT: tile.splat %[[S]] : f32 -> tensor<64xf32>
  %a = tile.splat %s : f32 -> tensor<64xf32>
  tile.store %a, %x[%i] : tensor<64xf32> -> !tile.view<?xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// Folding through a chain, and what must stay
//===----------------------------------------------------------------------===//

// -----

// splat -> reshape -> broadcast -> permute of a constant all fold into one
// dense constant.
// CHECK-LABEL: tile.kernel @fold_chain(
tile.kernel @fold_chain(%x: !tile.view<?x?xbf16>, %i: index) {
  // CHECK-NEXT: %[[C:.*]] = arith.constant dense<5.000000e-01> : tensor<16x64xbf16>
  // CHECK-NEXT: tile.store %[[C]]
  // CHECK-NEXT: tile.return
  %h = arith.constant 0.5 : bf16
  %a = tile.splat %h : bf16 -> tensor<64xbf16>
  %b = tile.reshape %a : tensor<64xbf16> -> tensor<64x1xbf16>
  %c = tile.broadcast %b : tensor<64x1xbf16> -> tensor<64x16xbf16>
  %d = tile.permute %c [1, 0] : tensor<64x16xbf16> -> tensor<16x64xbf16>
  tile.store %d, %x[%i, %i] : tensor<16x64xbf16> -> !tile.view<?x?xbf16>
  tile.return
}

// -----

// Dead pure ops go; loads (which read memory) and stores stay... unless the
// load is unused: a load only reads, so it is dead too.
// CHECK-LABEL: tile.kernel @dead_code(
tile.kernel @dead_code(%x: !tile.view<?xf32>, %i: index) {
  // CHECK-NEXT: %[[T:.*]] = tile.load
  // CHECK-NEXT: tile.store %[[T]]
  // CHECK-NEXT: tile.return
  %unused = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xf32>
  %iota = tile.iota : tensor<64xi32>
  %pid = tile.program_id x : index
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xf32>
  %s = tile.scan sum %t axis 0 : tensor<64xf32>
  tile.store %t, %x[%i] : tensor<64xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

// A second local_alloc of the same tile with the same type reads the first
// buffer; a different swizzle is a different buffer.
// CHECK-LABEL: tile.kernel @same_tile_once(
#bl = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#nv = #tile.nvmma_shared<swizzle = 128>
#nv64 = #tile.nvmma_shared<swizzle = 64>
tile.kernel @same_tile_once(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>, %i: index) {
  // CHECK: %[[T:.*]] = tile.load
  // CHECK-NEXT: %[[S:.*]] = tile.local_alloc %[[T]] : {{.*}} -> !tile.smem<64x64xbf16, #tile.nvmma_shared<swizzle = 128>>
  // CHECK-NEXT: %[[R:.*]] = tile.local_load %[[S]]
  // CHECK-NEXT: %[[W:.*]] = tile.local_alloc %[[T]] : {{.*}} -> !tile.smem<64x64xbf16, #tile.nvmma_shared<swizzle = 64>>
  // CHECK-NEXT: tile.local_load %[[S]]
  // CHECK-NEXT: tile.local_load %[[W]]
  %t = tile.load %x[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #bl>
  %s1 = tile.local_alloc %t : tensor<64x64xbf16, #bl> -> !tile.smem<64x64xbf16, #nv>
  %r1 = tile.local_load %s1 : !tile.smem<64x64xbf16, #nv> -> tensor<64x64xbf16, #bl>
  %s2 = tile.local_alloc %t : tensor<64x64xbf16, #bl> -> !tile.smem<64x64xbf16, #nv>
  %s3 = tile.local_alloc %t : tensor<64x64xbf16, #bl> -> !tile.smem<64x64xbf16, #nv64>
  %r2 = tile.local_load %s2 : !tile.smem<64x64xbf16, #nv> -> tensor<64x64xbf16, #bl>
  %r3 = tile.local_load %s3 : !tile.smem<64x64xbf16, #nv64> -> tensor<64x64xbf16, #bl>
  %a = arith.addf %r1, %r2 : tensor<64x64xbf16, #bl>
  %b = arith.addf %a, %r3 : tensor<64x64xbf16, #bl>
  tile.store %b, %y[%i, %i] : tensor<64x64xbf16, #bl> -> !tile.view<?x?xbf16>
}

//===----------------------------------------------------------------------===//
// tile.convert_layout
//===----------------------------------------------------------------------===//

// -----

// A constant converts to the same constant in the new layout (each thread
// reads its elements of the array): no exchange is left, splat or not.
#blocked = #tile.blocked<spt = [1, 8], tpw = [16, 2], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [1, 4], instr = [16, 8]>
#a = #tile.dot_operand<idx = 0, parent = #mma, kwidth = 2>
#b = #tile.dot_operand<idx = 1, parent = #mma, kwidth = 2>
// CHECK-LABEL: tile.kernel @convert_constant(
// CHECK-DAG: %[[A:.*]] = arith.constant dense<"0x803F0040{{[0-9A-F]*}}"> : tensor<16x16xbf16, #dot_op>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<5.000000e-01> : tensor<16x32xbf16, #dot_op1>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.mma %[[A]], %[[B]]
tile.kernel @convert_constant(%x: !tile.view<?x?xf32>, %i: index) {
  %d = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]]> : tensor<16x16xbf16, #blocked>
  %s = arith.constant dense<0.5> : tensor<16x32xbf16, #blocked>
  %z = arith.constant dense<0.0> : tensor<16x32xf32, #mma>
  %a = tile.convert_layout %d : tensor<16x16xbf16, #blocked> -> tensor<16x16xbf16, #a>
  %b = tile.convert_layout %s : tensor<16x32xbf16, #blocked> -> tensor<16x32xbf16, #b>
  %m = tile.mma %a, %b, %z : tensor<16x16xbf16, #a>, tensor<16x32xbf16, #b>, tensor<16x32xf32, #mma>
  %o = tile.convert_layout %m : tensor<16x32xf32, #mma> -> tensor<16x32xf32, #blocked>
  tile.store %o, %x[%i, %i] : tensor<16x32xf32, #blocked> -> !tile.view<?x?xf32>
  tile.return
}
