// RUN: tile-opt %s --tile-order-global-memory | grep -B1 -E 'tile.load %arg[0-9]\[' | FileCheck %s
// A chain the loop's fixed point needs many rounds for (about one per
// link): each scf.if's load of V_k conflicts with the store to V_k in the
// next link, which only reaches the end of the body once the previous
// link's store is pending. Every link's load gets its barrier (a cap on
// the rounds once left the last links without one).
// Each load of a V view with the line before it:
// CHECK:       tile.sync_threads
// CHECK-NEXT:  tile.load %arg9[
// CHECK:       tile.sync_threads
// CHECK-NEXT:  tile.load %arg8[
// CHECK:       tile.sync_threads
// CHECK-NEXT:  tile.load %arg7[
// CHECK:       tile.sync_threads
// CHECK-NEXT:  tile.load %arg6[
// CHECK:       tile.sync_threads
// CHECK-NEXT:  tile.load %arg5[
// CHECK:       tile.sync_threads
// CHECK-NEXT:  tile.load %arg4[
// CHECK:       tile.sync_threads
// CHECK-NEXT:  tile.load %arg3[
// CHECK:       tile.sync_threads
// CHECK-NEXT:  tile.load %arg2[
// CHECK:       tile.sync_threads
// CHECK-NEXT:  tile.load %arg1[
// CHECK:       tile.sync_threads
// CHECK-NEXT:  tile.load %arg0[
tile.kernel @chain(%V1: !tile.view<?xf32>, %V2: !tile.view<?xf32>, %V3: !tile.view<?xf32>, %V4: !tile.view<?xf32>, %V5: !tile.view<?xf32>, %V6: !tile.view<?xf32>, %V7: !tile.view<?xf32>, %V8: !tile.view<?xf32>, %V9: !tile.view<?xf32>, %V10: !tile.view<?xf32>, %V11: !tile.view<?xf32>, %Q1: !tile.view<?xf32>, %Q2: !tile.view<?xf32>, %Q3: !tile.view<?xf32>, %Q4: !tile.view<?xf32>, %Q5: !tile.view<?xf32>, %Q6: !tile.view<?xf32>, %Q7: !tile.view<?xf32>, %Q8: !tile.view<?xf32>, %Q9: !tile.view<?xf32>, %Q10: !tile.view<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant dense<1.0> : tensor<8xf32>
  scf.for %i = %c0 to %n step %c1 {
    %k1 = arith.constant 1 : index
    %b1 = arith.cmpi ne, %i, %k1 : index
    scf.if %b1 {
      tile.store %cst, %Q1[%c0] : tensor<8xf32> -> !tile.view<?xf32>
    }
    %k2 = arith.constant 2 : index
    %b2 = arith.cmpi ne, %i, %k2 : index
    scf.if %b2 {
      tile.store %cst, %Q2[%c0] : tensor<8xf32> -> !tile.view<?xf32>
    }
    %k3 = arith.constant 3 : index
    %b3 = arith.cmpi ne, %i, %k3 : index
    scf.if %b3 {
      tile.store %cst, %Q3[%c0] : tensor<8xf32> -> !tile.view<?xf32>
    }
    %k4 = arith.constant 4 : index
    %b4 = arith.cmpi ne, %i, %k4 : index
    scf.if %b4 {
      tile.store %cst, %Q4[%c0] : tensor<8xf32> -> !tile.view<?xf32>
    }
    %k5 = arith.constant 5 : index
    %b5 = arith.cmpi ne, %i, %k5 : index
    scf.if %b5 {
      tile.store %cst, %Q5[%c0] : tensor<8xf32> -> !tile.view<?xf32>
    }
    %k6 = arith.constant 6 : index
    %b6 = arith.cmpi ne, %i, %k6 : index
    scf.if %b6 {
      tile.store %cst, %Q6[%c0] : tensor<8xf32> -> !tile.view<?xf32>
    }
    %k7 = arith.constant 7 : index
    %b7 = arith.cmpi ne, %i, %k7 : index
    scf.if %b7 {
      tile.store %cst, %Q7[%c0] : tensor<8xf32> -> !tile.view<?xf32>
    }
    %k8 = arith.constant 8 : index
    %b8 = arith.cmpi ne, %i, %k8 : index
    scf.if %b8 {
      tile.store %cst, %Q8[%c0] : tensor<8xf32> -> !tile.view<?xf32>
    }
    %k9 = arith.constant 9 : index
    %b9 = arith.cmpi ne, %i, %k9 : index
    scf.if %b9 {
      tile.store %cst, %Q9[%c0] : tensor<8xf32> -> !tile.view<?xf32>
    }
    %k10 = arith.constant 10 : index
    %b10 = arith.cmpi ne, %i, %k10 : index
    scf.if %b10 {
      tile.store %cst, %Q10[%c0] : tensor<8xf32> -> !tile.view<?xf32>
    }
    %k11 = arith.constant 11 : index
    %b11 = arith.cmpi ne, %i, %k11 : index
    scf.if %b11 {
      %x1 = tile.load %V10[%c0] : !tile.view<?xf32> -> tensor<8xf32>
      tile.store %cst, %V11[%c0] : tensor<8xf32> -> !tile.view<?xf32>
      %x2 = tile.load %Q10[%c0] : !tile.view<?xf32> -> tensor<8xf32>
    }
    %k12 = arith.constant 12 : index
    %b12 = arith.cmpi ne, %i, %k12 : index
    scf.if %b12 {
      %x3 = tile.load %V9[%c0] : !tile.view<?xf32> -> tensor<8xf32>
      tile.store %cst, %V10[%c0] : tensor<8xf32> -> !tile.view<?xf32>
      %x4 = tile.load %Q9[%c0] : !tile.view<?xf32> -> tensor<8xf32>
    }
    %k13 = arith.constant 13 : index
    %b13 = arith.cmpi ne, %i, %k13 : index
    scf.if %b13 {
      %x5 = tile.load %V8[%c0] : !tile.view<?xf32> -> tensor<8xf32>
      tile.store %cst, %V9[%c0] : tensor<8xf32> -> !tile.view<?xf32>
      %x6 = tile.load %Q8[%c0] : !tile.view<?xf32> -> tensor<8xf32>
    }
    %k14 = arith.constant 14 : index
    %b14 = arith.cmpi ne, %i, %k14 : index
    scf.if %b14 {
      %x7 = tile.load %V7[%c0] : !tile.view<?xf32> -> tensor<8xf32>
      tile.store %cst, %V8[%c0] : tensor<8xf32> -> !tile.view<?xf32>
      %x8 = tile.load %Q7[%c0] : !tile.view<?xf32> -> tensor<8xf32>
    }
    %k15 = arith.constant 15 : index
    %b15 = arith.cmpi ne, %i, %k15 : index
    scf.if %b15 {
      %x9 = tile.load %V6[%c0] : !tile.view<?xf32> -> tensor<8xf32>
      tile.store %cst, %V7[%c0] : tensor<8xf32> -> !tile.view<?xf32>
      %x10 = tile.load %Q6[%c0] : !tile.view<?xf32> -> tensor<8xf32>
    }
    %k16 = arith.constant 16 : index
    %b16 = arith.cmpi ne, %i, %k16 : index
    scf.if %b16 {
      %x11 = tile.load %V5[%c0] : !tile.view<?xf32> -> tensor<8xf32>
      tile.store %cst, %V6[%c0] : tensor<8xf32> -> !tile.view<?xf32>
      %x12 = tile.load %Q5[%c0] : !tile.view<?xf32> -> tensor<8xf32>
    }
    %k17 = arith.constant 17 : index
    %b17 = arith.cmpi ne, %i, %k17 : index
    scf.if %b17 {
      %x13 = tile.load %V4[%c0] : !tile.view<?xf32> -> tensor<8xf32>
      tile.store %cst, %V5[%c0] : tensor<8xf32> -> !tile.view<?xf32>
      %x14 = tile.load %Q4[%c0] : !tile.view<?xf32> -> tensor<8xf32>
    }
    %k18 = arith.constant 18 : index
    %b18 = arith.cmpi ne, %i, %k18 : index
    scf.if %b18 {
      %x15 = tile.load %V3[%c0] : !tile.view<?xf32> -> tensor<8xf32>
      tile.store %cst, %V4[%c0] : tensor<8xf32> -> !tile.view<?xf32>
      %x16 = tile.load %Q3[%c0] : !tile.view<?xf32> -> tensor<8xf32>
    }
    %k19 = arith.constant 19 : index
    %b19 = arith.cmpi ne, %i, %k19 : index
    scf.if %b19 {
      %x17 = tile.load %V2[%c0] : !tile.view<?xf32> -> tensor<8xf32>
      tile.store %cst, %V3[%c0] : tensor<8xf32> -> !tile.view<?xf32>
      %x18 = tile.load %Q2[%c0] : !tile.view<?xf32> -> tensor<8xf32>
    }
    %k20 = arith.constant 20 : index
    %b20 = arith.cmpi ne, %i, %k20 : index
    scf.if %b20 {
      %x19 = tile.load %V1[%c0] : !tile.view<?xf32> -> tensor<8xf32>
      tile.store %cst, %V2[%c0] : tensor<8xf32> -> !tile.view<?xf32>
      %x20 = tile.load %Q1[%c0] : !tile.view<?xf32> -> tensor<8xf32>
    }
    %k21 = arith.constant 21 : index
    %b21 = arith.cmpi ne, %i, %k21 : index
    scf.if %b21 {
      tile.store %cst, %V1[%c0] : tensor<8xf32> -> !tile.view<?xf32>
    }
  }
  tile.return
}
