// The butterfly long convolution as the DSL builds it (f16, seqlen 1024,
// FFT size M = 64 x 16 with real-input packing, the row-column plan).
// RUN: tessera print conv --dtype f16 | FileCheck %s
// RUN: tessera print conv --dtype f16 | tile-opt -canonicalize -cse | FileCheck %s --check-prefix=CSE
// RUN: tessera print conv-multipass --dtype bf16 | FileCheck %s --check-prefix=MULTI
// RUN: tessera print conv --dtype bf16 | FileCheck %s --check-prefix=NOGATHER
// RUN: tessera print conv --dtype bf16 --seqlen 4096 --gates none | FileCheck %s --check-prefix=FUSED4K
// RUN: tessera print conv --dtype bf16 --seqlen 8192 --gates none | FileCheck %s --check-prefix=F16FWD
// RUN: tessera print conv --dtype f16 --seqlen 8192 --gates none | FileCheck %s --check-prefix=F16PLAIN
// RUN: tessera print conv --dtype bf16 --seqlen 8192 --gates pre,post | FileCheck %s --check-prefix=BOUNDPRE

// CHECK-LABEL: tile.kernel @conv_fused_f16_M1024_64_16_rc_pre_post
// Each program takes up to 16 batch rows of its channel in turn.
// CHECK:         scf.for
// The packed sequence z[n] = u[2n] + i u[2n+1], its first M / 2 samples
// (the rest is padding): two loads of the (seqlen / 2, 2) view, one per
// component, gated by `pre`.
// CHECK:         tile.load %{{.*}} : !tile.view<?x?x?x?xf16> -> tensor<1x1x512x1xf16>
// CHECK:         tile.load %{{.*}} : !tile.view<?x?x?x?xf16> -> tensor<1x1x512x1xf16>
// The twiddles w_M^(+-k1 n2) from iota.
// CHECK:         math.cos
// CHECK:         math.sin
// Left product: the first 32 columns of the 64-point DFT times the top
// half of the 64 x 16 matrix, four f16 mma (Fr Xr, Fi Xi, Fr Xi, Fi Xr)
// that give both F X and F conj(X); then the right products with the
// 16-point DFT of both, z's transform and conj(z)'s.
// CHECK-COUNT-4: tile.mma %{{.*}} : tensor<64x32xf16>, tensor<32x16xf16>, tensor<64x16xf32>
// CHECK-COUNT-8: tile.mma %{{.*}} : tensor<64x16xf16>, tensor<16x16xf16>, tensor<64x16xf32>
// The spectrum product in [k1][k2] order: P and Q as 64 x 16 tiles of the
// (channels * 4 * 64, 16) view; conj(Z[-k]) is FFT(conj z)[k], in Z's
// order already, so nothing is gathered.
// CHECK:         tile.load %{{.*}} : !tile.view<?x?xf32> -> tensor<64x16xf32>
// CHECK-NOT:     tile.gather
// The inverse: right product, twiddle, left product giving the top half.
// CHECK-COUNT-4: tile.mma %{{.*}} : tensor<64x16xf16>, tensor<16x16xf16>, tensor<64x16xf32>
// CHECK-COUNT-4: tile.mma %{{.*}} : tensor<32x64xf16>, tensor<64x16xf16>, tensor<32x16xf32>
// CHECK-NOT:     tile.mma
// CHECK:         tile.store %{{.*}} : tensor<1x1x512x1xf16> -> !tile.view<?x?x?x?xf16>
// CHECK:         tile.store %{{.*}} : tensor<1x1x512x1xf16> -> !tile.view<?x?x?x?xf16>

// Nowhere in the fused 1K kernel is anything gathered.
// NOGATHER-LABEL: tile.kernel @conv_fused_bf16_M1024
// NOGATHER-NOT:   tile.gather

// 4K as 128 x 32 (session 23): the left product contracts over the 64
// nonzero rows of X, the right ones over 32, for z and conj(z) alike, and
// nothing is gathered; the inverse's left product gives the top 64 rows.
// In bf16 the forward's right products take f16 operands, each row of the
// left product's result scaled by 2^14 over its row maximum (session 35).
// FUSED4K-LABEL:  tile.kernel @conv_fused_bf16_M4096_128_32_rc(
// FUSED4K:        scf.for
// FUSED4K-COUNT-4: tile.mma %{{.*}} : tensor<128x64xbf16>, tensor<64x32xbf16>, tensor<128x32xf32>
// FUSED4K:        %[[MAX:.*]] = tile.reduce max %{{.*}} axis 1 : tensor<128x32xf32> -> tensor<128x1xf32>
// FUSED4K:        %[[BOUND:.*]] = arith.maximumf %[[MAX]], %{{.*}} : tensor<128x1xf32>
// FUSED4K:        arith.divf %{{.*}}, %[[BOUND]] : tensor<128x1xf32>
// FUSED4K-COUNT-8: tile.mma %{{.*}} : tensor<128x32xf16>, tensor<32x32xf16>, tensor<128x32xf32>
// FUSED4K-NOT:    tile.gather
// FUSED4K-COUNT-4: tile.mma %{{.*}} : tensor<128x32xbf16>, tensor<32x32xbf16>, tensor<128x32xf32>
// FUSED4K-COUNT-4: tile.mma %{{.*}} : tensor<64x128xbf16>, tensor<128x32xbf16>, tensor<64x32xf32>
// FUSED4K-NOT:    tile.gather
// FUSED4K-NOT:    tile.mma

// After CSE the four DFT matrices (forward 64 x 32 and 16 x 16, inverse
// 16 x 16 and 32 x 64), each as re, im and -im, remain, but for the -im of
// the forward 64 x 32, which the four separate products do not use.
// CSE-LABEL: tile.kernel @conv_fused
// CSE-COUNT-11: arith.constant dense<"0x
// CSE-NOT:     arith.constant dense<"0x

// The three passes of the long path.
// The outer passes read (or write) the outer / 2 nonzero rows of (re, im)
// pairs as one tile of whole rows, and their complex DFT is two real
// products over the pairs stacked [re; im].
// MULTI-LABEL: tile.kernel @conv_outer_fwd_bf16_M1024_o16_r16_c64_abi4_8_8
// MULTI-NOT:     scf.for
// MULTI:         tile.load %{{.*}} : !tile.view<?x?x?x?xbf16> -> tensor<1x1x8x128xbf16>
// MULTI:         tile.permute %{{.*}} [2, 0, 1] : tensor<8x64x2xbf16> -> tensor<2x8x64xbf16>
// MULTI-COUNT-2: tile.mma %{{.*}} : tensor<16x16xbf16>, tensor<16x64xbf16>, tensor<16x64xf32>
// MULTI-NOT:     tile.mma
// The work buffer between the passes is in the element type.
// MULTI:         tile.store %{{.*}} : tensor<1x1x1x16x64xbf16> -> !tile.view<?x?x?x?x?xbf16>
// MULTI-LABEL: tile.kernel @conv_inner_bf16_M1024_o16_r16_c64_abi4_8_8
// Spectrum rows are contiguous: each row is one 1 x 1 x 1 x inner tile.
// MULTI:         scf.for
// MULTI:         tile.load %{{.*}} : !tile.view<?x?x?x?x?xbf16> -> tensor<1x1x1x1x64xbf16>
// MULTI:         tile.load %{{.*}} : !tile.view<?x?x?x?xf32> -> tensor<1x1x1x64xf32>
// The partner's negated frequencies: program 0's rows (0 and outer / 2)
// are their own partners, the others each other's (a uniform branch).
// MULTI:         scf.if
// MULTI:           tile.gather
// MULTI:         } else {
// MULTI:           tile.gather
// MULTI-LABEL: tile.kernel @conv_outer_inv_bf16_M1024_o16_r16_c64_abi4_8_8
// MULTI-NOT:     scf.for
// MULTI-COUNT-2: tile.mma %{{.*}} : tensor<16x16xbf16>, tensor<16x64xbf16>, tensor<16x64xf32>
// MULTI-NOT:     tile.mma
// Rows 2g b + g j + i hold part j of output g b + i (g = 8): (re, im)
// pairs without moving data between threads.
// MULTI:         tile.permute %{{.*}} [0, 2, 3, 1] : tensor<1x2x8x64xf32> -> tensor<1x8x64x2xf32>
// MULTI:         tile.store %{{.*}} : tensor<1x1x8x128xbf16> -> !tile.view<?x?x?x?xbf16>

// bf16 three passes keep their forward side in f16 under one scale per
// sequence: the outer forward multiplies by it and stores f16, the inner
// pass reads f16 rows straight into its f16 products, the outer inverse
// divides back, and conv_bound computes 2^8 / max |u| first.
// F16FWD:       tile.kernel @conv_outer_fwd_bf16_M8192_{{.*}}(%{{.*}}: !tile.view<?x?x?x?xbf16>, %{{.*}}: !tile.view<?x?x?x?x?xf16>, %[[S:.*]]: !tile.view<?x?x?xf32>)
// F16FWD:         %[[SL:.*]] = tile.load %[[S]]
// F16FWD:         %[[SV:.*]] = tile.reshape %[[SL]] : tensor<1x1x1xf32> -> tensor<1x1xf32>
// F16FWD:         %[[SB:.*]] = tile.broadcast %[[SV]] : tensor<1x1xf32> -> tensor<16x256xf32>
// F16FWD:         %[[SX:.*]] = arith.mulf %{{.*}}, %[[SB]] : tensor<16x256xf32>
// F16FWD:         arith.truncf %[[SX]] : tensor<16x256xf32> to tensor<16x256xf16>
// F16FWD:         tile.store %{{.*}} : tensor<1x1x2x8x256xf16> -> !tile.view<?x?x?x?x?xf16>
// F16FWD-LABEL: tile.kernel @conv_inner_bf16_M8192_{{.*}}(%{{.*}}: !tile.view<?x?x?x?x?x?xf16>, %{{.*}}: !tile.view<?x?x?x?x?xf32>, %{{.*}}: !tile.view<?x?x?x?x?x?xbf16>)
// F16FWD:         tile.load %{{.*}} : !tile.view<?x?x?x?x?x?xf16> -> tensor<1x1x1x1x64x16xf16>
// F16FWD:         tile.mma %{{.*}} : tensor<64x64xf16>, tensor<64x16xf16>, tensor<64x16xf32>
// The inverse stages stay bf16.
// F16FWD:         tile.mma %{{.*}} : tensor<64x64xbf16>, tensor<64x16xbf16>, tensor<64x16xf32>
// F16FWD:       tile.kernel @conv_outer_inv_bf16_M8192_{{.*}}(%{{.*}}: !tile.view<?x?x?x?x?xbf16>, %{{.*}}: !tile.view<?x?x?x?xbf16>, %[[T:.*]]: !tile.view<?x?x?xf32>)
// F16FWD:         tile.load %[[T]]
// F16FWD:         arith.divf
// F16FWD-LABEL: tile.kernel @conv_bound_bf16_M8192_{{.*}}(%{{.*}}: !tile.view<?x?x?xbf16>, %{{.*}}: !tile.view<?x?x?xf32>)
// F16FWD:         scf.for
// F16FWD:           math.absf
// F16FWD:           tile.reduce max
// F16FWD:         arith.constant dense<1.000000e-30>
// F16FWD:         arith.divf
// F16FWD:         tile.store %{{.*}} : tensor<1x1x1xf32> -> !tile.view<?x?x?xf32>
// f16 needs none of it: three kernels, no scales.
// F16PLAIN: tile.kernel @conv_outer_fwd_f16_M8192_{{[^(]*}}(%{{.*}}: !tile.view<?x?x?x?xf16>, %{{.*}}: !tile.view<?x?x?x?x?xf16>) attributes
// F16PLAIN: tile.kernel @conv_outer_inv_f16_M8192_{{[^(]*}}(%{{.*}}: !tile.view<?x?x?x?x?xf16>, %{{.*}}: !tile.view<?x?x?x?xf16>) {
// F16PLAIN-NOT: conv_bound
// With the pre gate the bound is that of z = u pre as the outer forward
// forms it (in f32), not a product of two maxima (which can overflow).
// BOUNDPRE-LABEL: tile.kernel @conv_bound_bf16_M8192_{{.*}}_pre_post(%{{.*}}: !tile.view<?x?x?xbf16>, %{{.*}}: !tile.view<?x?x?xbf16>, %{{.*}}: !tile.view<?x?x?xf32>)
// BOUNDPRE:         scf.for
// BOUNDPRE-COUNT-2:   tile.load
// BOUNDPRE:           %[[Z:.*]] = arith.mulf %{{.*}} : tensor<1024xf32>
// BOUNDPRE:           math.absf %[[Z]]
// BOUNDPRE:           tile.reduce max
// BOUNDPRE:         }
// BOUNDPRE-NOT:     arith.mulf
// BOUNDPRE:         arith.divf
