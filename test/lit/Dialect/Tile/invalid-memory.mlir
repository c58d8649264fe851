// Diagnostics of tile.program_id, tile.num_programs, tile.dim, tile.load and
// tile.store, which all must be nested in a tile.kernel.
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

tile.kernel @dim_of_tensor() {
  %t = arith.constant dense<0.0> : tensor<64xf32>
  // expected-error @+1 {{'tile.dim' op operand #0 must be a global tensor view: base pointer plus run-time sizes and strides, but got 'tensor<64xf32>'}}
  %0 = "tile.dim"(%t) <{axis = 0 : i64}> : (tensor<64xf32>) -> index
  tile.return
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

tile.kernel @load_padding_i8_too_large(%x: !tile.view<?xi8>, %i: index) {
  // expected-error @+1 {{'tile.load' op padding 256 is not a value of 'i8'}}
  %0 = tile.load %x[%i] padding(256.0) : !tile.view<?xi8> -> tensor<64xi8>
  tile.return
}

// -----

tile.kernel @load_padding_i8_too_small(%x: !tile.view<?xi8>, %i: index) {
  // expected-error @+1 {{'tile.load' op padding -129 is not a value of 'i8'}}
  %0 = tile.load %x[%i] padding(-129.0) : !tile.view<?xi8> -> tensor<64xi8>
  tile.return
}

// -----

tile.kernel @load_padding_i8_fraction(%x: !tile.view<?xi8>, %i: index) {
  // expected-error @+1 {{'tile.load' op padding 0.5 is not a value of 'i8'}}
  %0 = tile.load %x[%i] padding(0.5) : !tile.view<?xi8> -> tensor<64xi8>
  tile.return
}

// -----

// i1 holds 0 and 1.
tile.kernel @load_padding_i1_negative(%x: !tile.view<?xi1>, %i: index) {
  // expected-error @+1 {{'tile.load' op padding -1 is not a value of 'i1'}}
  %0 = tile.load %x[%i] padding(-1.0) : !tile.view<?xi1> -> tensor<64xi1>
  tile.return
}

// -----

tile.kernel @load_padding_i1_two(%x: !tile.view<?xi1>, %i: index) {
  // expected-error @+1 {{'tile.load' op padding 2 is not a value of 'i1'}}
  %0 = tile.load %x[%i] padding(2.0) : !tile.view<?xi1> -> tensor<64xi1>
  tile.return
}

// -----

tile.kernel @load_padding_i16_too_large(%x: !tile.view<?xi16>, %i: index) {
  // expected-error @+1 {{'tile.load' op padding 32768 is not a value of 'i16'}}
  %0 = tile.load %x[%i] padding(32768.0) : !tile.view<?xi16> -> tensor<64xi16>
  tile.return
}

// -----

// The value is printed with 7 significant digits.
tile.kernel @load_padding_i32_too_small(%x: !tile.view<?xi32>, %i: index) {
  // expected-error @+1 {{'tile.load' op padding -2147483649 is not a value of 'i32'}}
  %0 = tile.load %x[%i] padding(-2147483649.0) : !tile.view<?xi32> -> tensor<64xi32>
  tile.return
}

// -----

tile.kernel @load_padding_i32_nan(%x: !tile.view<?xi32>, %i: index) {
  // expected-error @+1 {{'tile.load' op padding NaN is not a value of 'i32'}}
  %0 = tile.load %x[%i] padding(0x7FF8000000000000) : !tile.view<?xi32> -> tensor<64xi32>
  tile.return
}

// -----

tile.kernel @load_padding_i64_neg_inf(%x: !tile.view<?xi64>, %i: index) {
  // expected-error @+1 {{'tile.load' op padding -Inf is not a value of 'i64'}}
  %0 = tile.load %x[%i] padding(0xFFF0000000000000) : !tile.view<?xi64> -> tensor<64xi64>
  tile.return
}

// -----

// The generic form is checked the same way.
tile.kernel @load_padding_generic(%x: !tile.view<?x?xi32>, %i: index) {
  // expected-error @+1 {{'tile.load' op padding 1.5 is not a value of 'i32'}}
  %0 = "tile.load"(%x, %i, %i) <{padding = 1.5 : f64}> : (!tile.view<?x?xi32>, index, index) -> tensor<8x64xi32>
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
  // expected-error @+1 {{'tile.load' op result #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'tensor<100xf32>'}}
  %0 = tile.load %x[%i] : !tile.view<?xf32> -> tensor<100xf32>
  tile.return
}

// -----

tile.kernel @load_dynamic_tile(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op result #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'tensor<?xf32>'}}
  %0 = tile.load %x[%i] : !tile.view<?xf32> -> tensor<?xf32>
  tile.return
}

// -----

tile.kernel @load_i4_tile(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op result #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'tensor<64xi4>'}}
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

// The store is verified before the kernel body rule would reject the constant.
tile.kernel @store_non_power_of_two(%x: !tile.view<?xf32>, %i: index) {
  %t = arith.constant dense<0.0> : tensor<96xf32>
  // expected-error @+1 {{'tile.store' op operand #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'tensor<96xf32>'}}
  tile.store %t, %x[%i] : tensor<96xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @store_to_tensor(%i: index) {
  %t = arith.constant dense<0.0> : tensor<64xf32>
  // expected-error @+1 {{'tile.store' op operand #1 must be a global tensor view: base pointer plus run-time sizes and strides, but got 'tensor<64xf32>'}}
  "tile.store"(%t, %t, %i) : (tensor<64xf32>, tensor<64xf32>, index) -> ()
  tile.return
}

//===----------------------------------------------------------------------===//
// Outside a tile.kernel
//===----------------------------------------------------------------------===//

// -----

func.func @program_id_outside_kernel() {
  // expected-error @+1 {{'tile.program_id' op must be nested in a tile.kernel}}
  %0 = tile.program_id x : index
  return
}

// -----

func.func @num_programs_outside_kernel() {
  // expected-error @+1 {{'tile.num_programs' op must be nested in a tile.kernel}}
  %0 = tile.num_programs z : index
  return
}

// -----

func.func @dim_outside_kernel(%x: !tile.view<?x?xf32>) {
  // expected-error @+1 {{'tile.dim' op must be nested in a tile.kernel}}
  %0 = tile.dim %x[1] : !tile.view<?x?xf32>
  return
}

// -----

func.func @load_outside_kernel(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op must be nested in a tile.kernel}}
  %0 = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xf32>
  return
}

// -----

func.func @store_outside_kernel(%x: !tile.view<?xf32>, %t: tensor<64xf32>, %i: index) {
  // expected-error @+1 {{'tile.store' op must be nested in a tile.kernel}}
  tile.store %t, %x[%i] : tensor<64xf32> -> !tile.view<?xf32>
  return
}

// -----

// Any enclosing op other than a tile.kernel, however deep, does not count.
func.func @load_in_loop_outside_kernel(%x: !tile.view<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'tile.load' op must be nested in a tile.kernel}}
    %0 = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xf32>
  }
  return
}

// -----

// At the top level of a module.
// expected-error @+1 {{'tile.program_id' op must be nested in a tile.kernel}}
%pid = tile.program_id y : index
