// Diagnostics of the !tile.view type, of tile.kernel and tile.return, and of
// the rules every kernel body follows (only tile/arith/math/scf ops, every
// shaped value a tile). Memory ops: invalid-memory.mlir; compute ops:
// invalid-compute.mlir.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// !tile.view
//===----------------------------------------------------------------------===//

// expected-error @+1 {{a view has rank 1 or more}}
tile.kernel @view_rank0(%x: !tile.view<f32>) {
  tile.return
}

// -----

// expected-error @+1 {{view dimensions must be positive or '?', got 0}}
tile.kernel @view_zero_dim(%x: !tile.view<?x0xf32>) {
  tile.return
}

// -----

// expected-error @+1 {{unsupported view element type 'tf32' (expected f16, bf16, f32, f64 or i1/i8/i16/i32/i64)}}
tile.kernel @view_tf32(%x: !tile.view<?xtf32>) {
  tile.return
}

// -----

// expected-error @+1 {{unsupported view element type 'index'}}
tile.kernel @view_index(%x: !tile.view<?xindex>) {
  tile.return
}

// -----

// expected-error @+1 {{unsupported view element type 'i4'}}
tile.kernel @view_i4(%x: !tile.view<?xi4>) {
  tile.return
}

// -----

// expected-error @+1 {{unsupported view element type 'ui32'}}
tile.kernel @view_unsigned(%x: !tile.view<?xui32>) {
  tile.return
}

// -----

// expected-error @+1 {{unsupported view element type 'f8E4M3FN'}}
tile.kernel @view_fp8(%x: !tile.view<?xf8E4M3FN>) {
  tile.return
}

// -----

// expected-error @+1 {{unsupported view element type 'vector<4xf32>'}}
tile.kernel @view_vector(%x: !tile.view<?xvector<4xf32>>) {
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.kernel
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'tile.kernel' op a kernel returns nothing; store results through views instead}}
tile.kernel @returns_value() -> f32 {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op argument #0 has type 'tensor<64xf32>'; kernel arguments are !tile.view or i32, i64, f32, f64, index scalars}}
tile.kernel @tensor_argument(%t: tensor<64xf32>) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op argument #1 has type 'i16'; kernel arguments are !tile.view or i32, i64, f32, f64, index scalars}}
tile.kernel @i16_argument(%x: !tile.view<?xf32>, %n: i16) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op argument #2 has type 'bf16'}}
tile.kernel @bf16_argument(%x: !tile.view<?xf32>, %n: i32, %s: bf16) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op argument #0 has type 'memref<?xf32>'}}
tile.kernel @memref_argument(%m: memref<?xf32>) {
  tile.return
}

// -----

// A declaration without a body is rejected by the region constraint (the
// verifier's own "a kernel needs a body" cannot be reached).
// expected-error @+1 {{'tile.kernel' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
tile.kernel @declaration(%x: !tile.view<?xf32>)

// -----

// expected-error @+1 {{custom op 'tile.kernel' expected non-empty function body}}
tile.kernel @empty_body() {
}

// -----

tile.kernel @outer() {
  // expected-error @+1 {{'tile.kernel' op symbol's parent must have the SymbolTable trait}}
  tile.kernel @inner() {
    tile.return
  }
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op entry block must have 1 arguments to match function signature}}
"tile.kernel"() <{function_type = (!tile.view<?xf32>) -> (), sym_name = "generic_arity"}> ({
^bb0:
  "tile.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'tile.kernel' op expects a non-empty block}}
"tile.kernel"() <{function_type = () -> (), sym_name = "generic_no_terminator"}> ({
^bb0:
}) : () -> ()

//===----------------------------------------------------------------------===//
// tile.return
//===----------------------------------------------------------------------===//

// -----

func.func @return_outside_kernel() {
  // expected-error @+1 {{'tile.return' op expects parent op 'tile.kernel'}}
  tile.return
}

// -----

tile.kernel @return_in_scf(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c = arith.cmpi eq, %n, %c0 : i32
  scf.if %c {
    // expected-error @+1 {{'tile.return' op expects parent op 'tile.kernel'}}
    tile.return
  }
  tile.return
}

//===----------------------------------------------------------------------===//
// Kernel body: supported dialects
//===----------------------------------------------------------------------===//

// -----

func.func private @helper()

tile.kernel @func_call() {
  // expected-error @+1 {{'func.call' op is not supported inside a tile kernel (only tile, arith, math and scf operations are)}}
  func.call @helper() : () -> ()
  tile.return
}

// -----

tile.kernel @builtin_cast(%n: i32) {
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' op is not supported inside a tile kernel (only tile, arith, math and scf operations are)}}
  %0 = builtin.unrealized_conversion_cast %n : i32 to i64
  tile.return
}

// -----

// An op nested in an scf region is checked too.
tile.kernel @nested_unsupported(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'func.constant' op is not supported inside a tile kernel}}
    %f = func.constant @nested_unsupported : (index) -> ()
  }
  tile.return
}

//===----------------------------------------------------------------------===//
// Kernel body: every shaped value is a tile
//===----------------------------------------------------------------------===//

// -----

tile.kernel @non_power_of_two() {
  // expected-error @+1 {{'arith.constant' op produces 'tensor<48xf32>', but tiles must be ranked tensors with static power-of-two dimensions and an f16, bf16, tf32, f32, f64 or integer element type}}
  %0 = arith.constant dense<0.0> : tensor<48xf32>
  tile.return
}

// -----

tile.kernel @non_power_of_two_2d() {
  // expected-error @+1 {{'arith.constant' op produces 'tensor<64x3xbf16>', but tiles must be ranked tensors with static power-of-two dimensions}}
  %0 = arith.constant dense<0.0> : tensor<64x3xbf16>
  tile.return
}

// -----

tile.kernel @rank0_tensor() {
  // expected-error @+1 {{'arith.constant' op produces 'tensor<f32>', but tiles must be ranked tensors}}
  %0 = arith.constant dense<0.0> : tensor<f32>
  tile.return
}

// -----

tile.kernel @vector_value() {
  // expected-error @+1 {{'arith.constant' op produces 'vector<4xf32>', but tiles must be ranked tensors}}
  %0 = arith.constant dense<0.0> : vector<4xf32>
  tile.return
}

// -----

tile.kernel @index_tile() {
  // expected-error @+1 {{'arith.constant' op produces 'tensor<4xindex>', but tiles must be ranked tensors with static power-of-two dimensions and an f16, bf16, tf32, f32, f64 or integer element type}}
  %0 = arith.constant dense<0> : tensor<4xindex>
  tile.return
}

// -----

// Integers other than i1/i8/i16/i32/i64 are not tile elements either.
tile.kernel @i4_tile() {
  // expected-error @+1 {{'arith.constant' op produces 'tensor<4xi4>', but tiles must be ranked tensors}}
  %0 = arith.constant dense<0> : tensor<4xi4>
  tile.return
}

// -----

tile.kernel @fp8_tile() {
  // expected-error @+1 {{'arith.constant' op produces 'tensor<4xf8E4M3FN>', but tiles must be ranked tensors}}
  %0 = arith.constant dense<0.0> : tensor<4xf8E4M3FN>
  tile.return
}

// -----

tile.kernel @encoded_tile() {
  // expected-error @+1 {{'arith.constant' op produces 'tensor<4xf32, "blocked">', but tiles must be ranked tensors}}
  %0 = arith.constant dense<0.0> : tensor<4xf32, "blocked">
  tile.return
}

// -----

tile.kernel @non_tile_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = arith.constant dense<1.0> : tensor<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'arith.constant' op produces 'tensor<6xf32>'}}
    %u = arith.constant dense<1.0> : tensor<6xf32>
  }
  tile.return
}
