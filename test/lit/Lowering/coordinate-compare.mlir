// RUN: tile-opt %s -split-input-file --convert-tile-to-llvm | FileCheck %s
// RUN: tile-opt %s -split-input-file \
// RUN:   --convert-tile-to-llvm=coordinate-compares=false \
// RUN:   | FileCheck %s --check-prefix=OFF

// A causal mask (cols <= rows) on a wgmma accumulator: the row and column
// of a register are its thread's part plus a constant, so the compare is
// one difference a thread and one compare with a constant a register
// (register 0 is (0, 0), 1 is (0, 1), 2 is (8, 0), 3 is (8, 1)).
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
// CHECK-LABEL: llvm.func @causal(
// The lhs (column) part is truncated first: its trunc is L, the rhs
// part's L+1, the difference L+2 and the first constant L+3, which holds
// only for lhs - rhs.
// CHECK:         %[[D:[0-9]+]] = llvm.sub %[[#L:]], %[[#R:]] : i32
// CHECK-NEXT:    %[[#L+3]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.icmp "sle" %[[D]], %[[#L+3]] : i32
// CHECK-NEXT:    %[[C1:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:    llvm.icmp "sle" %[[D]], %[[C1]] : i32
// CHECK-NEXT:    %[[C2:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-NEXT:    llvm.icmp "sle" %[[D]], %[[C2]] : i32
// CHECK-NEXT:    %[[C3:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT:    llvm.icmp "sle" %[[D]], %[[C3]] : i32
// CHECK-COUNT-28: llvm.icmp "sle" %[[D]], %{{.*}} : i32
// CHECK-NOT:     llvm.icmp "sle"
// CHECK-NOT:     arith.cmpi
// CHECK:         llvm.return
// Without coordinate-compares (tile-compile --no-coordinate-compares):
// both coordinates of every register, compared.
// OFF-LABEL: llvm.func @causal(
// OFF-COUNT-32: arith.cmpi sle, %{{.*}}, %{{.*}} : i32
// OFF:         llvm.return
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @causal(%v: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %t = tile.load %v[%i, %i] : !tile.view<?x?xf32> -> tensor<64x64xf32, #mma>
  %cols = tile.iota dim 1 : tensor<64x64xi32, #mma>
  %rows = tile.iota : tensor<64x64xi32, #mma>
  %causal = arith.cmpi sle, %cols, %rows : tensor<64x64xi32, #mma>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %m = arith.select %causal, %t, %zero : tensor<64x64xi1, #mma>, tensor<64x64xf32, #mma>
  tile.store %m, %w[%i, %i] : tensor<64x64xf32, #mma> -> !tile.view<?x?xf32>
}
}

// -----

// Coordinates are never negative, so an unsigned order is the signed one
// (rows ult cols: the difference rows - cols against cols' constant minus
// rows'), here on i64 coordinates of an mma.sync accumulator.
#mma = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>
// CHECK-LABEL: llvm.func @unsigned(
// CHECK:         %[[D:.*]] = llvm.sub %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.icmp "slt" %[[D]], %[[C0]] : i32
// CHECK-NEXT:    %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.icmp "slt" %[[D]], %[[C1]] : i32
// CHECK-COUNT-14: llvm.icmp "slt" %[[D]], %{{.*}} : i32
// CHECK-NOT:     llvm.icmp "slt"
// CHECK-NOT:     arith.cmpi
// CHECK:         llvm.return
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @unsigned(%v: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %t = tile.load %v[%i, %i] : !tile.view<?x?xf32> -> tensor<64x32xf32, #mma>
  %cols = tile.iota dim 1 : tensor<64x32xi64, #mma>
  %rows = tile.iota : tensor<64x32xi64, #mma>
  %upper = arith.cmpi ult, %rows, %cols : tensor<64x32xi64, #mma>
  %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
  %m = arith.select %upper, %t, %zero : tensor<64x32xi1, #mma>, tensor<64x32xf32, #mma>
  tile.store %m, %w[%i, %i] : tensor<64x32xf32, #mma> -> !tile.view<?x?xf32>
}
}

// -----

// Every other predicate: signed and unsigned orders both become the
// signed compare of the difference (lhs - rhs) with rhs's constant minus
// lhs's; eq and ne stay. Register 1 of the accumulator is (row 0, col 1),
// whose constant (the second compare of each) is checked.
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
// CHECK-LABEL: llvm.func @predicates(
// CHECK:         %[[D1:.*]] = llvm.sub %{{.*}}, %{{.*}} : i32
// CHECK:         %[[K1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.icmp "sgt" %[[D1]], %[[K1]] : i32
// CHECK:         %[[D2:.*]] = llvm.sub %{{.*}}, %{{.*}} : i32
// CHECK:         %[[K2:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:    llvm.icmp "sge" %[[D2]], %[[K2]] : i32
// CHECK:         %[[D3:.*]] = llvm.sub %{{.*}}, %{{.*}} : i32
// CHECK:         %[[K3:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.icmp "eq" %[[D3]], %[[K3]] : i32
// CHECK:         %[[D4:.*]] = llvm.sub %{{.*}}, %{{.*}} : i32
// CHECK:         %[[K4:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:    llvm.icmp "ne" %[[D4]], %[[K4]] : i32
// CHECK-NOT:     arith.cmpi
// CHECK:         llvm.return
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @predicates(%v: !tile.view<?x?xi32>) {
  %i = tile.program_id x : index
  %cols = tile.iota dim 1 : tensor<64x64xi32, #mma>
  %rows = tile.iota : tensor<64x64xi32, #mma>
  // Register 1: rows - cols > 1 - 0 (the thread parts' difference).
  %a = arith.cmpi ugt, %rows, %cols : tensor<64x64xi32, #mma>
  // Register 1: cols - rows >= 0 - 1.
  %b = arith.cmpi sge, %cols, %rows : tensor<64x64xi32, #mma>
  %c = arith.cmpi eq, %rows, %cols : tensor<64x64xi32, #mma>
  %d = arith.cmpi ne, %cols, %rows : tensor<64x64xi32, #mma>
  %ab = arith.andi %a, %b : tensor<64x64xi1, #mma>
  %cd = arith.ori %c, %d : tensor<64x64xi1, #mma>
  %m = arith.xori %ab, %cd : tensor<64x64xi1, #mma>
  %e = arith.extui %m : tensor<64x64xi1, #mma> to tensor<64x64xi32, #mma>
  tile.store %e, %v[%i, %i] : tensor<64x64xi32, #mma> -> !tile.view<?x?xi32>
}
}

// -----

// An iota against another tile keeps the per-register compare.
#blocked = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
// CHECK-LABEL: llvm.func @against_a_load(
// CHECK-NOT:     llvm.sub {{.*}} : i32
// CHECK-COUNT-8: arith.cmpi sle, %{{.*}}, %{{.*}} : i32
// CHECK:         llvm.return
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @against_a_load(%v: !tile.view<?x?xi32>, %w: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %t = tile.load %v[%i, %i] : !tile.view<?x?xi32> -> tensor<16x64xi32, #blocked>
  %cols = tile.iota dim 1 : tensor<16x64xi32, #blocked>
  %le = arith.cmpi sle, %cols, %t : tensor<16x64xi32, #blocked>
  %one = arith.constant dense<1.0> : tensor<16x64xf32, #blocked>
  %zero = arith.constant dense<0.0> : tensor<16x64xf32, #blocked>
  %m = arith.select %le, %one, %zero : tensor<16x64xi1, #blocked>, tensor<16x64xf32, #blocked>
  tile.store %m, %w[%i, %i] : tensor<16x64xf32, #blocked> -> !tile.view<?x?xf32>
}
}
