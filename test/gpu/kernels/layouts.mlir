// A level-2 kernel that moves one tile through every distributed layout:
// blocked -> mma.sync accumulator -> wgmma accumulator -> mma A and B
// fragments -> blocked, computing on the way (elementwise ops, a reduction
// and a scan in Tensor Core layouts). Recorded as a GPU case against the
// interpreter (tessera-gpu-cases) and compiled in lit (Lowering/layouts.mlir).

#blocked = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#col = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>
#wgmma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 32]>
#a = #tile.dot_operand<idx = 0, parent = #mma, kwidth = 2>
#b = #tile.dot_operand<idx = 1, parent = #mma, kwidth = 2>

module attributes {tile.num_warps = 4 : i32} {
  tile.kernel @layouts(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
    %i = tile.program_id x : index
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #blocked>
    // In the mma.sync accumulator layout: t * t + 1, and a row sum.
    %m = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #mma>
    %one = arith.constant dense<1.0> : tensor<64x32xf32, #mma>
    %sq = arith.mulf %m, %m : tensor<64x32xf32, #mma>
    %p = arith.addf %sq, %one : tensor<64x32xf32, #mma>
    %rs = tile.reduce sum %p axis 1 : tensor<64x32xf32, #mma> -> tensor<64x1xf32, #col>
    // In the wgmma accumulator layout: a running sum down the columns.
    %w = tile.convert_layout %p : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #wgmma>
    %cs = tile.scan sum %w axis 0 : tensor<64x32xf32, #wgmma>
    // Through the A and B fragments, in f16.
    %h = arith.truncf %t : tensor<64x32xf32, #blocked> to tensor<64x32xf16, #blocked>
    %fa = tile.convert_layout %h : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #a>
    %fb = tile.convert_layout %fa : tensor<64x32xf16, #a> -> tensor<64x32xf16, #b>
    %hb = tile.convert_layout %fb : tensor<64x32xf16, #b> -> tensor<64x32xf16, #blocked>
    %e = arith.extf %hb : tensor<64x32xf16, #blocked> to tensor<64x32xf32, #blocked>
    // Back to blocked: y = scan / 64 + row sum / 32 - f16(t).
    %csb = tile.convert_layout %cs : tensor<64x32xf32, #wgmma> -> tensor<64x32xf32, #blocked>
    %rsb = tile.broadcast %rs : tensor<64x1xf32, #col> -> tensor<64x32xf32, #col>
    %rsc = tile.convert_layout %rsb : tensor<64x32xf32, #col> -> tensor<64x32xf32, #blocked>
    %k64 = arith.constant dense<0.015625> : tensor<64x32xf32, #blocked>
    %k32 = arith.constant dense<0.03125> : tensor<64x32xf32, #blocked>
    %s1 = arith.mulf %csb, %k64 : tensor<64x32xf32, #blocked>
    %s2 = arith.mulf %rsc, %k32 : tensor<64x32xf32, #blocked>
    %s3 = arith.addf %s1, %s2 : tensor<64x32xf32, #blocked>
    %out = arith.subf %s3, %e : tensor<64x32xf32, #blocked>
    tile.store %out, %y[%i, %c0] : tensor<64x32xf32, #blocked> -> !tile.view<?x?xf32>
    tile.return
  }
}
