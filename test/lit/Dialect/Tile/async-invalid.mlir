// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{swizzle must be 32, 64 or 128 bytes, got 16}}
#bad = #tile.nvmma_shared<swizzle = 16>

// -----

// expected-error @+1 {{a 128-byte swizzle needs a multiple of 8 rows, got 4}}
tile.kernel @rows() { %s = tile.local_alloc : !tile.smem<4x64xbf16, #tile.nvmma_shared<swizzle = 128>> }

// -----

// expected-error @+1 {{rows of 16 x 'bf16' are not a multiple of the 128-byte swizzle}}
tile.kernel @cols() { %s = tile.local_alloc : !tile.smem<8x16xbf16, #tile.nvmma_shared<swizzle = 128>> }

// -----

// expected-error @+1 {{#tile.nvmma_shared holds 16- or 32-bit floats, got 'i32'}}
tile.kernel @ints() { %s = tile.local_alloc : !tile.smem<8x64xi32, #tile.nvmma_shared<swizzle = 128>> }

// -----

// tf32 lives only in registers (f32 bits rounded for the Tensor Cores): a
// buffer of it has no byte size, and the lowering sizes buffers by their
// element type. f32 buffers are read as tf32 instead.
// expected-error @+1 {{unsupported shared-memory element type 'tf32'}}
tile.kernel @tf32() { %s = tile.local_alloc : !tile.smem<8x64xtf32> }

// -----

// expected-error @+1 {{shared-memory encoding must be #tile.nvmma_shared}}
tile.kernel @enc() { %s = tile.local_alloc : !tile.smem<8x64xbf16, #tile.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>> }

// -----

// expected-error @+1 {{shared-memory dimensions must be positive, got 0}}
tile.kernel @zero() { %s = tile.local_alloc : !tile.smem<0x64xbf16> }

// -----

#blocked = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
tile.kernel @alloc_mismatch() {
  %z = arith.constant dense<0.0> : tensor<64x64xf16, #blocked>
  // expected-error @+1 {{'tile.local_alloc' op the tile ('tensor<64x64xf16, #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>') and the buffer ('!tile.smem<64x64xbf16>') differ in shape or element type}}
  %s = tile.local_alloc %z : tensor<64x64xf16, #blocked> -> !tile.smem<64x64xbf16>
}

// -----

tile.kernel @alloc_level1() {
  %z = arith.constant dense<0.0> : tensor<64x64xbf16>
  // expected-error @+1 {{the tile needs a layout (level 2)}}
  %s = tile.local_alloc %z : tensor<64x64xbf16> -> !tile.smem<64x64xbf16>
}

// -----

tile.kernel @index(%i: index) {
  %r = tile.local_alloc : !tile.smem<2x64x64xbf16>
  // expected-error @+1 {{the result must be one stage of the buffer}}
  %s = tile.local_index %r[%i] : !tile.smem<2x64x64xbf16> -> !tile.smem<32x64xbf16>
}

// -----

tile.kernel @bars() {
  // expected-error @+1 {{mbarriers are a !tile.smem<Nxi64>, got '!tile.smem<2xi32>'}}
  %b = tile.barrier_alloc count 1 : !tile.smem<2xi32>
}

// -----

tile.kernel @bar_count() {
  // expected-error @+1 {{attribute 'count' failed to satisfy constraint}}
  %b = tile.barrier_alloc count 0 : !tile.smem<2xi64>
}

// -----

tile.kernel @wait(%i: index) {
  %p = arith.constant true
  %r = tile.local_alloc : !tile.smem<2x64xbf16>
  // expected-error @+1 {{expected mbarriers (!tile.smem<Nxi64>)}}
  tile.barrier_wait %r[%i], %p : !tile.smem<2x64xbf16>
}

// -----

#nv = #tile.nvmma_shared<swizzle = 128>
tile.kernel @tma_indices(%a: !tile.view<?x?xbf16>, %i: index) {
  %s = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %b = tile.barrier_alloc count 1 : !tile.smem<1xi64>
  // expected-error @+1 {{expected 2 indices for a rank-2 view, got 1}}
  tile.async_load %a[%i] into %s, %b[%i] : !tile.view<?x?xbf16> -> !tile.smem<64x64xbf16, #nv>, !tile.smem<1xi64>
}

// -----

#nv = #tile.nvmma_shared<swizzle = 128>
tile.kernel @tma_type(%a: !tile.view<?x?xf16>, %i: index) {
  %s = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %b = tile.barrier_alloc count 1 : !tile.smem<1xi64>
  // expected-error @+1 {{the view holds 'f16' but the buffer 'bf16'}}
  tile.async_load %a[%i, %i] into %s, %b[%i] : !tile.view<?x?xf16> -> !tile.smem<64x64xbf16, #nv>, !tile.smem<1xi64>
}

// -----

tile.kernel @tma_layout(%a: !tile.view<?x?xbf16>, %i: index) {
  %s = tile.local_alloc : !tile.smem<64x64xbf16>
  %b = tile.barrier_alloc count 1 : !tile.smem<1xi64>
  // expected-error @+1 {{the destination needs a #tile.nvmma_shared layout}}
  tile.async_load %a[%i, %i] into %s, %b[%i] : !tile.view<?x?xbf16> -> !tile.smem<64x64xbf16>, !tile.smem<1xi64>
}

// -----

#nv = #tile.nvmma_shared<swizzle = 128>
tile.kernel @tma_box(%a: !tile.view<?x?xbf16>, %i: index) {
  %s = tile.local_alloc : !tile.smem<512x64xbf16, #nv>
  %b = tile.barrier_alloc count 1 : !tile.smem<1xi64>
  // expected-error @+1 {{a TMA box dimension is at most 256, got 512}}
  tile.async_load %a[%i, %i] into %s, %b[%i] : !tile.view<?x?xbf16> -> !tile.smem<512x64xbf16, #nv>, !tile.smem<1xi64>
}

// -----

#nv = #tile.nvmma_shared<swizzle = 128>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
tile.kernel @wgmma_shapes() {
  %a = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %b = tile.local_alloc : !tile.smem<128x64xbf16, #nv>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{shapes do not compose}}
  %d = tile.warpgroup_mma %a, %b, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<128x64xbf16, #nv>, tensor<64x64xf32, #mma>
}

// -----

#nv = #tile.nvmma_shared<swizzle = 128>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
tile.kernel @wgmma_types() {
  %a = tile.local_alloc : !tile.smem<64x64xf16, #nv>
  %b = tile.local_alloc : !tile.smem<64x64xf32, #nv>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{operands must both be bf16, both f16 or both f32 (read as tf32)}}
  %d = tile.warpgroup_mma %a, %b transposed, %z : !tile.smem<64x64xf16, #nv>, !tile.smem<64x64xf32, #nv>, tensor<64x64xf32, #mma>
}

// -----

// tf32 wgmma reads both operands K-major: B must be stored N x K.
#nv = #tile.nvmma_shared<swizzle = 128>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
tile.kernel @wgmma_tf32_mn_major() {
  %a = tile.local_alloc : !tile.smem<64x32xf32, #nv>
  %b = tile.local_alloc : !tile.smem<32x64xf32, #nv>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{f32 (tf32) operands must both be K-major in shared memory: A stored M x K, B stored N x K (transposed)}}
  %d = tile.warpgroup_mma %a, %b, %z : !tile.smem<64x32xf32, #nv>, !tile.smem<32x64xf32, #nv>, tensor<64x64xf32, #mma>
}

// -----

#nv = #tile.nvmma_shared<swizzle = 128>
#mma2 = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>
tile.kernel @wgmma_acc() {
  %a = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma2>
  // expected-error @+1 {{the accumulator must be f32 in a version 3 mma layout}}
  %d = tile.warpgroup_mma %a, %a, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x64xbf16, #nv>, tensor<64x64xf32, #mma2>
}

// -----

#nv = #tile.nvmma_shared<swizzle = 128>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
tile.kernel @wgmma_plain() {
  %a = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %b = tile.local_alloc : !tile.smem<64x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{operands in shared memory need #tile.nvmma_shared layouts}}
  %d = tile.warpgroup_mma %a, %b, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x64xbf16>, tensor<64x64xf32, #mma>
}

// -----

// Two warpgroups along N with instruction N 64 cover 128 columns; the
// accumulator has 64.
#nv = #tile.nvmma_shared<swizzle = 128>
#mma = #tile.mma<version = 3, wpc = [4, 2], instr = [64, 64]>
tile.kernel @wgmma_along_n_cover() {
  %a = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{the accumulator layout must stack whole warpgroups along M (then N) and tile N by the instruction}}
  %d = tile.warpgroup_mma %a, %a, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x64xbf16, #nv>, tensor<64x64xf32, #mma>
}

// -----

#nv = #tile.nvmma_shared<swizzle = 128>
tile.kernel @tma_rank4(%x: !tile.view<?x?x?x?xbf16>, %i: index) {
  %s = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %bars = tile.barrier_alloc count 1 : !tile.smem<1xi64>
  // expected-error @+1 {{TMA copies from 2-D views here; a rank-4 view needs cp_async}}
  tile.async_load %x[%i, %i, %i, %i] into %s, %bars[%i] rows(1) : !tile.view<?x?x?x?xbf16> -> !tile.smem<64x64xbf16, #nv>, !tile.smem<1xi64>
}

// -----

#nv = #tile.nvmma_shared<swizzle = 128>
tile.kernel @rows_last(%x: !tile.view<?x?x?x?xbf16>, %i: index) {
  %s = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %bars = tile.barrier_alloc count 128 : !tile.smem<1xi64>
  // expected-error @+1 {{rows(3) must name a dimension before the last of the rank-4 view}}
  tile.async_load %x[%i, %i, %i, %i] into %s, %bars[%i] rows(3) cp_async : !tile.view<?x?x?x?xbf16> -> !tile.smem<64x64xbf16, #nv>, !tile.smem<1xi64>
}

// -----

#nv = #tile.nvmma_shared<swizzle = 128>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
tile.kernel @wgmma_transposed_shapes() {
  %a = tile.local_alloc : !tile.smem<64x128xbf16, #nv>
  %b = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // A stored 64 x 128 and read transposed is 128 x 64: M = 128, not 64.
  // expected-error @+1 {{shapes do not compose: '!tile.smem<64x128xbf16, #tile.nvmma_shared<swizzle = 128>>' (transposed) * '!tile.smem<64x64xbf16, #tile.nvmma_shared<swizzle = 128>>' + 'tensor<64x64xf32, #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>>'}}
  %d = tile.warpgroup_mma %a transposed, %b, %z : !tile.smem<64x128xbf16, #nv>, !tile.smem<64x64xbf16, #nv>, tensor<64x64xf32, #mma>
}

// -----

// A register A operand must be in the accumulator's A dot-operand layout.
#nv = #tile.nvmma_shared<swizzle = 128>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
#mma2 = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>
#dot2 = #tile.dot_operand<idx = 0, parent = #mma2, kwidth = 2>
tile.kernel @wgmma_register_a_layout() {
  %ra = arith.constant dense<1.0> : tensor<64x64xbf16, #dot2>
  %b = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{an A operand in registers must be untransposed in the A dot-operand layout (kwidth 2) of the accumulator's layout, got 'tensor<64x64xbf16, #tile.dot_operand<idx = 0, parent = <version = 2, wpc = [4, 1], instr = [16, 8]>, kwidth = 2>>'}}
  %d = tile.warpgroup_mma %ra, %b, %z : tensor<64x64xbf16, #dot2>, !tile.smem<64x64xbf16, #nv>, tensor<64x64xf32, #mma>
}

// -----

#nv = #tile.nvmma_shared<swizzle = 128>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
#dot = #tile.dot_operand<idx = 0, parent = #mma, kwidth = 2>
tile.kernel @wgmma_register_a_transposed() {
  %ra = arith.constant dense<1.0> : tensor<64x64xbf16, #dot>
  %b = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{an A operand in registers must be untransposed}}
  %d = tile.warpgroup_mma %ra transposed, %b, %z : tensor<64x64xbf16, #dot>, !tile.smem<64x64xbf16, #nv>, tensor<64x64xf32, #mma>
}

// -----

#nv = #tile.nvmma_shared<swizzle = 128>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
#dot = #tile.dot_operand<idx = 0, parent = #mma, kwidth = 2>
tile.kernel @wgmma_register_a_shape() {
  %ra = arith.constant dense<1.0> : tensor<64x32xbf16, #dot>
  %b = tile.local_alloc : !tile.smem<64x64xbf16, #nv>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{shapes do not compose}}
  %d = tile.warpgroup_mma %ra, %b, %z : tensor<64x32xbf16, #dot>, !tile.smem<64x64xbf16, #nv>, tensor<64x64xf32, #mma>
}
