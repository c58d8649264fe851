// The example GEMM as the DSL builds it (level-1 tile IR), and a round trip
// of that IR through tile-opt.
// RUN: tessera print gemm --dtype bf16 | FileCheck %s
// RUN: tessera print gemm --dtype bf16 | tile-opt | FileCheck %s
// RUN: tessera print gemm --dtype f16 | FileCheck %s --check-prefix=F16

// CHECK-LABEL: tile.kernel @gemm_bf16_f32_64x64x32
// CHECK-SAME:    (%[[A:.*]]: !tile.view<?x?xbf16>, %[[B:.*]]: !tile.view<?x?xbf16>, %[[C:.*]]: !tile.view<?x?xf32>)
// CHECK-DAG:     %[[ROW:.*]] = tile.program_id x : index
// CHECK-DAG:     %[[COL:.*]] = tile.program_id y : index
// CHECK-DAG:     %[[BK:.*]] = arith.constant 32 : index
// CHECK:         %[[K:.*]] = tile.dim %[[A]][1] : !tile.view<?x?xbf16>
// CHECK:         %[[KT:.*]] = arith.ceildivsi %[[K]], %[[BK]] : index
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
// CHECK:         %[[ACC:.*]] = scf.for %[[KI:.*]] = %{{.*}} to %[[KT]] step %{{.*}} iter_args(%[[IT:.*]] = %[[ZERO]]) -> (tensor<64x64xf32>)
// CHECK:           %[[TA:.*]] = tile.load %[[A]][%[[ROW]], %[[KI]]] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
// CHECK:           %[[TB:.*]] = tile.load %[[B]][%[[KI]], %[[COL]]] : !tile.view<?x?xbf16> -> tensor<32x64xbf16>
// CHECK:           %[[D:.*]] = tile.mma %[[TA]], %[[TB]], %[[IT]] : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
// CHECK:           scf.yield %[[D]] : tensor<64x64xf32>
// CHECK:         tile.store %[[ACC]], %[[C]][%[[ROW]], %[[COL]]] : tensor<64x64xf32> -> !tile.view<?x?xf32>
// CHECK:         tile.return

// F16-LABEL: tile.kernel @gemm_f16_f32_64x64x32
// F16:         tile.mma %{{.*}} : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
