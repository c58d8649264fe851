// Diagnostics of the !tile.view type, of tile.kernel and tile.return, and of
// the rules every kernel body follows (only tile/arith/math ops and
// scf.for/if/while/execute_region, no value of view type made in the body,
// every shaped value a tile, every scalar index or a tile element type).
// Memory ops (and the "must be nested in a tile.kernel" rule): invalid-memory.mlir;
// compute ops: invalid-compute.mlir.
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

// A declaration without a body is rejected by the region constraint (there is
// no verifier check of its own for this).
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
  // expected-error @+1 {{'func.call' op is not supported inside a tile kernel (only tile, arith, math and scf.for/if/while/execute_region operations are)}}
  func.call @helper() : () -> ()
  tile.return
}

// -----

tile.kernel @builtin_cast(%n: i32) {
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' op is not supported inside a tile kernel (only tile, arith, math and scf.for/if/while/execute_region operations are)}}
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

// -----

// Only scf.for/if/while/execute_region (and their scf.yield/scf.condition
// terminators) are lowered: no parallel loops, the grid is the only
// parallelism of a kernel.
// The diagnostic is currently reported on the implicit scf.reduce terminator
// (the body is walked post-order), at the location of the scf.parallel, so the
// op name is left out of the expected message.
tile.kernel @scf_parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{op is not supported inside a tile kernel (only tile, arith, math and scf.for/if/while/execute_region operations are)}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
  }
  tile.return
}

// -----

// As for scf.parallel, reported on the implicit scf.forall.in_parallel.
tile.kernel @scf_forall(%n: index) {
  // expected-error @+1 {{op is not supported inside a tile kernel (only tile, arith, math and scf.for/if/while/execute_region operations are)}}
  scf.forall (%i) in (%n) {
  }
  tile.return
}

// -----

tile.kernel @scf_index_switch(%n: index) {
  // expected-error @+1 {{'scf.index_switch' op is not supported inside a tile kernel (only tile, arith, math and scf.for/if/while/execute_region operations are)}}
  %r = scf.index_switch %n -> i32
  case 2 {
    %a = arith.constant 10 : i32
    scf.yield %a : i32
  }
  default {
    %b = arith.constant 50 : i32
    scf.yield %b : i32
  }
  tile.return
}

// -----

// An unsupported scf op nested in a supported one.
tile.kernel @nested_index_switch(%n: index, %m: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %p = arith.cmpi sgt, %m, %z : i32
  scf.if %p {
    // expected-error @+1 {{'scf.index_switch' op is not supported inside a tile kernel}}
    scf.index_switch %n
    default {
      scf.yield
    }
  }
  tile.return
}

//===----------------------------------------------------------------------===//
// Kernel body: views only come from kernel arguments
//===----------------------------------------------------------------------===//

// -----

tile.kernel @select_view(%a: !tile.view<?xf32>, %b: !tile.view<?xf32>, %n: i32) {
  %z = arith.constant 0 : i32
  %c = arith.cmpi eq, %n, %z : i32
  // expected-error @+1 {{'arith.select' op produces a view; views only come from kernel arguments}}
  %v = arith.select %c, %a, %b : !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @if_view(%a: !tile.view<?xf32>, %b: !tile.view<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c = arith.cmpi eq, %n, %c0 : index
  // expected-error @+1 {{'scf.if' op produces a view; views only come from kernel arguments}}
  %v = scf.if %c -> !tile.view<?xf32> {
    scf.yield %a : !tile.view<?xf32>
  } else {
    scf.yield %b : !tile.view<?xf32>
  }
  tile.return
}

// -----

tile.kernel @for_view(%a: !tile.view<?xf32>, %b: !tile.view<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op carries a view in a block argument; views only come from kernel arguments}}
  %v = scf.for %i = %c0 to %n step %c1 iter_args(%w = %a) -> !tile.view<?xf32> {
    scf.yield %b : !tile.view<?xf32>
  }
  tile.return
}

// -----

tile.kernel @while_view(%a: !tile.view<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'scf.while' op carries a view in a block argument; views only come from kernel arguments}}
  %v = scf.while (%k = %c0) : (index) -> !tile.view<?xf32> {
    %c = arith.cmpi slt, %k, %n : index
    scf.condition(%c) %a : !tile.view<?xf32>
  } do {
  ^bb0(%w: !tile.view<?xf32>):
    scf.yield %c0 : index
  }
  tile.return
}

// -----

tile.kernel @execute_region_view(%a: !tile.view<?xf32>) {
  // expected-error @+1 {{'scf.execute_region' op produces a view; views only come from kernel arguments}}
  %v = scf.execute_region -> !tile.view<?xf32> {
    scf.yield %a : !tile.view<?xf32>
  }
  tile.return
}

//===----------------------------------------------------------------------===//
// Kernel body: every shaped value is a tile
//===----------------------------------------------------------------------===//

// -----

tile.kernel @non_power_of_two() {
  // expected-error @+1 {{'arith.constant' op produces 'tensor<48xf32>', but tiles must be ranked tensors with static power-of-two dimensions and an f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 element type}}
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
  // expected-error @+1 {{'arith.constant' op produces 'tensor<4xindex>', but tiles must be ranked tensors with static power-of-two dimensions and an f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 element type}}
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

//===----------------------------------------------------------------------===//
// Kernel body: every scalar is index or a tile element type
//===----------------------------------------------------------------------===//

// -----

tile.kernel @i4_scalar() {
  // expected-error @+1 {{'arith.constant' op produces a scalar of type 'i4'; scalars must be index, f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64}}
  %0 = arith.constant 0 : i4
  tile.return
}

// -----

tile.kernel @i128_scalar(%n: i64) {
  // expected-error @+1 {{'arith.extsi' op produces a scalar of type 'i128'; scalars must be index, f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64}}
  %0 = arith.extsi %n : i64 to i128
  tile.return
}

// -----

tile.kernel @fp8_scalar() {
  // expected-error @+1 {{'arith.constant' op produces a scalar of type 'f8E4M3FN'; scalars must be index, f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64}}
  %0 = arith.constant 1.0 : f8E4M3FN
  tile.return
}

// -----

tile.kernel @f128_scalar(%x: f64) {
  // expected-error @+1 {{'arith.extf' op produces a scalar of type 'f128'}}
  %0 = arith.extf %x : f64 to f128
  tile.return
}

// -----

tile.kernel @scalar_in_loop(%n: index, %m: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'arith.trunci' op produces a scalar of type 'i7'}}
    %t = arith.trunci %m : i32 to i7
  }
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op attribute 'min_blocks_per_sm' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 1 whose maximum value is 32}}
tile.kernel @no_blocks() attributes {min_blocks_per_sm = 0 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op num_warps must be a power of two, got 6}}
tile.kernel @six_warps() attributes {num_warps = 6 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op attribute 'num_warps' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 1 whose maximum value is 32}}
tile.kernel @too_many_warps() attributes {num_warps = 64 : i32} {
  tile.return
}
