// RUN: tile-opt %s -split-input-file --tile-assign-layouts --convert-tile-to-llvm | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --convert-tile-to-llvm=swizzle-exchanges=false | FileCheck %s --check-prefix=PLAIN

// A transpose through shared memory: plain row-major, the reads of one
// register go to one bank from all 32 lanes (a 32 x 32 f32 tile, rows of 128
// bytes). The bank-conflict model picks the two-level XOR swizzle of 4-byte
// units: unit u -> u ^ ((u >> 5 ^ u >> 10) & 31), the same on both sides.
// The swizzle is linear in the index bits, so each thread computes its
// register 0 offset once and every register XORs in a constant.
// CHECK-LABEL: llvm.func @transpose
// CHECK:         %[[OFF:.*]] = llvm.mul %{{.*}}, %{{.*}} : i32
// CHECK:         %[[U:.*]] = llvm.lshr %[[OFF]], %{{.*}} : i32
// CHECK:         %[[HI:.*]] = llvm.lshr %[[U]], %{{.*}} : i32
// CHECK:         %[[LO:.*]] = llvm.lshr %[[U]], %{{.*}} : i32
// CHECK:         %[[ROW:.*]] = llvm.xor %[[LO]], %[[HI]] : i32
// CHECK:         %[[M:.*]] = llvm.and %[[ROW]], %{{.*}} : i32
// CHECK:         %[[MASK:.*]] = llvm.shl %[[M]], %{{.*}} : i32
// CHECK:         %[[SW:.*]] = llvm.xor %[[OFF]], %[[MASK]] : i32
// CHECK:         %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:         %[[R0:.*]] = llvm.xor %[[SW]], %[[C0]] : i32
// CHECK:         %[[P:.*]] = llvm.getelementptr %{{.*}}[%[[R0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         llvm.store %{{.*}}, %[[P]] : f32, !llvm.ptr<3>
// CHECK:         %[[C1:.*]] = llvm.mlir.constant({{[1-9][0-9]*}} : i32) : i32
// CHECK:         %[[R1:.*]] = llvm.xor %[[SW]], %[[C1]] : i32
// CHECK:         llvm.getelementptr %{{.*}}[%[[R1]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.barrier
// CHECK:         llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// The option turns it off: plain element-indexed addresses.
// PLAIN-LABEL: llvm.func @transpose
// PLAIN-NOT:     !llvm.ptr<3>, i8
// PLAIN:         llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
tile.kernel @transpose(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<32x32xf32>
  %p = tile.permute %t [1, 0] : tensor<32x32xf32> -> tensor<32x32xf32>
  tile.store %p, %x[%c0, %c0] : tensor<32x32xf32> -> !tile.view<?x?xf32>
}

// -----

// A tile too small to fill whole 128-byte rows keeps the plain scratch.
// CHECK-LABEL: llvm.func @small
// CHECK-NOT:     !llvm.ptr<3>, i8
// CHECK:         llvm.return
tile.kernel @small(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<4x4xf32>
  %p = tile.permute %t [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  tile.store %p, %x[%c0, %c0] : tensor<4x4xf32> -> !tile.view<?x?xf32>
}

