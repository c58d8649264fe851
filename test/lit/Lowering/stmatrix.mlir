// With --stmatrix (convert-tile-to-llvm store-matrices), a 16-bit tile in
// the wgmma accumulator layout goes to swizzled shared memory with stmatrix
// on sm_90a: four 8 x 8 blocks per instruction (a 64 x 32 tile over 4
// warps: 16 registers per thread, two instructions), each lane giving one
// block row's address. sm_80 and the default keep 4-byte stores; layouts
// that are not the mma fragment (blocked) never take it.
// RUN: tile-compile %s --target sm_90a --stmatrix | FileCheck %s
// RUN: tile-compile %s --target sm_80 --stmatrix | FileCheck %s --check-prefix=SM80
// RUN: tile-compile %s --target sm_90a | FileCheck %s --check-prefix=SM80
// CHECK-LABEL: .entry fragment(
// CHECK-COUNT-2: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK-NOT: stmatrix
// CHECK-LABEL: .entry rows(
// CHECK-NOT: stmatrix
// SM80-NOT: stmatrix
#blocked = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#wgmma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 32]>
module attributes {tile.num_warps = 4 : i32} {
  tile.kernel @fragment(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>) {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #wgmma>
    %s = tile.local_alloc %t : tensor<64x32xbf16, #wgmma> -> !tile.smem<64x32xbf16, #tile.nvmma_shared<swizzle = 64>>
    %r = tile.local_load %s : !tile.smem<64x32xbf16, #tile.nvmma_shared<swizzle = 64>> -> tensor<64x32xbf16, #blocked>
    tile.store %r, %y[%c0, %c0] : tensor<64x32xbf16, #blocked> -> !tile.view<?x?xbf16>
    tile.return
  }
  tile.kernel @rows(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>) {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #blocked>
    %s = tile.local_alloc %t : tensor<64x32xbf16, #blocked> -> !tile.smem<64x32xbf16, #tile.nvmma_shared<swizzle = 64>>
    %r = tile.local_load %s : !tile.smem<64x32xbf16, #tile.nvmma_shared<swizzle = 64>> -> tensor<64x32xbf16, #blocked>
    tile.store %r, %y[%c0, %c0] : tensor<64x32xbf16, #blocked> -> !tile.view<?x?xbf16>
    tile.return
  }
}
