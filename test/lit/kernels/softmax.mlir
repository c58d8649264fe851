// The example row-wise softmax as the DSL builds it, and after canonicalize.
// RUN: tessera print softmax --dtype f16 | FileCheck %s
// RUN: tessera print softmax --dtype f16 | tile-opt -canonicalize -cse | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: tile.kernel @softmax_f16_4x128
// CHECK-SAME:    (%[[X:.*]]: !tile.view<?x?xf16>, %[[Y:.*]]: !tile.view<?x?xf16>)
// CHECK:         %[[ROW:.*]] = tile.program_id x : index
// Columns past the end read -inf, which exp() turns into 0.
// CHECK:         %[[T:.*]] = tile.load %[[X]][%[[ROW]], %{{.*}}] padding(0xFFF0000000000000) : !tile.view<?x?xf16> -> tensor<4x128xf16>
// CHECK:         %[[V:.*]] = arith.extf %[[T]] : tensor<4x128xf16> to tensor<4x128xf32>
// CHECK:         %[[M:.*]] = tile.reduce max %[[V]] axis 1 : tensor<4x128xf32> -> tensor<4x1xf32>
// CHECK:         %[[MB:.*]] = tile.broadcast %[[M]] : tensor<4x1xf32> -> tensor<4x128xf32>
// CHECK:         %[[D:.*]] = arith.subf %[[V]], %[[MB]] : tensor<4x128xf32>
// CHECK:         %[[L:.*]] = arith.constant dense<1.44269502> : tensor<4x128xf32>
// CHECK:         %[[S:.*]] = arith.mulf %[[D]], %[[L]] : tensor<4x128xf32>
// CHECK:         %[[E:.*]] = math.exp2 %[[S]] : tensor<4x128xf32>
// CHECK:         %[[SUM:.*]] = tile.reduce sum %[[E]] axis 1 : tensor<4x128xf32> -> tensor<4x1xf32>
// CHECK:         %[[SB:.*]] = tile.broadcast %[[SUM]] : tensor<4x1xf32> -> tensor<4x128xf32>
// CHECK:         %[[P:.*]] = arith.divf %[[E]], %[[SB]] : tensor<4x128xf32>
// CHECK:         %[[O:.*]] = arith.truncf %[[P]] : tensor<4x128xf32> to tensor<4x128xf16>
// CHECK:         tile.store %[[O]], %[[Y]][%[[ROW]], %{{.*}}] : tensor<4x128xf16> -> !tile.view<?x?xf16>

// The two column-index constants become one after CSE.
// CANON-LABEL: tile.kernel @softmax_f16_4x128
// CANON-COUNT-1: arith.constant 0 : index
// CANON-NOT:     arith.constant 0 : index
