// 16-bit tiles in mma fragment layouts written to swizzled shared memory
// (stmatrix on sm_90a, 4-byte stores on sm_80) and read back in a blocked
// layout: the wgmma accumulator (64 x 64, 128-byte swizzle), the mma.sync
// accumulator (64 x 32, 64-byte swizzle, two warps along each dimension).
// Recorded as a GPU case against the interpreter (tessera-gpu-cases).

#blocked = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#wgmma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 32]>
#mma = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>

module attributes {tile.num_warps = 4 : i32} {
  tile.kernel @stmatrix(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
    %i = tile.program_id x : index
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #blocked>
    // wgmma accumulator -> bf16 -> 128-byte swizzle (64 x 64: the tile twice).
    %w = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #wgmma>
    %wb = arith.truncf %w : tensor<64x32xf32, #wgmma> to tensor<64x32xbf16, #wgmma>
    %s1 = tile.local_alloc %wb : tensor<64x32xbf16, #wgmma> -> !tile.smem<64x32xbf16, #tile.nvmma_shared<swizzle = 64>>
    %r1 = tile.local_load %s1 : !tile.smem<64x32xbf16, #tile.nvmma_shared<swizzle = 64>> -> tensor<64x32xbf16, #blocked>
    // mma.sync accumulator -> f16 -> 64-byte swizzle.
    %m = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #mma>
    %mh = arith.truncf %m : tensor<64x32xf32, #mma> to tensor<64x32xf16, #mma>
    %s2 = tile.local_alloc %mh : tensor<64x32xf16, #mma> -> !tile.smem<64x32xf16, #tile.nvmma_shared<swizzle = 64>>
    %r2 = tile.local_load %s2 : !tile.smem<64x32xf16, #tile.nvmma_shared<swizzle = 64>> -> tensor<64x32xf16, #blocked>
    // y = bf16(t) + 2 f16(t): both round trips must be exact.
    %e1 = arith.extf %r1 : tensor<64x32xbf16, #blocked> to tensor<64x32xf32, #blocked>
    %e2 = arith.extf %r2 : tensor<64x32xf16, #blocked> to tensor<64x32xf32, #blocked>
    %two = arith.constant dense<2.0> : tensor<64x32xf32, #blocked>
    %d = arith.mulf %e2, %two : tensor<64x32xf32, #blocked>
    %out = arith.addf %e1, %d : tensor<64x32xf32, #blocked>
    tile.store %out, %y[%i, %c0] : tensor<64x32xf32, #blocked> -> !tile.view<?x?xf32>
    tile.return
  }
}
