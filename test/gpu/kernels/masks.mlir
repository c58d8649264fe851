// Masks from comparing two iota tiles (a causal mask is cols <= rows) in
// the layouts the lowering takes as one difference a thread and a constant
// a register: a wgmma and an mma.sync accumulator, blocked layouts in both
// orders; every predicate once, on i16, i32 and i64 coordinates, with the
// operands either way round. Each mask selects x with its own power-of-two
// weight, so y / x spells out every mask's value at every element.
// Recorded as a GPU case against the interpreter (tessera-gpu-cases).

#blocked = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#wgmma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 32]>
#mma = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>
#cols = #tile.blocked<spt = [2, 1], tpw = [4, 8], wpc = [1, 4], order = [0, 1]>

module attributes {tile.num_warps = 4 : i32} {
  tile.kernel @masks(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
    %i = tile.program_id x : index
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #blocked>
    %acc0 = arith.constant dense<0.0> : tensor<64x32xf32, #blocked>
    // cols sle rows, #wgmma, i32: weight 1.
    %m0x = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #wgmma>
    %m0c = tile.iota dim 1 : tensor<64x32xi32, #wgmma>
    %m0r = tile.iota : tensor<64x32xi32, #wgmma>
    %m0m = arith.cmpi sle, %m0c, %m0r : tensor<64x32xi32, #wgmma>
    %m0z = arith.constant dense<0.0> : tensor<64x32xf32, #wgmma>
    %m0s = arith.select %m0m, %m0x, %m0z : tensor<64x32xi1, #wgmma>, tensor<64x32xf32, #wgmma>
    %m0b = tile.convert_layout %m0s : tensor<64x32xf32, #wgmma> -> tensor<64x32xf32, #blocked>
    %m0k = arith.constant dense<1.0> : tensor<64x32xf32, #blocked>
    %m0w = arith.mulf %m0b, %m0k : tensor<64x32xf32, #blocked>
    %acc1 = arith.addf %acc0, %m0w : tensor<64x32xf32, #blocked>
    // rows ult cols, #mma, i64: weight 2.
    %m1x = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #mma>
    %m1c = tile.iota dim 1 : tensor<64x32xi64, #mma>
    %m1r = tile.iota : tensor<64x32xi64, #mma>
    %m1m = arith.cmpi ult, %m1r, %m1c : tensor<64x32xi64, #mma>
    %m1z = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %m1s = arith.select %m1m, %m1x, %m1z : tensor<64x32xi1, #mma>, tensor<64x32xf32, #mma>
    %m1b = tile.convert_layout %m1s : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
    %m1k = arith.constant dense<2.0> : tensor<64x32xf32, #blocked>
    %m1w = arith.mulf %m1b, %m1k : tensor<64x32xf32, #blocked>
    %acc2 = arith.addf %acc1, %m1w : tensor<64x32xf32, #blocked>
    // rows eq cols, #blocked, i32: weight 4.
    %m2c = tile.iota dim 1 : tensor<64x32xi32, #blocked>
    %m2r = tile.iota : tensor<64x32xi32, #blocked>
    %m2m = arith.cmpi eq, %m2r, %m2c : tensor<64x32xi32, #blocked>
    %m2z = arith.constant dense<0.0> : tensor<64x32xf32, #blocked>
    %m2s = arith.select %m2m, %t, %m2z : tensor<64x32xi1, #blocked>, tensor<64x32xf32, #blocked>
    %m2k = arith.constant dense<4.0> : tensor<64x32xf32, #blocked>
    %m2w = arith.mulf %m2s, %m2k : tensor<64x32xf32, #blocked>
    %acc3 = arith.addf %acc2, %m2w : tensor<64x32xf32, #blocked>
    // rows uge cols, #cols, i16: weight 8.
    %m3x = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #cols>
    %m3c = tile.iota dim 1 : tensor<64x32xi16, #cols>
    %m3r = tile.iota : tensor<64x32xi16, #cols>
    %m3m = arith.cmpi uge, %m3r, %m3c : tensor<64x32xi16, #cols>
    %m3z = arith.constant dense<0.0> : tensor<64x32xf32, #cols>
    %m3s = arith.select %m3m, %m3x, %m3z : tensor<64x32xi1, #cols>, tensor<64x32xf32, #cols>
    %m3b = tile.convert_layout %m3s : tensor<64x32xf32, #cols> -> tensor<64x32xf32, #blocked>
    %m3k = arith.constant dense<8.0> : tensor<64x32xf32, #blocked>
    %m3w = arith.mulf %m3b, %m3k : tensor<64x32xf32, #blocked>
    %acc4 = arith.addf %acc3, %m3w : tensor<64x32xf32, #blocked>
    // cols ne rows, #cols, i16: weight 16.
    %m4x = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #cols>
    %m4c = tile.iota dim 1 : tensor<64x32xi16, #cols>
    %m4r = tile.iota : tensor<64x32xi16, #cols>
    %m4m = arith.cmpi ne, %m4c, %m4r : tensor<64x32xi16, #cols>
    %m4z = arith.constant dense<0.0> : tensor<64x32xf32, #cols>
    %m4s = arith.select %m4m, %m4x, %m4z : tensor<64x32xi1, #cols>, tensor<64x32xf32, #cols>
    %m4b = tile.convert_layout %m4s : tensor<64x32xf32, #cols> -> tensor<64x32xf32, #blocked>
    %m4k = arith.constant dense<16.0> : tensor<64x32xf32, #blocked>
    %m4w = arith.mulf %m4b, %m4k : tensor<64x32xf32, #blocked>
    %acc5 = arith.addf %acc4, %m4w : tensor<64x32xf32, #blocked>
    // rows sgt cols, #wgmma, i32: weight 32.
    %m5x = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #wgmma>
    %m5c = tile.iota dim 1 : tensor<64x32xi32, #wgmma>
    %m5r = tile.iota : tensor<64x32xi32, #wgmma>
    %m5m = arith.cmpi sgt, %m5r, %m5c : tensor<64x32xi32, #wgmma>
    %m5z = arith.constant dense<0.0> : tensor<64x32xf32, #wgmma>
    %m5s = arith.select %m5m, %m5x, %m5z : tensor<64x32xi1, #wgmma>, tensor<64x32xf32, #wgmma>
    %m5b = tile.convert_layout %m5s : tensor<64x32xf32, #wgmma> -> tensor<64x32xf32, #blocked>
    %m5k = arith.constant dense<32.0> : tensor<64x32xf32, #blocked>
    %m5w = arith.mulf %m5b, %m5k : tensor<64x32xf32, #blocked>
    %acc6 = arith.addf %acc5, %m5w : tensor<64x32xf32, #blocked>
    // cols sge rows, #mma, i32: weight 64.
    %m6x = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #mma>
    %m6c = tile.iota dim 1 : tensor<64x32xi32, #mma>
    %m6r = tile.iota : tensor<64x32xi32, #mma>
    %m6m = arith.cmpi sge, %m6c, %m6r : tensor<64x32xi32, #mma>
    %m6z = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %m6s = arith.select %m6m, %m6x, %m6z : tensor<64x32xi1, #mma>, tensor<64x32xf32, #mma>
    %m6b = tile.convert_layout %m6s : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
    %m6k = arith.constant dense<64.0> : tensor<64x32xf32, #blocked>
    %m6w = arith.mulf %m6b, %m6k : tensor<64x32xf32, #blocked>
    %acc7 = arith.addf %acc6, %m6w : tensor<64x32xf32, #blocked>
    // cols slt rows, #blocked, i64: weight 128.
    %m7c = tile.iota dim 1 : tensor<64x32xi64, #blocked>
    %m7r = tile.iota : tensor<64x32xi64, #blocked>
    %m7m = arith.cmpi slt, %m7c, %m7r : tensor<64x32xi64, #blocked>
    %m7z = arith.constant dense<0.0> : tensor<64x32xf32, #blocked>
    %m7s = arith.select %m7m, %t, %m7z : tensor<64x32xi1, #blocked>, tensor<64x32xf32, #blocked>
    %m7k = arith.constant dense<128.0> : tensor<64x32xf32, #blocked>
    %m7w = arith.mulf %m7s, %m7k : tensor<64x32xf32, #blocked>
    %acc8 = arith.addf %acc7, %m7w : tensor<64x32xf32, #blocked>
    // cols ugt rows, #cols, i32: weight 256.
    %m8x = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #cols>
    %m8c = tile.iota dim 1 : tensor<64x32xi32, #cols>
    %m8r = tile.iota : tensor<64x32xi32, #cols>
    %m8m = arith.cmpi ugt, %m8c, %m8r : tensor<64x32xi32, #cols>
    %m8z = arith.constant dense<0.0> : tensor<64x32xf32, #cols>
    %m8s = arith.select %m8m, %m8x, %m8z : tensor<64x32xi1, #cols>, tensor<64x32xf32, #cols>
    %m8b = tile.convert_layout %m8s : tensor<64x32xf32, #cols> -> tensor<64x32xf32, #blocked>
    %m8k = arith.constant dense<256.0> : tensor<64x32xf32, #blocked>
    %m8w = arith.mulf %m8b, %m8k : tensor<64x32xf32, #blocked>
    %acc9 = arith.addf %acc8, %m8w : tensor<64x32xf32, #blocked>
    // rows ule cols, #wgmma, i16: weight 512.
    %m9x = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #wgmma>
    %m9c = tile.iota dim 1 : tensor<64x32xi16, #wgmma>
    %m9r = tile.iota : tensor<64x32xi16, #wgmma>
    %m9m = arith.cmpi ule, %m9r, %m9c : tensor<64x32xi16, #wgmma>
    %m9z = arith.constant dense<0.0> : tensor<64x32xf32, #wgmma>
    %m9s = arith.select %m9m, %m9x, %m9z : tensor<64x32xi1, #wgmma>, tensor<64x32xf32, #wgmma>
    %m9b = tile.convert_layout %m9s : tensor<64x32xf32, #wgmma> -> tensor<64x32xf32, #blocked>
    %m9k = arith.constant dense<512.0> : tensor<64x32xf32, #blocked>
    %m9w = arith.mulf %m9b, %m9k : tensor<64x32xf32, #blocked>
    %acc10 = arith.addf %acc9, %m9w : tensor<64x32xf32, #blocked>
    tile.store %acc10, %y[%i, %c0] : tensor<64x32xf32, #blocked> -> !tile.view<?x?xf32>
    tile.return
  }
}
