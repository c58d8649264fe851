// Masks from comparing two iota tiles (a causal mask is cols <= rows) in
// the layouts the lowering takes as one difference a thread and a constant
// a register: a wgmma and an mma.sync accumulator, blocked layouts in both
// orders, with signed, unsigned and equality predicates and the operands
// either way round. Recorded as a GPU case against the interpreter
// (tessera-gpu-cases).

#blocked = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#wgmma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 32]>
#mma = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>
#cols = #tile.blocked<spt = [2, 1], tpw = [4, 8], wpc = [1, 4], order = [0, 1]>

module attributes {tile.num_warps = 4 : i32} {
  tile.kernel @masks(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
    %i = tile.program_id x : index
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #blocked>

    // Causal (cols <= rows) on the wgmma accumulator, weight 1.
    %a = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #wgmma>
    %ac = tile.iota dim 1 : tensor<64x32xi32, #wgmma>
    %ar = tile.iota : tensor<64x32xi32, #wgmma>
    %am = arith.cmpi sle, %ac, %ar : tensor<64x32xi32, #wgmma>
    %az = arith.constant dense<0.0> : tensor<64x32xf32, #wgmma>
    %as = arith.select %am, %a, %az : tensor<64x32xi1, #wgmma>, tensor<64x32xf32, #wgmma>
    %ab = tile.convert_layout %as : tensor<64x32xf32, #wgmma> -> tensor<64x32xf32, #blocked>

    // Strictly above the diagonal, unsigned (rows ult cols), on mma.sync's
    // accumulator, weight 2.
    %b = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #mma>
    %bc = tile.iota dim 1 : tensor<64x32xi64, #mma>
    %br = tile.iota : tensor<64x32xi64, #mma>
    %bm = arith.cmpi ult, %br, %bc : tensor<64x32xi64, #mma>
    %bz = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %bs = arith.select %bm, %b, %bz : tensor<64x32xi1, #mma>, tensor<64x32xf32, #mma>
    %bb = tile.convert_layout %bs : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
    %k2 = arith.constant dense<2.0> : tensor<64x32xf32, #blocked>
    %bw = arith.mulf %bb, %k2 : tensor<64x32xf32, #blocked>

    // The diagonal (eq) in the loaded layout, weight 4.
    %cc = tile.iota dim 1 : tensor<64x32xi32, #blocked>
    %cr = tile.iota : tensor<64x32xi32, #blocked>
    %cm = arith.cmpi eq, %cr, %cc : tensor<64x32xi32, #blocked>
    %cz = arith.constant dense<0.0> : tensor<64x32xf32, #blocked>
    %cs = arith.select %cm, %t, %cz : tensor<64x32xi1, #blocked>, tensor<64x32xf32, #blocked>
    %k4 = arith.constant dense<4.0> : tensor<64x32xf32, #blocked>
    %cw = arith.mulf %cs, %k4 : tensor<64x32xf32, #blocked>

    // Strictly below the diagonal (rows uge cols, and cols ne rows) in a
    // column-major layout of i16, weight 8.
    %d = tile.convert_layout %t : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #cols>
    %dc = tile.iota dim 1 : tensor<64x32xi16, #cols>
    %dr = tile.iota : tensor<64x32xi16, #cols>
    %dm = arith.cmpi uge, %dr, %dc : tensor<64x32xi16, #cols>
    %dn = arith.cmpi ne, %dc, %dr : tensor<64x32xi16, #cols>
    %dmn = arith.andi %dm, %dn : tensor<64x32xi1, #cols>
    %dz = arith.constant dense<0.0> : tensor<64x32xf32, #cols>
    %ds = arith.select %dmn, %d, %dz : tensor<64x32xi1, #cols>, tensor<64x32xf32, #cols>
    %db = tile.convert_layout %ds : tensor<64x32xf32, #cols> -> tensor<64x32xf32, #blocked>
    %k8 = arith.constant dense<8.0> : tensor<64x32xf32, #blocked>
    %dw = arith.mulf %db, %k8 : tensor<64x32xf32, #blocked>

    %s0 = arith.addf %ab, %bw : tensor<64x32xf32, #blocked>
    %s1 = arith.addf %s0, %cw : tensor<64x32xf32, #blocked>
    %out = arith.addf %s1, %dw : tensor<64x32xf32, #blocked>
    tile.store %out, %y[%i, %c0] : tensor<64x32xf32, #blocked> -> !tile.view<?x?xf32>
    tile.return
  }
}
