// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-accelerate-mma | FileCheck %s
// RUN: tile-compile %s --target sm_80 | FileCheck %s --check-prefix=PTX

// A bf16 mma whose shape the m16n8k16 instruction tiles: A and B go
// through swizzled shared memory (64-byte rows of A: 64-byte swizzle) and
// come back as Tensor Core operand fragments (ldmatrix, .trans for B), the
// accumulator becomes an mma.sync accumulator (2 x 2 warps: each holds 32
// rows of A and 32 columns of B), and the result goes back to its layout.
// CHECK-DAG: #[[MMA:mma[0-9]*]] = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>
// CHECK-DAG: #[[A:dot_op[0-9]*]] = #tile.dot_operand<idx = 0, parent = #[[MMA]], kwidth = 2>
// CHECK-DAG: #[[B:dot_op[0-9]*]] = #tile.dot_operand<idx = 1, parent = #[[MMA]], kwidth = 2>
// CHECK-LABEL: tile.kernel @gemm_tile
// CHECK: %[[SA:.*]] = tile.local_alloc %{{.*}} -> !tile.smem<64x32xbf16, #tile.nvmma_shared<swizzle = 64>>
// CHECK: %[[CA:.*]] = tile.local_load %[[SA]] : {{.*}} -> tensor<64x32xbf16, #[[A]]>
// CHECK: %[[SB:.*]] = tile.local_alloc %{{.*}} -> !tile.smem<32x64xbf16, #tile.nvmma_shared<swizzle = 128>>
// CHECK: %[[CB:.*]] = tile.local_load %[[SB]] : {{.*}} -> tensor<32x64xbf16, #[[B]]>
// CHECK: %[[CC:.*]] = tile.convert_layout %{{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK: %[[D:.*]] = tile.mma %[[CA]], %[[CB]], %[[CC]] : tensor<64x32xbf16, #[[A]]>, tensor<32x64xbf16, #[[B]]>, tensor<64x64xf32, #[[MMA]]>
// CHECK: tile.convert_layout %[[D]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #blocked
// PTX-LABEL: .entry gemm_tile(
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync
tile.kernel @gemm_tile(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %tb = tile.load %b[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.mma %ta, %tb, %z : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
}

// -----

// f16 with 2x2 warps when M has only 32 rows. Rows of 16 f16 (32 bytes)
// take the 32-byte swizzle, which needs 32 rows: A (32 rows) goes through
// shared memory, B (16 rows) takes a layout conversion.
// CHECK: #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>
// CHECK-LABEL: tile.kernel @f16_32x16
// CHECK: tile.local_alloc %{{.*}} -> !tile.smem<32x16xf16, #tile.nvmma_shared<swizzle = 32>>
// CHECK: tile.local_load
// CHECK-NOT: tile.local_alloc
// CHECK: tile.convert_layout %{{.*}} : tensor<16x16xf16
// PTX-LABEL: .entry f16_32x16(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
tile.kernel @f16_32x16(%a: !tile.view<?x?xf16>, %c: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xf16> -> tensor<32x16xf16>
  %tb = tile.load %a[%c0, %c0] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %z = arith.constant dense<0.0> : tensor<32x16xf32>
  %d = tile.mma %ta, %tb, %z : tensor<32x16xf16>, tensor<16x16xf16>, tensor<32x16xf32>
  tile.store %d, %c[%c0, %c0] : tensor<32x16xf32> -> !tile.view<?x?xf32>
}

// -----

// Shapes the instruction cannot tile (K = 8 for bf16; 16 x 16 f32 on four
// warps) keep the FMA path.
// CHECK-LABEL: tile.kernel @fallbacks
// CHECK-NOT: #tile.mma
// CHECK-NOT: dot_operand
// CHECK: tile.return
// PTX-LABEL: .entry fallbacks(
// PTX-NOT: mma.sync
// PTX: fma.rn.f32
tile.kernel @fallbacks(%a: !tile.view<?x?xbf16>, %f: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<16x8xbf16>
  %tb = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<8x8xbf16>
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %d = tile.mma %ta, %tb, %z : tensor<16x8xbf16>, tensor<8x8xbf16>, tensor<16x8xf32>
  tile.store %d, %f[%c0, %c0] : tensor<16x8xf32> -> !tile.view<?x?xf32>
  %fa = tile.load %f[%c0, %c0] : !tile.view<?x?xf32> -> tensor<16x16xf32>
  %z2 = arith.constant dense<0.0> : tensor<16x16xf32>
  %e = tile.mma %fa, %fa, %z2 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
  tile.store %e, %f[%c0, %c0] : tensor<16x16xf32> -> !tile.view<?x?xf32>
}

// -----

// f32 inputs on tf32 Tensor Cores: m16n8k8 fragments (kwidth = 1), inputs
// rounded with cvt.rna (as the interpreter rounds mma inputs); tf32x3
// issues three mma per instruction tile (small terms first); ieee keeps
// the exact FMA path.
// CHECK-DAG: #tile.dot_operand<idx = 0, parent = #{{.*}}, kwidth = 1>
// CHECK-DAG: #tile.dot_operand<idx = 1, parent = #{{.*}}, kwidth = 1>
// CHECK-LABEL: tile.kernel @tf32
// PTX-LABEL: .entry tf32(
// PTX: cvt.rna.tf32.f32
// PTX-COUNT-4: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX-NOT: mma.sync
// PTX-LABEL: .entry tf32x3(
// PTX-COUNT-12: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX-NOT: mma.sync
// PTX-LABEL: .entry ieee(
// PTX-NOT: mma.sync
// PTX: fma.rn.f32
tile.kernel @tf32(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<32x16xf32>
  %tb = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<16x32xf32>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tile.mma %ta, %tb, %z : tensor<32x16xf32>, tensor<16x32xf32>, tensor<32x32xf32>
  tile.store %d, %c[%c0, %c0] : tensor<32x32xf32> -> !tile.view<?x?xf32>
}
tile.kernel @tf32x3(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<32x16xf32>
  %tb = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<16x32xf32>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tile.mma %ta, %tb, %z precision(tf32x3) : tensor<32x16xf32>, tensor<16x32xf32>, tensor<32x32xf32>
  tile.store %d, %c[%c0, %c0] : tensor<32x32xf32> -> !tile.view<?x?xf32>
}
tile.kernel @ieee(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<32x16xf32>
  %tb = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<16x32xf32>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tile.mma %ta, %tb, %z precision(ieee) : tensor<32x16xf32>, tensor<16x32xf32>, tensor<32x32xf32>
  tile.store %d, %c[%c0, %c0] : tensor<32x32xf32> -> !tile.view<?x?xf32>
}
