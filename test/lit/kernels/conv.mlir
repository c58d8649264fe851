// The butterfly long convolution as the DSL builds it (f16, seqlen 1024,
// FFT size M = 32 x 32 with real-input packing).
// RUN: tessera print conv --dtype f16 | FileCheck %s
// RUN: tessera print conv --dtype f16 | tile-opt -canonicalize -cse | FileCheck %s --check-prefix=CSE
// RUN: tessera print conv-multipass --dtype bf16 | FileCheck %s --check-prefix=MULTI

// CHECK-LABEL: tile.kernel @conv_fused_f16_M1024_32_32_pre_post
// The packed sequence z[n] = u[2n] + i u[2n+1]: two loads of the
// (seqlen / 2, 2) view, one per component, gated by `pre`.
// CHECK:         tile.load %{{.*}} : !tile.view<?x?x?x?xf16> -> tensor<1x1x1024x1xf16>
// CHECK:         tile.load %{{.*}} : !tile.view<?x?x?x?xf16> -> tensor<1x1x1024x1xf16>
// Stage 1 of the forward FFT: a complex 32x32 DFT times (32, 32) data,
// four f16 mma accumulating in f32, then the twiddle from iota.
// CHECK-COUNT-4: tile.mma %{{.*}} : tensor<32x32xf16>, tensor<32x32xf16>, tensor<32x32xf32>
// CHECK:         math.cos
// CHECK:         math.sin
// CHECK-COUNT-4: tile.mma %{{.*}} : tensor<32x32xf16>, tensor<32x32xf16>, tensor<32x32xf32>
// The spectrum product reads P and Q and conj(Z[-k]) through a gather.
// CHECK:         tile.load %{{.*}} : !tile.view<?x?x?xf32> -> tensor<1x1x1024xf32>
// CHECK:         tile.iota : tensor<1024xi32>
// CHECK:         arith.remsi
// CHECK:         tile.gather %{{.*}} axis 0 : tensor<1024xf32>, tensor<1024xi32> -> tensor<1024xf32>
// CHECK:         tile.gather %{{.*}} axis 0 : tensor<1024xf32>, tensor<1024xi32> -> tensor<1024xf32>
// The inverse FFT: two more stages of four mma each.
// CHECK-COUNT-8: tile.mma
// CHECK-NOT:     tile.mma
// CHECK:         tile.store %{{.*}} : tensor<1x1x1024x1xf16> -> !tile.view<?x?x?x?xf16>
// CHECK:         tile.store %{{.*}} : tensor<1x1x1024x1xf16> -> !tile.view<?x?x?x?xf16>

// After CSE one forward and one inverse DFT matrix (re, im, -im) remain.
// CSE-LABEL: tile.kernel @conv_fused
// CSE-COUNT-6: arith.constant dense<"0x
// CSE-NOT:     arith.constant dense<"0x

// The three passes of the long path.
// MULTI-LABEL: tile.kernel @conv_outer_fwd_bf16_M1024_o16_8_8
// MULTI:         tile.load %{{.*}} : !tile.view<?x?x?x?x?xbf16> -> tensor<1x1x16x64x1xbf16>
// MULTI-COUNT-4: tile.mma %{{.*}} : tensor<16x16xbf16>, tensor<16x64xbf16>, tensor<16x64xf32>
// MULTI:         tile.store %{{.*}} : tensor<1x1x1x16x64xf32> -> !tile.view<?x?x?x?x?xf32>
// MULTI-LABEL: tile.kernel @conv_inner_bf16_M1024_o16_8_8
// MULTI:         tile.gather
// MULTI-LABEL: tile.kernel @conv_outer_inv_bf16_M1024_o16_8_8
// MULTI-COUNT-4: tile.mma %{{.*}} : tensor<16x16xbf16>, tensor<16x64xbf16>, tensor<16x64xf32>
// MULTI:         tile.store %{{.*}} : tensor<1x1x16x64x1xbf16> -> !tile.view<?x?x?x?x?xbf16>
