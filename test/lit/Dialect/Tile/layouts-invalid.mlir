// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{tpw must multiply to the 32 lanes of a warp, got 16}}
#bad = #tile.blocked<spt = [1], tpw = [16], wpc = [4], order = [0]>

// -----

// expected-error @+1 {{spt, tpw and wpc entries must be powers of two}}
#bad = #tile.blocked<spt = [3], tpw = [32], wpc = [4], order = [0]>

// -----

// expected-error @+1 {{order must be a permutation of 0..1}}
#bad = #tile.blocked<spt = [1, 1], tpw = [8, 4], wpc = [4, 1], order = [1, 1]>

// -----

// expected-error @+1 {{spt, tpw, wpc and order need one entry per dimension (rank >= 1)}}
#bad = #tile.blocked<spt = [1, 1], tpw = [32], wpc = [4], order = [0]>

// -----

// expected-error @+1 {{version 2 (mma.sync) has instr = [16, 8]}}
#bad = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 16]>

// -----

// expected-error @+1 {{version 3 (wgmma) has instr = [64, N] with N a power of two in 8..256}}
#bad = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 12]>

// -----

// expected-error @+1 {{version 3 needs whole warpgroups: wpc[0] must be a multiple of 4}}
#bad = #tile.mma<version = 3, wpc = [2, 2], instr = [64, 64]>

// -----

// expected-error @+1 {{mma version must be 2 (mma.sync) or 3 (wgmma), got 1}}
#bad = #tile.mma<version = 1, wpc = [2, 2], instr = [16, 8]>

// -----

// expected-error @+1 {{mma layouts are 2-D: wpc and instr need 2 entries}}
#bad = #tile.mma<version = 2, wpc = [4], instr = [16, 8]>

// -----

// expected-error @+1 {{wpc entries must be powers of two}}
#bad = #tile.mma<version = 2, wpc = [3, 1], instr = [16, 8]>

// -----

// expected-error @+1 {{idx is 0 (A) or 1 (B), got 2}}
#bad = #tile.dot_operand<idx = 2, parent = #tile.mma<version = 2, wpc = [1, 1], instr = [16, 8]>, kwidth = 2>

// -----

// wgmma reads B from shared memory only.
// expected-error @+1 {{a version 3 (wgmma) parent takes only A operands (idx 0) of 16-bit types (kwidth 2) in registers}}
#bad = #tile.dot_operand<idx = 1, parent = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>, kwidth = 2>

// -----

// expected-error @+1 {{a version 3 (wgmma) parent takes only A operands (idx 0) of 16-bit types (kwidth 2) in registers}}
#bad = #tile.dot_operand<idx = 0, parent = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>, kwidth = 1>

// -----

// expected-error @+1 {{kwidth must be 2 (16-bit operands) or 1 (tf32), got 4}}
#bad = #tile.dot_operand<idx = 0, parent = #tile.mma<version = 2, wpc = [1, 1], instr = [16, 8]>, kwidth = 4>

// -----

// expected-error @+1 {{vec, perPhase and maxPhase must be powers of two}}
#bad = #tile.shared<vec = 6, perPhase = 1, maxPhase = 8, order = [1, 0]>

// -----

// expected-error @+1 {{shared layouts are 2-D: order is [1, 0] or [0, 1]}}
#bad = #tile.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0]>

// -----

// An mma layout on a 1-D tile is not a tile.
func.func @mma_rank(%t: tensor<64xf32, #tile.mma<version = 2, wpc = [1, 1], instr = [16, 8]>>) {
  // expected-error @+1 {{'tile.reduce' op operand #0 must be tile}}
  %r = tile.reduce sum %t axis 0 : tensor<64xf32, #tile.mma<version = 2, wpc = [1, 1], instr = [16, 8]>> -> tensor<1xf32, #tile.mma<version = 2, wpc = [1, 1], instr = [16, 8]>>
  return
}

// -----

// An mma layout may have unit dimensions in front (a reshape that adds
// them, for a store into a wider view), but no other leading dimension.
func.func @mma_leading_dims(%t: tensor<2x64x16xf32, #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>>) {
  // expected-error @+1 {{'tile.reduce' op operand #0 must be tile}}
  %r = tile.reduce sum %t axis 0 : tensor<2x64x16xf32, #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>> -> tensor<1x64x16xf32, #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>>
  return
}
