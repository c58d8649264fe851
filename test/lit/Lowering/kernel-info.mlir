// The launch description tile-compile writes next to the PTX: a view the
// kernel stores to is marked written (the runtime then refuses a launch in
// which it overlaps another argument); views only read, and scalars, are
// not.
// RUN: tile-compile %s --target sm_90a -o %t.ptx --info %t.json
// RUN: FileCheck %s --input-file %t.json
// CHECK:      "name": "copy_scaled"
// CHECK:      {"name": "arg0", "kind": "view", "type": "f32", "rank": 2, "align": 4}
// CHECK-NEXT: {"name": "arg1", "kind": "scalar", "type": "f32"}
// CHECK-NEXT: {"name": "arg2", "kind": "view", "type": "f32", "rank": 2, "align": 4, "written": true}
tile.kernel @copy_scaled(%x: !tile.view<?x?xf32>, %s: f32, %y: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %i = tile.program_id x : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<32x32xf32>
  %b = tile.splat %s : f32 -> tensor<32x32xf32>
  %r = arith.mulf %t, %b : tensor<32x32xf32>
  tile.store %r, %y[%i, %c0] : tensor<32x32xf32> -> !tile.view<?x?xf32>
}
