// Diagnostics of the compute ops: tile.mma, tile.reduce, tile.scan,
// tile.broadcast, tile.reshape, tile.permute, tile.iota and tile.splat, and
// the ODS constraints on their operands (tiles are ranked tensors with static
// power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64
// elements). The compute ops may appear outside a tile.kernel (only the grid
// and memory ops must be nested in one), so the cases with operands that are
// not tiles take them as func.func arguments.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Operands that are not tiles
//===----------------------------------------------------------------------===//

func.func @non_power_of_two_operand(%x: tensor<48xf32>) {
  // expected-error @+1 {{'tile.broadcast' op operand #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'tensor<48xf32>'}}
  %0 = tile.broadcast %x : tensor<48xf32> -> tensor<64xf32>
  return
}

// -----

func.func @non_power_of_two_result(%x: tensor<1xf32>) {
  // expected-error @+1 {{'tile.broadcast' op result #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'tensor<48xf32>'}}
  %0 = tile.broadcast %x : tensor<1xf32> -> tensor<48xf32>
  return
}

// -----

func.func @dynamic_operand(%x: tensor<?x64xf32>) {
  // expected-error @+1 {{'tile.reshape' op operand #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'tensor<?x64xf32>'}}
  %0 = tile.reshape %x : tensor<?x64xf32> -> tensor<64xf32>
  return
}

// -----

func.func @rank0_operand(%x: tensor<f32>) {
  // expected-error @+1 {{'tile.reduce' op operand #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'tensor<f32>'}}
  %0 = tile.reduce sum %x axis 0 : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @zero_dim_operand(%x: tensor<0x4xf32>) {
  // expected-error @+1 {{'tile.scan' op operand #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'tensor<0x4xf32>'}}
  %0 = tile.scan sum %x axis 0 : tensor<0x4xf32>
  return
}

// -----

func.func @index_element_operand(%x: tensor<4x4xindex>) {
  // expected-error @+1 {{'tile.permute' op operand #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'tensor<4x4xindex>'}}
  %0 = tile.permute %x [1, 0] : tensor<4x4xindex> -> tensor<4x4xindex>
  return
}

// -----

func.func @encoded_operand(%x: tensor<4x4xf32, "layout">) {
  // expected-error @+1 {{'tile.permute' op operand #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'tensor<4x4xf32, "layout">'}}
  %0 = tile.permute %x [1, 0] : tensor<4x4xf32, "layout"> -> tensor<4x4xf32>
  return
}

// -----

func.func @vector_operand(%x: vector<4xf32>) {
  // expected-error @+1 {{'tile.scan' op operand #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'vector<4xf32>'}}
  %0 = "tile.scan"(%x) <{kind = 0 : i32, axis = 0 : i64}> : (vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @mma_non_power_of_two(%a: tensor<48x32xbf16>, %b: tensor<32x64xbf16>, %c: tensor<48x64xf32>) {
  // expected-error @+1 {{'tile.mma' op operand #0 must be tile (ranked tensor with static power-of-two dimensions) of f16, bf16, tf32, f32 or f64 elements, but got 'tensor<48x32xbf16>'}}
  %0 = tile.mma %a, %b, %c : tensor<48x32xbf16>, tensor<32x64xbf16>, tensor<48x64xf32>
  return
}

// -----

// A float element type that is not a tile element type.
func.func @mma_fp8(%a: tensor<64x32xf8E4M3FN>, %b: tensor<32x64xf8E4M3FN>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op operand #0 must be tile (ranked tensor with static power-of-two dimensions) of f16, bf16, tf32, f32 or f64 elements, but got 'tensor<64x32xf8E4M3FN>'}}
  %0 = tile.mma %a, %b, %c : tensor<64x32xf8E4M3FN>, tensor<32x64xf8E4M3FN>, tensor<64x64xf32>
  return
}

//===----------------------------------------------------------------------===//
// tile.mma
//===----------------------------------------------------------------------===//

// -----

tile.kernel @mma_rank() {
  %a = arith.constant dense<1.0> : tensor<2x64x32xbf16>
  %b = arith.constant dense<1.0> : tensor<32x64xbf16>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op operands must be 2-D tiles}}
  %0 = tile.mma %a, %b, %c : tensor<2x64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @mma_rank_acc() {
  %a = arith.constant dense<1.0> : tensor<64x32xbf16>
  %b = arith.constant dense<1.0> : tensor<32x64xbf16>
  %c = arith.constant dense<0.0> : tensor<4096xf32>
  // expected-error @+1 {{'tile.mma' op operands must be 2-D tiles}}
  %0 = tile.mma %a, %b, %c : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<4096xf32>
  tile.return
}

// -----

tile.kernel @mma_contraction() {
  %a = arith.constant dense<1.0> : tensor<64x32xbf16>
  %b = arith.constant dense<1.0> : tensor<16x64xbf16>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op contraction dimensions differ: a is 64x32, b is 16x64}}
  %0 = tile.mma %a, %b, %c : tensor<64x32xbf16>, tensor<16x64xbf16>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @mma_acc_shape() {
  %a = arith.constant dense<1.0> : tensor<64x32xbf16>
  %b = arith.constant dense<1.0> : tensor<32x128xbf16>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op accumulator must be 64x128, got 64x64}}
  %0 = tile.mma %a, %b, %c : tensor<64x32xbf16>, tensor<32x128xbf16>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @mma_acc_transposed() {
  %a = arith.constant dense<1.0> : tensor<16x32xf16>
  %b = arith.constant dense<1.0> : tensor<32x64xf16>
  %c = arith.constant dense<0.0> : tensor<64x16xf32>
  // expected-error @+1 {{'tile.mma' op accumulator must be 16x64, got 64x16}}
  %0 = tile.mma %a, %b, %c : tensor<16x32xf16>, tensor<32x64xf16>, tensor<64x16xf32>
  tile.return
}

// -----

tile.kernel @mma_mixed_inputs() {
  %a = arith.constant dense<1.0> : tensor<64x32xbf16>
  %b = arith.constant dense<1.0> : tensor<32x64xf16>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op a and b must have the same element type, got 'bf16' and 'f16'}}
  %0 = tile.mma %a, %b, %c : tensor<64x32xbf16>, tensor<32x64xf16>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @mma_f64() {
  %a = arith.constant dense<1.0> : tensor<64x32xf64>
  %b = arith.constant dense<1.0> : tensor<32x64xf64>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op input element type must be bf16, f16, tf32 or f32, got 'f64'}}
  %0 = tile.mma %a, %b, %c : tensor<64x32xf64>, tensor<32x64xf64>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @mma_acc_f16() {
  %a = arith.constant dense<1.0> : tensor<64x32xf16>
  %b = arith.constant dense<1.0> : tensor<32x64xf16>
  %c = arith.constant dense<0.0> : tensor<64x64xf16>
  // expected-error @+1 {{'tile.mma' op accumulator element type must be f32, got 'f16'}}
  %0 = tile.mma %a, %b, %c : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf16>
  tile.return
}

// -----

tile.kernel @mma_acc_f64() {
  %a = arith.constant dense<1.0> : tensor<64x32xf32>
  %b = arith.constant dense<1.0> : tensor<32x64xf32>
  %c = arith.constant dense<0.0> : tensor<64x64xf64>
  // expected-error @+1 {{'tile.mma' op accumulator element type must be f32, got 'f64'}}
  %0 = tile.mma %a, %b, %c : tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf64>
  tile.return
}

// -----

tile.kernel @mma_precision_bf16() {
  %a = arith.constant dense<1.0> : tensor<64x32xbf16>
  %b = arith.constant dense<1.0> : tensor<32x64xbf16>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op precision applies only to f32 inputs}}
  %0 = tile.mma %a, %b, %c precision(tf32) : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @mma_precision_tf32() {
  %a = arith.constant dense<1.0> : tensor<64x32xtf32>
  %b = arith.constant dense<1.0> : tensor<32x64xtf32>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op precision applies only to f32 inputs}}
  %0 = tile.mma %a, %b, %c precision(ieee) : tensor<64x32xtf32>, tensor<32x64xtf32>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @mma_bad_precision() {
  %a = arith.constant dense<1.0> : tensor<64x32xf32>
  %b = arith.constant dense<1.0> : tensor<32x64xf32>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'precision' [tf32, tf32x3, ieee]}}
  %0 = tile.mma %a, %b, %c precision(fp16) : tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @mma_integer() {
  %a = arith.constant dense<1> : tensor<64x32xi8>
  %b = arith.constant dense<1.0> : tensor<32x64xbf16>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op operand #0 must be tile (ranked tensor with static power-of-two dimensions) of f16, bf16, tf32, f32 or f64 elements, but got 'tensor<64x32xi8>'}}
  %0 = tile.mma %a, %b, %c : tensor<64x32xi8>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @mma_result_type() {
  %a = arith.constant dense<1.0> : tensor<64x32xbf16>
  %b = arith.constant dense<1.0> : tensor<32x64xbf16>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op failed to verify that all of {acc, result} have same type}}
  %0 = "tile.mma"(%a, %b, %c) : (tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>) -> tensor<64x64xbf16>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.reduce
//===----------------------------------------------------------------------===//

// -----

tile.kernel @reduce_axis_too_large() {
  %x = arith.constant dense<1.0> : tensor<32x64xf32>
  // expected-error @+1 {{'tile.reduce' op axis 2 is out of range for a tile of rank 2}}
  %0 = tile.reduce sum %x axis 2 : tensor<32x64xf32> -> tensor<32x64xf32>
  tile.return
}

// -----

tile.kernel @reduce_axis_negative() {
  %x = arith.constant dense<1.0> : tensor<32x64xf32>
  // expected-error @+1 {{'tile.reduce' op axis -1 is out of range for a tile of rank 2}}
  %0 = tile.reduce max %x axis -1 : tensor<32x64xf32> -> tensor<32x1xf32>
  tile.return
}

// -----

tile.kernel @reduce_element_type() {
  %x = arith.constant dense<1.0> : tensor<32x64xbf16>
  // expected-error @+1 {{'tile.reduce' op result element type must match the source}}
  %0 = tile.reduce sum %x axis 1 : tensor<32x64xbf16> -> tensor<32x1xf32>
  tile.return
}

// -----

tile.kernel @reduce_dropped_axis() {
  %x = arith.constant dense<1.0> : tensor<32x64xf32>
  // expected-error @+1 {{'tile.reduce' op result shape must be the source shape with axis 1 of size 1, expected 'tensor<32x1xf32>'}}
  %0 = tile.reduce sum %x axis 1 : tensor<32x64xf32> -> tensor<32xf32>
  tile.return
}

// -----

tile.kernel @reduce_wrong_axis() {
  %x = arith.constant dense<1.0> : tensor<32x64xf32>
  // expected-error @+1 {{'tile.reduce' op result shape must be the source shape with axis 0 of size 1, expected 'tensor<1x64xf32>'}}
  %0 = tile.reduce min %x axis 0 : tensor<32x64xf32> -> tensor<32x1xf32>
  tile.return
}

// -----

tile.kernel @reduce_bad_kind() {
  %x = arith.constant dense<1.0> : tensor<32x64xf32>
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, prod, max, min]}}
  %0 = tile.reduce mean %x axis 0 : tensor<32x64xf32> -> tensor<1x64xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.scan
//===----------------------------------------------------------------------===//

// -----

tile.kernel @scan_axis_too_large() {
  %x = arith.constant dense<1.0> : tensor<64xf32>
  // expected-error @+1 {{'tile.scan' op axis 1 is out of range for a tile of rank 1}}
  %0 = tile.scan sum %x axis 1 : tensor<64xf32>
  tile.return
}

// -----

tile.kernel @scan_axis_negative() {
  %x = arith.constant dense<1.0> : tensor<8x64xf32>
  // expected-error @+1 {{'tile.scan' op axis -2 is out of range for a tile of rank 2}}
  %0 = tile.scan prod %x axis -2 reverse : tensor<8x64xf32>
  tile.return
}

// -----

tile.kernel @scan_result_type() {
  %x = arith.constant dense<1.0> : tensor<64xf32>
  // expected-error @+1 {{'tile.scan' op requires the same type for all operands and results}}
  %0 = "tile.scan"(%x) <{kind = 0 : i32, axis = 0 : i64}> : (tensor<64xf32>) -> tensor<64xbf16>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.broadcast
//===----------------------------------------------------------------------===//

// -----

tile.kernel @broadcast_rank() {
  %x = arith.constant dense<1.0> : tensor<64xf32>
  // expected-error @+1 {{'tile.broadcast' op source rank 1 must equal result rank 2 (reshape first to add size-1 dimensions)}}
  %0 = tile.broadcast %x : tensor<64xf32> -> tensor<32x64xf32>
  tile.return
}

// -----

tile.kernel @broadcast_dimension() {
  %x = arith.constant dense<1.0> : tensor<32x2xf32>
  // expected-error @+1 {{'tile.broadcast' op dimension 1 of size 2 can only broadcast if it is 1 or equal to 64}}
  %0 = tile.broadcast %x : tensor<32x2xf32> -> tensor<32x64xf32>
  tile.return
}

// -----

tile.kernel @broadcast_shrink() {
  %x = arith.constant dense<1.0> : tensor<32x64xf32>
  // expected-error @+1 {{'tile.broadcast' op dimension 0 of size 32 can only broadcast if it is 1 or equal to 1}}
  %0 = tile.broadcast %x : tensor<32x64xf32> -> tensor<1x64xf32>
  tile.return
}

// -----

tile.kernel @broadcast_element_type() {
  %x = arith.constant dense<1.0> : tensor<32x1xf32>
  // expected-error @+1 {{'tile.broadcast' op requires the same element type for all operands and results}}
  %0 = tile.broadcast %x : tensor<32x1xf32> -> tensor<32x64xbf16>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.reshape
//===----------------------------------------------------------------------===//

// -----

tile.kernel @reshape_count() {
  %x = arith.constant dense<1.0> : tensor<64x32xf32>
  // expected-error @+1 {{'tile.reshape' op cannot reshape 2048 elements into 1024}}
  %0 = tile.reshape %x : tensor<64x32xf32> -> tensor<32x32xf32>
  tile.return
}

// -----

tile.kernel @reshape_element_type() {
  %x = arith.constant dense<1> : tensor<64xi32>
  // expected-error @+1 {{'tile.reshape' op requires the same element type for all operands and results}}
  %0 = tile.reshape %x : tensor<64xi32> -> tensor<8x8xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.permute
//===----------------------------------------------------------------------===//

// -----

tile.kernel @permute_length() {
  %x = arith.constant dense<1.0> : tensor<64x32xf32>
  // expected-error @+1 {{'tile.permute' op permutation has 3 entries for a tile of rank 2}}
  %0 = tile.permute %x [1, 0, 2] : tensor<64x32xf32> -> tensor<32x64xf32>
  tile.return
}

// -----

tile.kernel @permute_duplicate() {
  %x = arith.constant dense<1.0> : tensor<64x32xf32>
  // expected-error @+1 {{'tile.permute' op permutation must be a permutation of 0..1}}
  %0 = tile.permute %x [0, 0] : tensor<64x32xf32> -> tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @permute_out_of_range() {
  %x = arith.constant dense<1.0> : tensor<2x4x8xf32>
  // expected-error @+1 {{'tile.permute' op permutation must be a permutation of 0..2}}
  %0 = tile.permute %x [0, 3, 1] : tensor<2x4x8xf32> -> tensor<2x8x4xf32>
  tile.return
}

// -----

tile.kernel @permute_negative() {
  %x = arith.constant dense<1.0> : tensor<64x32xf32>
  // expected-error @+1 {{'tile.permute' op permutation must be a permutation of 0..1}}
  %0 = tile.permute %x [-1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  tile.return
}

// -----

tile.kernel @permute_result_rank() {
  %x = arith.constant dense<1.0> : tensor<64x32xf32>
  // expected-error @+1 {{'tile.permute' op result rank must equal source rank}}
  %0 = tile.permute %x [1, 0] : tensor<64x32xf32> -> tensor<32x64x1xf32>
  tile.return
}

// -----

tile.kernel @permute_result_shape() {
  %x = arith.constant dense<1.0> : tensor<64x32xf32>
  // expected-error @+1 {{'tile.permute' op result dimension 0 must be source dimension 1 of size 32, got 64}}
  %0 = tile.permute %x [1, 0] : tensor<64x32xf32> -> tensor<64x32xf32>
  tile.return
}

// -----

tile.kernel @permute_result_shape_3d() {
  %x = arith.constant dense<1.0> : tensor<2x4x8xf32>
  // expected-error @+1 {{'tile.permute' op result dimension 2 must be source dimension 1 of size 4, got 2}}
  %0 = tile.permute %x [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x2xf32>
  tile.return
}

// -----

tile.kernel @permute_element_type() {
  %x = arith.constant dense<1.0> : tensor<64x32xf32>
  // expected-error @+1 {{'tile.permute' op requires the same element type for all operands and results}}
  %0 = tile.permute %x [1, 0] : tensor<64x32xf32> -> tensor<32x64xf16>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.iota
//===----------------------------------------------------------------------===//

// -----

tile.kernel @iota_rank() {
  // expected-error @+1 {{'tile.iota' op dim 2 is not a dimension of a rank-2 tile}}
  %0 = tile.iota dim 2 : tensor<8x8xi32>
  tile.return
}

// -----

tile.kernel @iota_i8_overflow() {
  // expected-error @+1 {{'tile.iota' op values 0..255 do not fit in 'i8'}}
  %0 = tile.iota : tensor<256xi8>
  tile.return
}

// -----

tile.kernel @iota_i1_overflow() {
  // expected-error @+1 {{'tile.iota' op values 0..1 do not fit in 'i1'}}
  %0 = tile.iota : tensor<2xi1>
  tile.return
}

// -----

tile.kernel @iota_i16_overflow() {
  // expected-error @+1 {{'tile.iota' op values 0..65535 do not fit in 'i16'}}
  %0 = tile.iota : tensor<65536xi16>
  tile.return
}

// -----

tile.kernel @iota_float() {
  // expected-error @+1 {{'tile.iota' op result #0 must be tile (ranked tensor with static power-of-two dimensions) of i1/i8/i16/i32/i64 elements, but got 'tensor<64xf32>'}}
  %0 = tile.iota : tensor<64xf32>
  tile.return
}

// -----

tile.kernel @iota_non_power_of_two() {
  // expected-error @+1 {{'tile.iota' op result #0 must be tile (ranked tensor with static power-of-two dimensions) of i1/i8/i16/i32/i64 elements, but got 'tensor<100xi32>'}}
  %0 = tile.iota : tensor<100xi32>
  tile.return
}

// -----

// An integer element type that is not a tile element type.
tile.kernel @iota_i4() {
  // expected-error @+1 {{'tile.iota' op result #0 must be tile (ranked tensor with static power-of-two dimensions) of i1/i8/i16/i32/i64 elements, but got 'tensor<8xi4>'}}
  %0 = tile.iota : tensor<8xi4>
  tile.return
}

// -----

tile.kernel @iota_index() {
  // expected-error @+1 {{'tile.iota' op result #0 must be tile (ranked tensor with static power-of-two dimensions) of i1/i8/i16/i32/i64 elements, but got 'tensor<8xindex>'}}
  %0 = tile.iota : tensor<8xindex>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.splat
//===----------------------------------------------------------------------===//

// -----

tile.kernel @splat_type_mismatch(%s: f32) {
  // expected-error @+1 {{'tile.splat' op failed to verify that the scalar is the element type of the tile}}
  %0 = tile.splat %s : f32 -> tensor<64xbf16>
  tile.return
}

// -----

tile.kernel @splat_int_width(%n: i32) {
  // expected-error @+1 {{'tile.splat' op failed to verify that the scalar is the element type of the tile}}
  %0 = tile.splat %n : i32 -> tensor<64xi64>
  tile.return
}

// -----

tile.kernel @splat_index(%n: index) {
  // expected-error @+1 {{'tile.splat' op operand #0 must be signless integer or floating-point, but got 'index'}}
  %0 = tile.splat %n : index -> tensor<64xindex>
  tile.return
}

// -----

tile.kernel @splat_non_power_of_two(%s: f32) {
  // expected-error @+1 {{'tile.splat' op result #0 must be tile (ranked tensor with static power-of-two dimensions of f16, bf16, tf32, f32, f64 or i1/i8/i16/i32/i64 elements), but got 'tensor<10xf32>'}}
  %0 = tile.splat %s : f32 -> tensor<10xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.gather
//===----------------------------------------------------------------------===//

// -----

func.func @gather_axis(%s: tensor<8x16xf32>, %i: tensor<8x16xi32>) {
  // expected-error @+1 {{'tile.gather' op axis 2 is out of range for a tile of rank 2}}
  %0 = tile.gather %s[%i] axes [2] : tensor<8x16xf32> [tensor<8x16xi32>] -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_rank(%s: tensor<8x16xf32>, %i: tensor<16xi32>) {
  // expected-error @+1 {{'tile.gather' op indices must have the rank of the source (2), got 1}}
  %0 = tile.gather %s[%i] axes [1] : tensor<8x16xf32> [tensor<16xi32>] -> tensor<16xf32>
  return
}

// -----

func.func @gather_other_dim(%s: tensor<8x16xf32>, %i: tensor<4x16xi32>) {
  // expected-error @+1 {{'tile.gather' op indices dimension 0 is 4 but the source's is 8; only the gathered axes may differ}}
  %0 = tile.gather %s[%i] axes [1] : tensor<8x16xf32> [tensor<4x16xi32>] -> tensor<4x16xf32>
  return
}

// -----

func.func @gather_result_shape(%s: tensor<8x16xf32>, %i: tensor<8x4xi32>) {
  // expected-error @+1 {{'tile.gather' op result shape must be the indices shape}}
  %0 = tile.gather %s[%i] axes [1] : tensor<8x16xf32> [tensor<8x4xi32>] -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_result_type(%s: tensor<8x16xf32>, %i: tensor<8x4xi32>) {
  // expected-error @+1 {{'tile.gather' op result element type must match the source}}
  %0 = tile.gather %s[%i] axes [1] : tensor<8x16xf32> [tensor<8x4xi32>] -> tensor<8x4xf16>
  return
}

// -----

func.func @gather_axis_twice(%s: tensor<8x16xf32>, %i: tensor<8x16xi32>) {
  // expected-error @+1 {{'tile.gather' op axis 1 is gathered twice}}
  %0 = tile.gather %s[%i, %i] axes [1, 1] : tensor<8x16xf32> [tensor<8x16xi32>, tensor<8x16xi32>] -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_axes_count(%s: tensor<8x16xf32>, %i: tensor<8x16xi32>) {
  // expected-error @+1 {{'tile.gather' op has 2 index tiles but 1 axes}}
  %0 = tile.gather %s[%i, %i] axes [0] : tensor<8x16xf32> [tensor<8x16xi32>, tensor<8x16xi32>] -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_no_indices(%s: tensor<8x16xf32>) {
  // expected-error @+1 {{'tile.gather' op needs at least one index tile}}
  %0 = "tile.gather"(%s) <{axes = array<i64>, operandSegmentSizes = array<i32: 1, 0>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_index_shapes(%s: tensor<8x16xf32>, %i: tensor<8x16xi32>, %j: tensor<8x8xi32>) {
  // expected-error @+1 {{'tile.gather' op index tiles must share one shape}}
  %0 = tile.gather %s[%i, %j] axes [0, 1] : tensor<8x16xf32> [tensor<8x16xi32>, tensor<8x8xi32>] -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_sources_differ(%s: tensor<8x16xf32>, %t: tensor<8x16xf16>, %i: tensor<8x16xi32>) {
  // expected-error @+1 {{'tile.gather' op sources must share one type, got 'tensor<8x16xf32>' and 'tensor<8x16xf16>'}}
  %0:2 = tile.gather %s, %t[%i] axes [0] : tensor<8x16xf32>, tensor<8x16xf16> [tensor<8x16xi32>] -> tensor<8x16xf32>, tensor<8x16xf16>
  return
}

// -----

func.func @gather_results_differ(%s: tensor<8x16xf32>, %i: tensor<8x16xi32>) {
  // expected-error @+1 {{'tile.gather' op results must share one type, got 'tensor<8x16xf32>' and 'tensor<8x8xf32>'}}
  %0:2 = tile.gather %s, %s[%i] axes [0] : tensor<8x16xf32>, tensor<8x16xf32> [tensor<8x16xi32>] -> tensor<8x16xf32>, tensor<8x8xf32>
  return
}

// -----

func.func @gather_result_count(%s: tensor<8x16xf32>, %i: tensor<8x16xi32>) {
  // expected-error @+1 {{'tile.gather' op has 2 sources but 1 results}}
  %0 = tile.gather %s, %s[%i] axes [0] : tensor<8x16xf32>, tensor<8x16xf32> [tensor<8x16xi32>] -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_no_source(%i: tensor<8x16xi32>) {
  // expected-error @+1 {{'tile.gather' op needs at least one source}}
  %0 = "tile.gather"(%i) <{axes = array<i64: 0>, operandSegmentSizes = array<i32: 0, 1>}> : (tensor<8x16xi32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_float_indices(%s: tensor<8x16xf32>, %i: tensor<8x4xf32>) {
  // expected-error @+1 {{'tile.gather' op operand #1 must be variadic of tile (ranked tensor with static power-of-two dimensions) of i1/i8/i16/i32/i64 elements}}
  %0 = tile.gather %s[%i] axes [1] : tensor<8x16xf32> [tensor<8x4xf32>] -> tensor<8x4xf32>
  return
}
