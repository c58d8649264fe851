// Diagnostics of tile.program_id, tile.num_programs, tile.dim, tile.load and
// tile.store.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// tile.program_id / tile.num_programs
//===----------------------------------------------------------------------===//

tile.kernel @program_id_bad_dim() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'dim' [x, y, z]}}
  %0 = tile.program_id w : index
  tile.return
}

// -----

tile.kernel @program_id_i32() {
  // expected-error @+1 {{custom op 'tile.program_id' invalid kind of type specified: expected builtin.index, but found 'i32'}}
  %0 = tile.program_id x : i32
  tile.return
}

// -----

tile.kernel @num_programs_i64() {
  // expected-error @+1 {{custom op 'tile.num_programs' invalid kind of type specified: expected builtin.index, but found 'i64'}}
  %0 = tile.num_programs y : i64
  tile.return
}

// -----

tile.kernel @program_id_generic_i32() {
  // expected-error @+1 {{'tile.program_id' op result #0 must be index, but got 'i32'}}
  %0 = "tile.program_id"() <{dim = 0 : i32}> : () -> i32
  tile.return
}

// -----

tile.kernel @program_id_generic_bad_dim() {
  // expected-error @+1 {{invalid properties {dim = 3 : i32} for op tile.program_id}}
  %0 = "tile.program_id"() <{dim = 3 : i32}> : () -> index
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.dim
//===----------------------------------------------------------------------===//

// -----

tile.kernel @dim_axis_too_large(%x: !tile.view<?x?xf32>) {
  // expected-error @+1 {{'tile.dim' op axis 2 is out of range for a view of rank 2}}
  %0 = tile.dim %x[2] : !tile.view<?x?xf32>
  tile.return
}

// -----

tile.kernel @dim_axis_negative(%x: !tile.view<?xf32>) {
  // expected-error @+1 {{'tile.dim' op axis -1 is out of range for a view of rank 1}}
  %0 = tile.dim %x[-1] : !tile.view<?xf32>
  tile.return
}

// -----

func.func @dim_of_tensor(%t: tensor<64xf32>) {
  // expected-error @+1 {{'tile.dim' op operand #0 must be}}
  %0 = "tile.dim"(%t) <{axis = 0 : i64}> : (tensor<64xf32>) -> index
  return
}

//===----------------------------------------------------------------------===//
// tile.load
//===----------------------------------------------------------------------===//

// -----

tile.kernel @load_too_few_indices(%x: !tile.view<?x?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op expects 2 tile indices for a view of rank 2, got 1}}
  %0 = tile.load %x[%i] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @load_too_many_indices(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op expects 1 tile indices for a view of rank 1, got 3}}
  %0 = tile.load %x[%i, %i, %i] : !tile.view<?xf32> -> tensor<64xf32>
  tile.return
}

// -----

tile.kernel @load_rank_mismatch(%x: !tile.view<?x?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op tile rank 1 must equal the view rank 2 (use size-1 dimensions and tile.reshape to drop them)}}
  %0 = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<64xf32>
  tile.return
}

// -----

tile.kernel @load_element_type(%x: !tile.view<?x?xbf16>, %i: index) {
  // expected-error @+1 {{'tile.load' op tile element type 'f32' does not match the view element type 'bf16' (convert with arith casts)}}
  %0 = tile.load %x[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @load_latency_zero(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op latency hint must be in 1..10, got 0}}
  %0 = tile.load %x[%i] latency(0) : !tile.view<?xf32> -> tensor<64xf32>
  tile.return
}

// -----

tile.kernel @load_latency_eleven(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op latency hint must be in 1..10, got 11}}
  %0 = tile.load %x[%i] latency(11) : !tile.view<?xf32> -> tensor<64xf32>
  tile.return
}

// -----

tile.kernel @load_latency_negative(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op latency hint must be in 1..10, got -3}}
  %0 = tile.load %x[%i] latency(-3) : !tile.view<?xf32> -> tensor<64xf32>
  tile.return
}

// -----

tile.kernel @load_bad_cache(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'cache' [normal, evict_first, evict_last]}}
  %0 = tile.load %x[%i] cache(evict_all) : !tile.view<?xf32> -> tensor<64xf32>
  tile.return
}

// -----

tile.kernel @load_latency_i64(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op attribute 'latency' failed to satisfy constraint: 32-bit signless integer attribute}}
  %0 = "tile.load"(%x, %i) <{latency = 3 : i64}> : (!tile.view<?xf32>, index) -> tensor<64xf32>
  tile.return
}

// -----

tile.kernel @load_padding_f32(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op attribute 'padding' failed to satisfy constraint: 64-bit float attribute}}
  %0 = "tile.load"(%x, %i) <{padding = 0.0 : f32}> : (!tile.view<?xf32>, index) -> tensor<64xf32>
  tile.return
}

// -----

// expected-note @+1 {{prior use here}}
tile.kernel @load_i32_index(%x: !tile.view<?xf32>, %n: i32) {
  // expected-error @+1 {{use of value '%n' expects different type than prior uses: 'index' vs 'i32'}}
  %0 = tile.load %x[%n] : !tile.view<?xf32> -> tensor<64xf32>
  tile.return
}

// -----

tile.kernel @load_non_power_of_two(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op result #0 must be tile (ranked tensor with static power-of-two dimensions), but got 'tensor<100xf32>'}}
  %0 = tile.load %x[%i] : !tile.view<?xf32> -> tensor<100xf32>
  tile.return
}

// -----

tile.kernel @load_dynamic_tile(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op result #0 must be tile (ranked tensor with static power-of-two dimensions), but got 'tensor<?xf32>'}}
  %0 = tile.load %x[%i] : !tile.view<?xf32> -> tensor<?xf32>
  tile.return
}

// -----

tile.kernel @load_i4_tile(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op result #0 must be tile (ranked tensor with static power-of-two dimensions), but got 'tensor<64xi4>'}}
  %0 = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xi4>
  tile.return
}

// -----

tile.kernel @load_from_tensor(%i: index) {
  %t = arith.constant dense<0.0> : tensor<64xf32>
  // expected-error @+1 {{'tile.load' op operand #0 must be}}
  %0 = "tile.load"(%t, %i) : (tensor<64xf32>, index) -> tensor<64xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.store
//===----------------------------------------------------------------------===//

// -----

tile.kernel @store_too_few_indices(%x: !tile.view<?x?x?xf32>, %i: index) {
  %t = arith.constant dense<0.0> : tensor<4x8x16xf32>
  // expected-error @+1 {{'tile.store' op expects 3 tile indices for a view of rank 3, got 2}}
  tile.store %t, %x[%i, %i] : tensor<4x8x16xf32> -> !tile.view<?x?x?xf32>
  tile.return
}

// -----

tile.kernel @store_rank_mismatch(%x: !tile.view<?xf32>, %i: index) {
  %t = arith.constant dense<0.0> : tensor<1x64xf32>
  // expected-error @+1 {{'tile.store' op tile rank 2 must equal the view rank 1 (use size-1 dimensions and tile.reshape to drop them)}}
  tile.store %t, %x[%i] : tensor<1x64xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @store_element_type(%x: !tile.view<?xbf16>, %i: index) {
  %t = arith.constant dense<0.0> : tensor<64xf32>
  // expected-error @+1 {{'tile.store' op tile element type 'f32' does not match the view element type 'bf16' (convert with arith casts)}}
  tile.store %t, %x[%i] : tensor<64xf32> -> !tile.view<?xbf16>
  tile.return
}

// -----

tile.kernel @store_latency_zero(%x: !tile.view<?xf32>, %i: index) {
  %t = arith.constant dense<0.0> : tensor<64xf32>
  // expected-error @+1 {{'tile.store' op latency hint must be in 1..10, got 0}}
  tile.store %t, %x[%i] latency(0) : tensor<64xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @store_latency_large(%x: !tile.view<?xf32>, %i: index) {
  %t = arith.constant dense<0.0> : tensor<64xf32>
  // expected-error @+1 {{'tile.store' op latency hint must be in 1..10, got 100}}
  tile.store %t, %x[%i] latency(100) : tensor<64xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @store_bad_cache(%x: !tile.view<?xf32>, %i: index) {
  %t = arith.constant dense<0.0> : tensor<64xf32>
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'cache' [normal, evict_first, evict_last]}}
  tile.store %t, %x[%i] cache(keep) : tensor<64xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @store_padding(%x: !tile.view<?xf32>, %i: index) {
  %t = arith.constant dense<0.0> : tensor<64xf32>
  // A store has no padding.
  // expected-error @+1 {{expected ':'}}
  tile.store %t, %x[%i] padding(0.0) : tensor<64xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

func.func @store_non_power_of_two(%x: !tile.view<?xf32>, %t: tensor<96xf32>, %i: index) {
  // expected-error @+1 {{'tile.store' op operand #0 must be tile (ranked tensor with static power-of-two dimensions), but got 'tensor<96xf32>'}}
  tile.store %t, %x[%i] : tensor<96xf32> -> !tile.view<?xf32>
  return
}
