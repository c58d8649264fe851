// Reductions that combine in place in Tensor Core accumulator layouts
// (registers, butterfly shuffles, and across warps one partial a warp):
// row maxima and row sums with the warps along M, column sums with the
// warps along both; each broadcast back. Recorded as a GPU case against
// the interpreter (tessera-gpu-cases).

#blocked = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>
#mma2 = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>

module attributes {tile.num_warps = 4 : i32} {
  tile.kernel @reductions(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
    %i = tile.program_id x : index
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #mma>
    // Along the rows: registers and lanes 1 and 2 apart.
    %m = tile.reduce max %t axis 1 : tensor<64x32xf32, #mma> -> tensor<64x1xf32, #mma>
    %s = tile.reduce sum %t axis 1 : tensor<64x32xf32, #mma> -> tensor<64x1xf32, #mma>
    %mb = tile.broadcast %m : tensor<64x1xf32, #mma> -> tensor<64x32xf32, #mma>
    %sb = tile.broadcast %s : tensor<64x1xf32, #mma> -> tensor<64x32xf32, #mma>
    // Down the columns, warps along both (loaded so: a conversion would
    // move the reduce back to #mma): lanes 4, 8, 16 apart, then a warp
    // bit; the other warp bit holds other columns.
    %u = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #mma2>
    %c = tile.reduce sum %u axis 0 : tensor<64x32xf32, #mma2> -> tensor<1x32xf32, #mma2>
    %cb = tile.broadcast %c : tensor<1x32xf32, #mma2> -> tensor<64x32xf32, #mma2>
    %cm = tile.convert_layout %cb : tensor<64x32xf32, #mma2> -> tensor<64x32xf32, #mma>
    // y = x - max + sum / 32 + colsum / 64.
    %k32 = arith.constant dense<0.03125> : tensor<64x32xf32, #mma>
    %k64 = arith.constant dense<0.015625> : tensor<64x32xf32, #mma>
    %d = arith.subf %t, %mb : tensor<64x32xf32, #mma>
    %s1 = arith.mulf %sb, %k32 : tensor<64x32xf32, #mma>
    %s2 = arith.mulf %cm, %k64 : tensor<64x32xf32, #mma>
    %s3 = arith.addf %d, %s1 : tensor<64x32xf32, #mma>
    %out = arith.addf %s3, %s2 : tensor<64x32xf32, #mma>
    %ob = tile.convert_layout %out : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
    tile.store %ob, %y[%i, %c0] : tensor<64x32xf32, #blocked> -> !tile.view<?x?xf32>
    tile.return
  }
}
