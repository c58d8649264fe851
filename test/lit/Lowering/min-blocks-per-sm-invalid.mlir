// A kernel's min_blocks_per_sm must leave room for its warps on one SM.
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --convert-tile-to-llvm -verify-diagnostics
// RUN: not tile-opt %s --tile-assign-layouts --convert-tile-to-llvm="min-blocks-per-sm=40" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: min-blocks-per-sm takes 1 to 32 blocks, got 40

// 32 blocks of 4 warps would need 128 warps on one SM.
module attributes {tile.num_warps = 4 : i32} {
// expected-error @+1 {{'tile.kernel' op min_blocks_per_sm 32 of 4 warps each cannot share an SM, which holds at most 64 warps}}
tile.kernel @too_many(%x: !tile.view<?xf32>) attributes {min_blocks_per_sm = 32 : i32} {
  tile.return
}
}

// -----

// The kernel's own warps count, not the module's: 9 blocks of 8 warps.
module attributes {tile.num_warps = 4 : i32} {
// expected-error @+1 {{'tile.kernel' op min_blocks_per_sm 9 of 8 warps each cannot share an SM, which holds at most 64 warps}}
tile.kernel @eight_warps(%x: !tile.view<?xf32>) attributes {min_blocks_per_sm = 9 : i32, num_warps = 8 : i32} {
  tile.return
}
}
