// Scans and reductions in layouts that take the warp-shuffle lowering
// (axis along registers, the lowest lanes and warps; forward and reverse;
// sum and max) and one that does not (lanes along the axis that are not the
// lowest: the shared-memory path). Recorded as a GPU case against the
// interpreter (tessera-gpu-cases).

#blocked = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#rows = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [2, 2], order = [1, 0]>
#col = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
#one = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>

module attributes {tile.num_warps = 4 : i32} {
  tile.kernel @scans(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
    %i = tile.program_id x : index
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #blocked>
    // Down the rows: lanes then a warp bit along the axis.
    %r = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #rows>
    %down = tile.scan sum %r axis 0 : tensor<64x32xf32, #rows>
    %up = tile.scan max %r axis 0 reverse : tensor<64x32xf32, #rows>
    // Along the columns: registers then the two lowest lanes, reversed.
    %right = tile.scan sum %t axis 1 reverse : tensor<64x32xf32, #blocked>
    // Down the rows of #blocked: lanes 2..4 along the axis (shared memory).
    %slow = tile.scan sum %t axis 0 : tensor<64x32xf32, #blocked>
    // A column's total, as a vector reduction, broadcast back.
    %c = tile.reduce sum %t axis 1 : tensor<64x32xf32, #blocked> -> tensor<64x1xf32, #col>
    %tot = tile.reduce max %c axis 0 : tensor<64x1xf32, #col> -> tensor<1x1xf32, #one>
    %totb = tile.broadcast %tot : tensor<1x1xf32, #one> -> tensor<64x32xf32, #blocked>
    // y = (down + slow) / 64 + up + right / 32 - total / 32.
    %downb = tile.convert_layout %down : tensor<64x32xf32, #rows> -> tensor<64x32xf32, #blocked>
    %upb = tile.convert_layout %up : tensor<64x32xf32, #rows> -> tensor<64x32xf32, #blocked>
    %k64 = arith.constant dense<0.015625> : tensor<64x32xf32, #blocked>
    %k32 = arith.constant dense<0.03125> : tensor<64x32xf32, #blocked>
    %s0 = arith.addf %downb, %slow : tensor<64x32xf32, #blocked>
    %s1 = arith.mulf %s0, %k64 : tensor<64x32xf32, #blocked>
    %s2 = arith.mulf %right, %k32 : tensor<64x32xf32, #blocked>
    %s3 = arith.addf %s1, %s2 : tensor<64x32xf32, #blocked>
    %s4 = arith.addf %s3, %upb : tensor<64x32xf32, #blocked>
    %s5 = arith.mulf %totb, %k32 : tensor<64x32xf32, #blocked>
    %out = arith.subf %s4, %s5 : tensor<64x32xf32, #blocked>
    tile.store %out, %y[%i, %c0] : tensor<64x32xf32, #blocked> -> !tile.view<?x?xf32>
    tile.return
  }
}
