// scf.while, scf.execute_region, scf.if with tile results and the y/z grid
// queries lower to PTX that ptxas accepts.
// RUN: tile-compile %s --target sm_90a -o %t.ptx
// RUN: FileCheck %s --input-file %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// CHECK-LABEL: .entry loops(
// CHECK-DAG: %ctaid.y
// CHECK-DAG: %ctaid.z
// (num_programs x > 0 folds away: NVVM knows nctaid >= 1.)
// CHECK: bra
tile.kernel @loops(%x: !tile.view<?x?xf32>, %n: i32) {
  %y = tile.program_id y : index
  %z = tile.program_id z : index
  %nx = tile.num_programs x : index
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%y, %z] : !tile.view<?x?xf32> -> tensor<16x16xf32>
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %half = arith.constant dense<0.5> : tensor<16x16xf32>
  // while (i < n) { t = t * 0.5; i += 1 }
  %r:2 = scf.while (%i = %zero, %acc = %t) : (i32, tensor<16x16xf32>) -> (i32, tensor<16x16xf32>) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %acc : i32, tensor<16x16xf32>
  } do {
  ^bb0(%i: i32, %acc: tensor<16x16xf32>):
    %next = arith.addi %i, %one : i32
    %scaled = arith.mulf %acc, %half : tensor<16x16xf32>
    scf.yield %next, %scaled : i32, tensor<16x16xf32>
  }
  %e = scf.execute_region -> tensor<16x16xf32> {
    %d = arith.addf %r#1, %r#1 : tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  %big = arith.cmpi sgt, %nx, %c0 : index
  %out = scf.if %big -> tensor<16x16xf32> {
    scf.yield %e : tensor<16x16xf32>
  } else {
    scf.yield %t : tensor<16x16xf32>
  }
  tile.store %out, %x[%y, %z] : tensor<16x16xf32> -> !tile.view<?x?xf32>
}
