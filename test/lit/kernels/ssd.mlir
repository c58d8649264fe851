// The Mamba-2 SSD forward as the DSL builds it: three kernels (every option
// on, bf16, chunk 64, headdim 64, dstate 128), and a round trip through
// tile-opt.
// RUN: tessera print ssd --dtype bf16 | FileCheck %s
// RUN: tessera print ssd --dtype bf16 | tile-opt -canonicalize -cse | FileCheck %s --check-prefix=CANON

// Launch 1: dt', the cumulative decay, and each chunk's state.
// CHECK-LABEL: tile.kernel @ssd_chunk_state_bf16_q64_p64_n128_bias_softplus_seq_D_z_h0_hT
// CHECK:         %[[DT:.*]] = tile.load %{{.*}} : !tile.view<?x?x?xf32> -> tensor<1x64x1xf32>
// softplus: log1p(exp(v)), kept as v above 20.
// CHECK:         math.log1p
// CHECK:         %[[DA:.*]] = arith.mulf
// CHECK:         %[[CS:.*]] = tile.scan sum %[[DA]] axis 0 : tensor<64x1xf32>
// CHECK:         tile.reduce sum %[[DA]] axis 0 : tensor<64x1xf32> -> tensor<1x1xf32>
// seq_idx: only the chunk's last sequence reaches its end state.
// CHECK:         tile.load %{{.*}} padding(-1.000000e+00) : !tile.view<?x?xi32> -> tensor<1x64xi32>
// CHECK:         %[[XT:.*]] = tile.permute %{{.*}} [1, 0] : tensor<64x64xbf16> -> tensor<64x64xbf16>
// CHECK:         tile.mma %[[XT]], %{{.*}} : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
// CHECK:         tile.store %{{.*}} : tensor<1x1x1x64x128xf32> -> !tile.view<?x?x?x?x?xf32>
// CHECK-NOT:     tile.mma
// CHECK:         tile.return

// Launch 2: the sequential pass over chunks, carrying the f32 state.
// CHECK-LABEL: tile.kernel @ssd_state_passing_
// CHECK:         scf.for %{{.*}} iter_args(%[[H:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}}) -> (tensor<64x128xf32>, tensor<1x1xi32>)
// CHECK:           tile.store %{{.*}} : tensor<1x1x1x64x128xf32> -> !tile.view<?x?x?x?x?xf32>
// CHECK:           %[[TOT:.*]] = tile.load %{{.*}} : !tile.view<?x?x?x?xf32> -> tensor<1x1x1x1xf32>
// CHECK:           math.exp
// CHECK:           arith.cmpi eq, %{{.*}}, %[[S]] : tensor<1x1xi32>
// CHECK:           %[[NEXT:.*]] = arith.addf
// CHECK:           scf.yield %[[NEXT]], %{{.*}} : tensor<64x128xf32>, tensor<1x1xi32>
// CHECK:         tile.store %{{.*}} : tensor<1x1x64x128xf32> -> !tile.view<?x?x?x?xf32>

// Launch 3: the chunk output, with the causal decay mask from iota.
// CHECK-LABEL: tile.kernel @ssd_chunk_scan_
// CHECK:         tile.iota : tensor<64xi32>
// CHECK:         arith.cmpi sle
// CHECK:         tile.mma %{{.*}} : tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xf32>
// CHECK:         tile.mma %{{.*}} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
// CHECK:         tile.mma %{{.*}} : tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xf32>
// CHECK-NOT:     tile.mma
// CHECK:         tile.store %{{.*}} : tensor<1x64x1x64xbf16> -> !tile.view<?x?x?x?xbf16>

// CANON-COUNT-3: tile.kernel
