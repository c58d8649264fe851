// RUN: tile-opt %s -split-input-file --tile-assign-layouts --convert-tile-to-llvm | FileCheck %s

// A kernel becomes an llvm.func with the flat parameter ABI (a view is
// pointer, sizes, strides), nvvm.kernel and the CTA size; a load is one
// predicated ld.global per register, bounds-checked against the view size.
// CHECK-LABEL: llvm.func @scale(
// CHECK-SAME:    %[[X:.*]]: !llvm.ptr<1>, %[[N:.*]]: i64, %[[S:.*]]: i64, %[[A:.*]]: f32)
// CHECK-SAME:    attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>, tile.num_warps = 4 : i32, tile.shared_bytes = 0 : i64}
// CHECK:         llvm.insertvalue %[[X]]
// CHECK:         llvm.insertvalue %[[N]]
// CHECK:         llvm.insertvalue %[[S]]
// CHECK:         nvvm.read.ptx.sreg.ctaid.x
// CHECK:         nvvm.read.ptx.sreg.tid.x
// CHECK:         llvm.icmp "ult" %{{.*}}, %{{.*}} : i64
// CHECK:         llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// The kernel stores to the view it loads (in place): its loads are asm with
// side effects, so that nothing merges or moves them across the stores.
// CHECK:         llvm.inline_asm has_side_effects "mov.b32 $0, $2;\0A\09@$3 ld.global.b32 $0, [$1];", "=r,l,r,b"
// CHECK-COUNT-7: ld.global.b32
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:         llvm.inline_asm has_side_effects "@$2 st.global.b32 [$0], $1;", "l,r,b"
// CHECK:         llvm.return
tile.kernel @scale(%x: !tile.view<?xf32>, %a: f32) {
  %i = tile.program_id x : index
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<256xf32>
  %s = tile.splat %a : f32 -> tensor<256xf32>
  %v = arith.mulf %t, %s : tensor<256xf32>
  tile.store %v, %x[%i] : tensor<256xf32> -> !tile.view<?xf32>
}

// -----

// Loads read the padding value where the predicate is false.
// CHECK-LABEL: llvm.func @padding
// CHECK: %[[PAD:.*]] = llvm.mlir.constant(0xFF800000 : f32) : f32
// CHECK: llvm.bitcast %[[PAD]] : f32 to i32
tile.kernel @padding(%x: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] padding(0xFFF0000000000000) : !tile.view<?xf32> -> tensor<128xf32>
  tile.store %t, %x[%c0] : tensor<128xf32> -> !tile.view<?xf32>
}

// -----

// A reduction whose result layout puts rows in other threads than the
// source's (row r on lanes 4r to 4r + 3 of the source, on lane r of the
// result) goes through shared memory: write, barrier, then each thread
// combines its row in index order.
// CHECK-LABEL: llvm.func @rowsum
// CHECK-SAME: tile.shared_bytes = 1024 : i64
// CHECK: llvm.mlir.addressof @tessera_smem : !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) : i64
// CHECK:   llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK:   llvm.fadd
tile.kernel @rowsum(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<8x32xf32>
  %s = tile.reduce sum %t axis 1 : tensor<8x32xf32> -> tensor<8x1xf32>
  tile.store %s, %x[%c0, %c0] : tensor<8x1xf32> -> !tile.view<?x?xf32>
}

// -----

// The non-Tensor-Core mma: A and B to shared memory, then an fma loop over K
// per accumulator register; f32 inputs are rounded to tf32 first.
// CHECK-LABEL: llvm.func @mma_tf32
// CHECK: scf.for
// CHECK:   llvm.inline_asm "cvt.rna.tf32.f32 $0, $1;", "=r,f"
// CHECK:   llvm.intr.fma
tile.kernel @mma_tf32(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<16x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.mma %a, %a, %z : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
  tile.store %d, %x[%c0, %c0] : tensor<16x16xf32> -> !tile.view<?x?xf32>
}

// -----

// Non-splat constants live in a global array read at each register's index.
// CHECK: llvm.mlir.global internal constant @tile_cst_0(dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<4xf32>) {addr_space = 1 : i32
// CHECK-LABEL: llvm.func @table
// CHECK: llvm.mlir.addressof @tile_cst_0 : !llvm.ptr<1>
tile.kernel @table(%x: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %t = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  tile.store %t, %x[%c0] : tensor<4xf32> -> !tile.view<?xf32>
}

// -----

// A scan whose axis lies along the lowest lanes and the warps: in-warp
// Hillis-Steele by shfl.sync.up (1, 2, 4, 8, 16 lanes), then each warp adds
// the totals of the warps before it from shared memory.
// CHECK-LABEL: llvm.func @cumsum_column
// CHECK-SAME: tile.shared_bytes = 512 : i64
// CHECK-COUNT-5: shfl.sync.up.b32 $0, $1, {{1|2|4|8|16}}, 0, -1;
// CHECK: shfl.sync.up.b32 $0, $1, 1, 0, -1;
// CHECK: nvvm.barrier0
// CHECK: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-2: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: scf.for
// CHECK: nvvm.barrier0
#col = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
tile.kernel @cumsum_column(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x1xf32, #col>
  %s = tile.scan sum %t axis 0 : tensor<64x1xf32, #col>
  tile.store %s, %x[%c0, %c0] : tensor<64x1xf32, #col> -> !tile.view<?x?xf32>
}

// -----

// The total of a vector: butterfly shuffles within the warp, then the warps'
// partials through shared memory; every thread holds the result.
// CHECK-LABEL: llvm.func @total
// CHECK-COUNT-5: shfl.sync.bfly.b32 $0, $1, {{1|2|4|8|16}}, 31, -1;
// CHECK: nvvm.barrier0
// CHECK-NOT: scf.for
#col = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
#one = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
tile.kernel @total(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x1xf32, #col>
  %s = tile.reduce max %t axis 0 : tensor<64x1xf32, #col> -> tensor<1x1xf32, #one>
  tile.store %s, %x[%c0, %c0] : tensor<1x1xf32, #one> -> !tile.view<?x?xf32>
}
