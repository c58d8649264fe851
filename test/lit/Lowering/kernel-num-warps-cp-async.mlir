// A kernel's own num_warps reaches the patterns that run after its body
// moved into the llvm.func (cp.async splits the tile among the kernel's
// threads): 64 x 128 bf16 is 1024 pieces of 16 bytes, 4 a thread on 8
// warps, 8 on 4 (each on the whole-tile path and on the bounds-checked
// one).
// RUN: tile-compile %s --target sm_90a --num-warps 4 | FileCheck %s
// CHECK-LABEL: .entry copy_eight(
// CHECK:       .maxntid 256, 1, 1
// CHECK-COUNT-8: cp.async.cg.shared.global
// CHECK-NOT:   cp.async.cg.shared.global
// CHECK-LABEL: .entry copy_four(
// CHECK:       .maxntid 128, 1, 1
// CHECK-COUNT-16: cp.async.cg.shared.global
// CHECK-NOT:   cp.async.cg.shared.global
module attributes {tile.num_warps = 4 : i32} {
  tile.kernel @copy_eight(%x: !tile.view<?x?x?x?xbf16>, %t: index) attributes {num_warps = 8 : i32} {
    %c0 = arith.constant 0 : index
    %buf = tile.local_alloc : !tile.smem<64x128xbf16, #tile.nvmma_shared<swizzle = 128>>
    %bar = tile.barrier_alloc count 256 : !tile.smem<1xi64>
    tile.async_load %x[%c0, %t, %c0, %c0] into %buf, %bar[%c0] rows(1) cp_async : !tile.view<?x?x?x?xbf16> -> !tile.smem<64x128xbf16, #tile.nvmma_shared<swizzle = 128>>, !tile.smem<1xi64>
  }
  tile.kernel @copy_four(%x: !tile.view<?x?x?x?xbf16>, %t: index) {
    %c0 = arith.constant 0 : index
    %buf = tile.local_alloc : !tile.smem<64x128xbf16, #tile.nvmma_shared<swizzle = 128>>
    %bar = tile.barrier_alloc count 128 : !tile.smem<1xi64>
    tile.async_load %x[%c0, %t, %c0, %c0] into %buf, %bar[%c0] rows(1) cp_async : !tile.view<?x?x?x?xbf16> -> !tile.smem<64x128xbf16, #tile.nvmma_shared<swizzle = 128>>, !tile.smem<1xi64>
  }
}
