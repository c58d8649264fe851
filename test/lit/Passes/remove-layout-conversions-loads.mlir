// RUN: tile-opt %s -split-input-file --tile-remove-layout-conversions --cse | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-remove-layout-conversions --cse --tile-pipeline=target=sm_90a | FileCheck %s --check-prefix=PIPE

#b = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// The spectrum product of the fused convolution: a coefficient tile the
// loop reads in every iteration (loop-invariant index arithmetic, a view
// the loop does not write) times an accumulator. The accumulator's
// conversion has only elementwise users, so the load is made in the
// accumulator's layout (tile-pipeline then hoists it) and the product runs
// where the accumulator sits: no exchange in the loop.
// CHECK-LABEL: tile.kernel @invariant_load
// CHECK:       scf.for
// CHECK:         %[[A:.*]] = tile.load %arg0{{.*}} -> tensor<64x16xf32, #mma>
// CHECK:         %[[P:.*]] = tile.load %arg1{{.*}} -> tensor<64x16xf32, #mma>
// CHECK:         %[[M:.*]] = arith.mulf %[[P]], %[[A]] : tensor<64x16xf32, #mma>
// CHECK:         %[[S:.*]] = arith.addf %[[M]], %[[A]] : tensor<64x16xf32, #mma>
// CHECK:         tile.convert_layout %[[S]] : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #blocked>
// CHECK-NOT:     tile.convert_layout
tile.kernel @invariant_load(%z: !tile.view<?x?xf32>, %p: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index, %h: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = tile.load %z[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
    %ab = tile.convert_layout %a : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
    %row = arith.muli %h, %c4 : index
    %coef = tile.load %p[%row, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #b>
    %prod = arith.mulf %coef, %ab : tensor<64x16xf32, #b>
    %sum = arith.addf %prod, %ab : tensor<64x16xf32, #b>
    tile.store %sum, %y[%i, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  }
}

// -----

#b = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#bt = #tile.blocked<spt = [1, 4], tpw = [2, 16], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// What stays in the blocked layout: when a transpose still needs the
// accumulator converted, a second load would not remove that conversion
// and the product would need one of its own (a gather would not: it reads
// its source in any layout, remove-layout-conversions-gathers.mlir); a
// load whose row depends on the iteration is read every iteration; a view
// the loop writes may change between iterations. (Each accumulator is also
// stored as it is, so that its conversion is not folded into its load.)
// CHECK-LABEL: tile.kernel @stays
// CHECK:       scf.for
// CHECK-NOT:     tile.load %arg1{{.*}} #mma
// CHECK:         tile.permute
// CHECK:         arith.mulf {{.*}} : tensor<64x16xf32, #blocked>
// CHECK:         tile.load %arg1[%arg4, {{.*}} -> tensor<64x16xf32, #blocked>
// CHECK:         arith.mulf {{.*}} : tensor<64x16xf32, #blocked>
// CHECK:         tile.load %arg2[%c0, %c0] {{.*}} -> tensor<64x16xf32, #blocked>
// CHECK:         arith.mulf {{.*}} : tensor<64x16xf32, #blocked>
tile.kernel @stays(%z: !tile.view<?x?xf32>, %p: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = tile.load %z[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
    tile.store %a, %y[%c1, %c1] : tensor<64x16xf32, #mma> -> !tile.view<?x?xf32>
    %ab = tile.convert_layout %a : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
    %g = tile.permute %ab [1, 0] : tensor<64x16xf32, #b> -> tensor<16x64xf32, #bt>
    %coef = tile.load %p[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #b>
    %m1 = arith.mulf %coef, %ab : tensor<64x16xf32, #b>
    tile.store %g, %y[%i, %c0] : tensor<16x64xf32, #bt> -> !tile.view<?x?xf32>
    tile.store %m1, %y[%i, %c1] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
    %a2 = tile.load %z[%c1, %i] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
    tile.store %a2, %y[%c1, %c1] : tensor<64x16xf32, #mma> -> !tile.view<?x?xf32>
    %ab2 = tile.convert_layout %a2 : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
    %coef2 = tile.load %p[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #b>
    %m2 = arith.mulf %coef2, %ab2 : tensor<64x16xf32, #b>
    tile.store %m2, %y[%c0, %i] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
    %a3 = tile.load %z[%i, %c1] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
    tile.store %a3, %y[%c1, %c1] : tensor<64x16xf32, #mma> -> !tile.view<?x?xf32>
    %ab3 = tile.convert_layout %a3 : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
    %coef3 = tile.load %y[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #b>
    %m3 = arith.mulf %coef3, %ab3 : tensor<64x16xf32, #b>
    tile.store %m3, %y[%i, %i] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  }
}

// -----

#b = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#c = #tile.blocked<spt = [8, 1], tpw = [8, 4], wpc = [1, 4], order = [0, 1]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// convert(load) becomes a load in the converted layout where the load was
// when memory may change in between: past a store to the view, the new
// load still reads the old values; a load before a loop whose conversion is
// inside it is not pulled into the loop (it would re-read what the loop
// stores). With nothing in between, it reads where the conversion was.
// (Loaded in the column layout #c and stored in #b: a store takes #b straight
// from a load, StoreFromAccumulator, so the conversions run the other way.)
// CHECK-LABEL: tile.kernel @load_where_it_was
// CHECK:       %[[X:.*]] = tile.load %arg0[%c0, %c0] {{.*}} -> tensor<64x16xf32, #[[C:blocked[0-9]*]]>
// CHECK-NEXT:  tile.store %{{.*}}, %arg0[%c0, %c0]
// CHECK-NEXT:  tile.store %[[X]], %arg1[%c0, %c0] : tensor<64x16xf32, #[[C]]>
// CHECK:       %[[Y:.*]] = tile.load %arg1[%c1, %c0] {{.*}} -> tensor<64x16xf32, #[[C]]>
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[Y]], %[[Y]]
// CHECK-NEXT:    tile.store %[[S]], %arg1[%c1, %c0]
// CHECK:       %[[K:.*]] = arith.addi
// CHECK-NEXT:  %[[Z:.*]] = tile.load %arg1[%c2, %c0] {{.*}} -> tensor<64x16xf32, #[[C]]>
// CHECK-NEXT:  tile.store %[[Z]], %arg0[%[[K]], %c0]
tile.kernel @load_where_it_was(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant dense<1.0> : tensor<64x16xf32, #c>
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #c>
  tile.store %one, %x[%c0, %c0] : tensor<64x16xf32, #c> -> !tile.view<?x?xf32>
  %ac = tile.convert_layout %a : tensor<64x16xf32, #c> -> tensor<64x16xf32, #b>
  tile.store %ac, %y[%c0, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  %v = tile.load %y[%c1, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #c>
  scf.for %i = %c0 to %n step %c1 {
    %vc = tile.convert_layout %v : tensor<64x16xf32, #c> -> tensor<64x16xf32, #b>
    %s = arith.addf %vc, %vc : tensor<64x16xf32, #b>
    tile.store %s, %y[%c1, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  }
  %w0 = tile.load %y[%c2, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #c>
  %k = arith.addi %n, %c1 : index
  %wc = tile.convert_layout %w0 : tensor<64x16xf32, #c> -> tensor<64x16xf32, #b>
  tile.store %wc, %x[%k, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
}

// -----

#b = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// The product sits in a branch: the coefficient tile is still loaded in the
// accumulator's layout next to the original load, in the loop body, where
// tile-pipeline hoists it (PIPE); not inside the branch.
// CHECK-LABEL: tile.kernel @consumer_in_branch
// CHECK:       scf.for
// CHECK:         tile.load %arg1{{.*}} -> tensor<64x16xf32, #mma>
// CHECK:         scf.if
// CHECK-NEXT:      arith.mulf {{.*}} : tensor<64x16xf32, #mma>
// PIPE-LABEL: tile.kernel @consumer_in_branch
// PIPE:       tile.load %arg1{{.*}} -> tensor<64x16xf32, #mma>
// PIPE:       scf.for
// PIPE-NOT:     tile.load %arg1
// PIPE:       tile.return
tile.kernel @consumer_in_branch(%z: !tile.view<?x?xf32>, %p: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index, %flag: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %on = arith.cmpi ne, %flag, %zero : i32
  scf.for %i = %c0 to %n step %c1 {
    %a = tile.load %z[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
    tile.store %a, %y[%c1, %c1] : tensor<64x16xf32, #mma> -> !tile.view<?x?xf32>
    %ab = tile.convert_layout %a : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
    %coef = tile.load %p[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #b>
    scf.if %on {
      %m = arith.mulf %coef, %ab : tensor<64x16xf32, #b>
      tile.store %m, %y[%i, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
    }
  }
}

// -----

#b = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// An `at_use` coefficient (the SSD walk's per-channel D row): made in the
// accumulator's layout like any loop-invariant load, and the new load keeps
// `at_use`, so tile-pipeline leaves it in the loop where it is used (PIPE):
// one load a iteration from the cache, no exchange.
// CHECK-LABEL: tile.kernel @at_use_invariant_load
// CHECK:       scf.for
// CHECK:         %[[A:.*]] = tile.load %arg0{{.*}} -> tensor<64x16xf32, #mma>
// CHECK-NOT:     tile.convert_layout %[[A]]
// CHECK:         %[[P:.*]] = tile.load %arg1{{.*}} at_use : {{.*}} -> tensor<64x16xf32, #mma>
// CHECK:         %[[M:.*]] = arith.mulf %[[P]], %[[A]] : tensor<64x16xf32, #mma>
// CHECK:         tile.convert_layout %[[M]] : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #blocked>
// PIPE-LABEL: tile.kernel @at_use_invariant_load
// PIPE-NOT:   tile.load %arg1
// PIPE:       scf.for
// PIPE:         tile.load %arg1{{.*}} at_use : {{.*}} -> tensor<64x16xf32, #mma>
// PIPE:       tile.return
tile.kernel @at_use_invariant_load(%z: !tile.view<?x?xf32>, %p: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index, %h: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = tile.load %z[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
    %ab = tile.convert_layout %a : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
    %coef = tile.load %p[%h, %c0] at_use : !tile.view<?x?xf32> -> tensor<64x16xf32, #b>
    %prod = arith.mulf %coef, %ab : tensor<64x16xf32, #b>
    tile.store %prod, %y[%i, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  }
}
