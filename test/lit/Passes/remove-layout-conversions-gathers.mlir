// RUN: tile-opt %s -split-input-file --tile-remove-layout-conversions --cse | FileCheck %s

#b = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// A gather writes its source to shared memory as it is: it reads an
// accumulator without converting it first.
// CHECK-LABEL: tile.kernel @gather_from_accumulator
// CHECK:       %[[A:.*]] = tile.load %arg0{{.*}} -> tensor<64x16xf32, #mma>
// CHECK-NOT:   tile.convert_layout
// CHECK:       tile.gather %[[A]][%{{.*}}] axes [0] : tensor<64x16xf32, #mma> [tensor<64x16xi32, #blocked>] -> tensor<64x16xf32, #blocked>
tile.kernel @gather_from_accumulator(%z: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %z[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  tile.store %a, %y[%c0, %c0] : tensor<64x16xf32, #mma> -> !tile.view<?x?xf32>
  %ab = tile.convert_layout %a : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
  %idx = tile.iota : tensor<64x16xi32, #b>
  %g = tile.gather %ab[%idx] axes [0] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
  tile.store %g, %y[%c0, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
}

// -----

#b = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#b3 = #tile.blocked<spt = [1, 1, 8], tpw = [1, 4, 8], wpc = [1, 4, 1], order = [2, 1, 0]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// The conv inner pass's spectrum product: P z + Q partner, the partner a
// row and then a column gather of an accumulator (its own or the other
// row's, in a branch uniform over the program), P and Q tiles of a view
// the loop reads in every iteration, reshaped from (1, 64, 16). The last
// gather of each branch makes the partner in the accumulators' layout
// (its indices from iota arithmetic, made in that layout), P and Q are
// loaded in it, and the whole product runs there: the only conversion
// left is the result's, before the store.
// CHECK-LABEL: tile.kernel @partner_product
// CHECK:       scf.for
// CHECK:         %[[Z:.*]] = tile.load %arg0[%arg5, %c0] {{.*}} -> tensor<64x16xf32, #mma>
// CHECK:         %[[O:.*]] = tile.load %arg0[%arg5, %c1] {{.*}} -> tensor<64x16xf32, #mma>
// CHECK:         %[[W:.*]] = scf.if %{{.*}} -> (tensor<64x16xf32, #mma>) {
// CHECK:           %[[R:.*]] = tile.gather %[[Z]][%{{.*}}] axes [0] : tensor<64x16xf32, #mma> [tensor<64x16xi32, #blocked>] -> tensor<64x16xf32, #blocked>
// CHECK:           tile.iota dim 1 : tensor<64x16xi32, #mma>
// CHECK:           %[[C:.*]] = tile.gather %[[R]][%{{.*}}] axes [1] : tensor<64x16xf32, #blocked> [tensor<64x16xi32, #mma>] -> tensor<64x16xf32, #mma>
// CHECK:           scf.yield %[[C]] : tensor<64x16xf32, #mma>
// CHECK:         } else {
// CHECK:           tile.gather %[[O]]
// CHECK:           tile.gather {{.*}} -> tensor<64x16xf32, #mma>
// CHECK:         }
// CHECK:         %[[PL:.*]] = tile.load %arg1[%c0, %c0, %c0] {{.*}} -> tensor<1x64x16xf32, #mma>
// CHECK:         %[[P:.*]] = tile.reshape %[[PL]] : tensor<1x64x16xf32, #mma> -> tensor<64x16xf32, #mma>
// CHECK:         %[[QL:.*]] = tile.load %arg1[%c1, %c0, %c0] {{.*}} -> tensor<1x64x16xf32, #mma>
// CHECK:         %[[Q:.*]] = tile.reshape %[[QL]] : tensor<1x64x16xf32, #mma> -> tensor<64x16xf32, #mma>
// CHECK-DAG:     %[[QW:.*]] = arith.mulf %[[Q]], %[[W]] : tensor<64x16xf32, #mma>
// CHECK-DAG:     %[[PZ:.*]] = arith.mulf %[[P]], %[[Z]] : tensor<64x16xf32, #mma>
// CHECK:         %[[S:.*]] = arith.addf %[[PZ]], %[[QW]] : tensor<64x16xf32, #mma>
// CHECK-NEXT:    %[[SB:.*]] = tile.convert_layout %[[S]]
// CHECK-NEXT:    tile.store %[[SB]], %arg2
tile.kernel @partner_product(%z: !tile.view<?x?xf32>, %spectrum: !tile.view<?x?x?xf32>, %y: !tile.view<?x?xf32>, %n: index, %flag: i32) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %own = arith.cmpi ne, %flag, %zero : i32
  %c1 = arith.constant 1 : index
  %c16 = arith.constant dense<16> : tensor<64x16xi32, #b>
  %c64 = arith.constant dense<64> : tensor<64x16xi32, #b>
  scf.for %i = %c0 to %n step %c1 {
    %a = tile.load %z[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
    %o = tile.load %z[%i, %c1] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
    %ab = tile.convert_layout %a : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
    %ob = tile.convert_layout %o : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
    %partner = scf.if %own -> (tensor<64x16xf32, #b>) {
      %rows = tile.iota : tensor<64x16xi32, #b>
      %rr = arith.subi %c64, %rows : tensor<64x16xi32, #b>
      %ri = arith.remsi %rr, %c64 : tensor<64x16xi32, #b>
      %g0 = tile.gather %ab[%ri] axes [0] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
      %cols = tile.iota dim 1 : tensor<64x16xi32, #b>
      %cr = arith.subi %c16, %cols : tensor<64x16xi32, #b>
      %ci = arith.remsi %cr, %c16 : tensor<64x16xi32, #b>
      %g1 = tile.gather %g0[%ci] axes [1] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
      scf.yield %g1 : tensor<64x16xf32, #b>
    } else {
      %rows = tile.iota : tensor<64x16xi32, #b>
      %rr = arith.subi %c64, %rows : tensor<64x16xi32, #b>
      %ri = arith.remsi %rr, %c64 : tensor<64x16xi32, #b>
      %g0 = tile.gather %ob[%ri] axes [0] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
      %cols = tile.iota dim 1 : tensor<64x16xi32, #b>
      %cr = arith.subi %c16, %cols : tensor<64x16xi32, #b>
      %ci = arith.remsi %cr, %c16 : tensor<64x16xi32, #b>
      %g1 = tile.gather %g0[%ci] axes [1] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
      scf.yield %g1 : tensor<64x16xf32, #b>
    }
    %pl = tile.load %spectrum[%c0, %c0, %c0] : !tile.view<?x?x?xf32> -> tensor<1x64x16xf32, #b3>
    %p = tile.reshape %pl : tensor<1x64x16xf32, #b3> -> tensor<64x16xf32, #b>
    %ql = tile.load %spectrum[%c1, %c0, %c0] : !tile.view<?x?x?xf32> -> tensor<1x64x16xf32, #b3>
    %q = tile.reshape %ql : tensor<1x64x16xf32, #b3> -> tensor<64x16xf32, #b>
    %pz = arith.mulf %p, %ab : tensor<64x16xf32, #b>
    %qw = arith.mulf %q, %partner : tensor<64x16xf32, #b>
    %s = arith.addf %pz, %qw : tensor<64x16xf32, #b>
    tile.store %s, %y[%i, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  }
}

// -----

#b = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// Where the branch results stay: one branch gathers from a tile in a
// blocked layout (no accumulator to meet), or the indices are loaded
// (not made from iota, so not cheap to make in another layout).
// CHECK-LABEL: tile.kernel @branches_stay
// CHECK:       scf.if %{{.*}} -> (tensor<64x16xf32, #blocked>)
// CHECK:       scf.if %{{.*}} -> (tensor<64x16xf32, #blocked>)
// CHECK-NOT:   tensor<64x16xi32, #mma>
tile.kernel @branches_stay(%z: !tile.view<?x?xf32>, %ix: !tile.view<?x?xi32>, %y: !tile.view<?x?xf32>, %flag: i32) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %own = arith.cmpi ne, %flag, %zero : i32
  %c1 = arith.constant 1 : index
  %a = tile.load %z[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  tile.store %a, %y[%c0, %c0] : tensor<64x16xf32, #mma> -> !tile.view<?x?xf32>
  %ab = tile.convert_layout %a : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
  %other = tile.load %z[%c1, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #b>
  %idx = tile.iota : tensor<64x16xi32, #b>
  %mixed = scf.if %own -> (tensor<64x16xf32, #b>) {
    %g = tile.gather %ab[%idx] axes [0] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
    scf.yield %g : tensor<64x16xf32, #b>
  } else {
    %g = tile.gather %other[%idx] axes [0] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
    scf.yield %g : tensor<64x16xf32, #b>
  }
  %s1 = arith.mulf %mixed, %ab : tensor<64x16xf32, #b>
  tile.store %s1, %y[%c0, %c1] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  %loaded = tile.load %ix[%c0, %c0] : !tile.view<?x?xi32> -> tensor<64x16xi32, #b>
  %indexed = scf.if %own -> (tensor<64x16xf32, #b>) {
    %g = tile.gather %ab[%loaded] axes [0] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
    scf.yield %g : tensor<64x16xf32, #b>
  } else {
    %g = tile.gather %ab[%loaded] axes [1] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
    scf.yield %g : tensor<64x16xf32, #b>
  }
  %s2 = arith.mulf %indexed, %ab : tensor<64x16xf32, #b>
  tile.store %s2, %y[%c1, %c1] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
}

// -----

#b = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#b3 = #tile.blocked<spt = [1, 1, 8], tpw = [1, 4, 8], wpc = [1, 4, 1], order = [2, 1, 0]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// One gather along both axes (the partner as the conv kernel writes it):
// both index tiles are made in the accumulator's layout. A branch result
// that is only stored stays in the blocked layout (in the mma layout it
// would need a conversion before the store); so does one whose gather
// widens a unit dimension (2 x 64 x 16 has no mma layout).
// CHECK-LABEL: tile.kernel @partner_both_axes
// CHECK:       %[[W:.*]] = scf.if %{{.*}} -> (tensor<64x16xf32, #mma>) {
// CHECK:         tile.gather %{{.*}}[%{{.*}}, %{{.*}}] axes [0, 1] : tensor<64x16xf32, #mma> [tensor<64x16xi32, #mma>, tensor<64x16xi32, #mma>] -> tensor<64x16xf32, #mma>
// CHECK:       } else {
// CHECK:         tile.gather {{.*}} axes [0, 1] {{.*}} -> tensor<64x16xf32, #mma>
// CHECK:       }
// CHECK:       arith.mulf %{{.*}}, %[[W]] : tensor<64x16xf32, #mma>
// CHECK:       scf.if %{{.*}} -> (tensor<64x16xf32, #blocked{{[0-9]*}}>)
// CHECK:       scf.if %{{.*}} -> (tensor<2x64x16xf32, #blocked{{[0-9]*}}>)
tile.kernel @partner_both_axes(%z: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %y3: !tile.view<?x?x?xf32>, %flag: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %own = arith.cmpi ne, %flag, %zero : i32
  %c15 = arith.constant dense<15> : tensor<64x16xi32, #b>
  %c63 = arith.constant dense<63> : tensor<64x16xi32, #b>
  %a = tile.load %z[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  %o = tile.load %z[%c1, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  %ab = tile.convert_layout %a : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
  %ob = tile.convert_layout %o : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
  %rows = tile.iota : tensor<64x16xi32, #b>
  %cols = tile.iota dim 1 : tensor<64x16xi32, #b>
  %ri = arith.subi %c63, %rows : tensor<64x16xi32, #b>
  %ci = arith.subi %c15, %cols : tensor<64x16xi32, #b>
  %partner = scf.if %own -> (tensor<64x16xf32, #b>) {
    %g = tile.gather %ab[%ri, %ci] axes [0, 1] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>, tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
    scf.yield %g : tensor<64x16xf32, #b>
  } else {
    %g = tile.gather %ob[%ri, %ci] axes [0, 1] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>, tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
    scf.yield %g : tensor<64x16xf32, #b>
  }
  %p = arith.mulf %ab, %partner : tensor<64x16xf32, #b>
  tile.store %p, %y[%c0, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  %stored = scf.if %own -> (tensor<64x16xf32, #b>) {
    %g = tile.gather %ab[%ri, %ci] axes [0, 1] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>, tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
    scf.yield %g : tensor<64x16xf32, #b>
  } else {
    %g = tile.gather %ob[%ri, %ci] axes [0, 1] : tensor<64x16xf32, #b> [tensor<64x16xi32, #b>, tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>
    scf.yield %g : tensor<64x16xf32, #b>
  }
  tile.store %stored, %y[%c1, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  %a3 = tile.reshape %a : tensor<64x16xf32, #mma> -> tensor<1x64x16xf32, #mma>
  %a3b = tile.convert_layout %a3 : tensor<1x64x16xf32, #mma> -> tensor<1x64x16xf32, #b3>
  %two = arith.constant dense<0> : tensor<2x64x16xi32, #b3>
  %wide = scf.if %own -> (tensor<2x64x16xf32, #b3>) {
    %g = tile.gather %a3b[%two] axes [0] : tensor<1x64x16xf32, #b3> [tensor<2x64x16xi32, #b3>] -> tensor<2x64x16xf32, #b3>
    scf.yield %g : tensor<2x64x16xf32, #b3>
  } else {
    %g = tile.gather %a3b[%two] axes [0] : tensor<1x64x16xf32, #b3> [tensor<2x64x16xi32, #b3>] -> tensor<2x64x16xf32, #b3>
    scf.yield %g : tensor<2x64x16xf32, #b3>
  }
  %sq = arith.mulf %wide, %wide : tensor<2x64x16xf32, #b3>
  tile.store %sq, %y3[%c0, %c0, %c0] : tensor<2x64x16xf32, #b3> -> !tile.view<?x?x?xf32>
}

// -----

#b = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>

// Both planes of the partner in one gather (one exchange): the gathers of
// each branch read the accumulators as they are, and both branch results
// move to the accumulators' layout together. Not where the branches yield
// a gather's results at different positions, nor where one of its results
// is only stored (every result of a gather has one type).
// CHECK-LABEL: tile.kernel @partner_planes
// CHECK:       %[[W:.*]]:2 = scf.if %{{.*}} -> (tensor<64x16xf32, #mma>, tensor<64x16xf32, #mma>) {
// CHECK:         %[[G:.*]]:2 = tile.gather %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] axes [0, 1] : tensor<64x16xf32, #mma>, tensor<64x16xf32, #mma> [tensor<64x16xi32, #mma>, tensor<64x16xi32, #mma>] -> tensor<64x16xf32, #mma>, tensor<64x16xf32, #mma>
// CHECK:         scf.yield %[[G]]#0, %[[G]]#1
// CHECK:       } else {
// CHECK:         tile.gather {{.*}} -> tensor<64x16xf32, #mma>, tensor<64x16xf32, #mma>
// CHECK:       }
// CHECK:       arith.mulf %{{.*}}, %[[W]]#0 : tensor<64x16xf32, #mma>
// CHECK:       arith.mulf %{{.*}}, %[[W]]#1 : tensor<64x16xf32, #mma>
// CHECK:       scf.if %{{.*}} -> (tensor<64x16xf32, #blocked{{[0-9]*}}>, tensor<64x16xf32, #blocked{{[0-9]*}}>)
// CHECK:       scf.if %{{.*}} -> (tensor<64x16xf32, #blocked{{[0-9]*}}>, tensor<64x16xf32, #blocked{{[0-9]*}}>)
tile.kernel @partner_planes(%z: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %flag: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i32
  %own = arith.cmpi ne, %flag, %zero : i32
  %c15 = arith.constant dense<15> : tensor<64x16xi32, #b>
  %c63 = arith.constant dense<63> : tensor<64x16xi32, #b>
  %ar = tile.load %z[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  %ai = tile.load %z[%c1, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  %or = tile.load %z[%c2, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  %oi = tile.load %z[%c3, %c0] : !tile.view<?x?xf32> -> tensor<64x16xf32, #mma>
  %arb = tile.convert_layout %ar : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
  %aib = tile.convert_layout %ai : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
  %orb = tile.convert_layout %or : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
  %oib = tile.convert_layout %oi : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #b>
  %rows = tile.iota : tensor<64x16xi32, #b>
  %cols = tile.iota dim 1 : tensor<64x16xi32, #b>
  %ri = arith.subi %c63, %rows : tensor<64x16xi32, #b>
  %ci = arith.subi %c15, %cols : tensor<64x16xi32, #b>
  %p:2 = scf.if %own -> (tensor<64x16xf32, #b>, tensor<64x16xf32, #b>) {
    %g:2 = tile.gather %arb, %aib[%ri, %ci] axes [0, 1] : tensor<64x16xf32, #b>, tensor<64x16xf32, #b> [tensor<64x16xi32, #b>, tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>, tensor<64x16xf32, #b>
    scf.yield %g#0, %g#1 : tensor<64x16xf32, #b>, tensor<64x16xf32, #b>
  } else {
    %g:2 = tile.gather %orb, %oib[%ri, %ci] axes [0, 1] : tensor<64x16xf32, #b>, tensor<64x16xf32, #b> [tensor<64x16xi32, #b>, tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>, tensor<64x16xf32, #b>
    scf.yield %g#0, %g#1 : tensor<64x16xf32, #b>, tensor<64x16xf32, #b>
  }
  %pr = arith.mulf %arb, %p#0 : tensor<64x16xf32, #b>
  %pi = arith.mulf %aib, %p#1 : tensor<64x16xf32, #b>
  tile.store %pr, %y[%c0, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  tile.store %pi, %y[%c1, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  %s:2 = scf.if %own -> (tensor<64x16xf32, #b>, tensor<64x16xf32, #b>) {
    %g:2 = tile.gather %arb, %aib[%ri, %ci] axes [0, 1] : tensor<64x16xf32, #b>, tensor<64x16xf32, #b> [tensor<64x16xi32, #b>, tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>, tensor<64x16xf32, #b>
    scf.yield %g#0, %g#1 : tensor<64x16xf32, #b>, tensor<64x16xf32, #b>
  } else {
    %g:2 = tile.gather %orb, %oib[%ri, %ci] axes [0, 1] : tensor<64x16xf32, #b>, tensor<64x16xf32, #b> [tensor<64x16xi32, #b>, tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>, tensor<64x16xf32, #b>
    scf.yield %g#1, %g#0 : tensor<64x16xf32, #b>, tensor<64x16xf32, #b>
  }
  %sr = arith.mulf %arb, %s#0 : tensor<64x16xf32, #b>
  %si = arith.mulf %aib, %s#1 : tensor<64x16xf32, #b>
  tile.store %sr, %y[%c2, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  tile.store %si, %y[%c3, %c0] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  %t:2 = scf.if %own -> (tensor<64x16xf32, #b>, tensor<64x16xf32, #b>) {
    %g:2 = tile.gather %arb, %aib[%ri, %ci] axes [0, 1] : tensor<64x16xf32, #b>, tensor<64x16xf32, #b> [tensor<64x16xi32, #b>, tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>, tensor<64x16xf32, #b>
    scf.yield %g#0, %g#1 : tensor<64x16xf32, #b>, tensor<64x16xf32, #b>
  } else {
    %g:2 = tile.gather %orb, %oib[%ri, %ci] axes [0, 1] : tensor<64x16xf32, #b>, tensor<64x16xf32, #b> [tensor<64x16xi32, #b>, tensor<64x16xi32, #b>] -> tensor<64x16xf32, #b>, tensor<64x16xf32, #b>
    scf.yield %g#0, %g#1 : tensor<64x16xf32, #b>, tensor<64x16xf32, #b>
  }
  %tr = arith.mulf %arb, %t#0 : tensor<64x16xf32, #b>
  tile.store %tr, %y[%c0, %c1] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
  tile.store %t#1, %y[%c1, %c1] : tensor<64x16xf32, #b> -> !tile.view<?x?xf32>
}
