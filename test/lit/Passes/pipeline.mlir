// RUN: tile-opt %s -split-input-file --tile-assign-layouts=num-warps=8 --tile-accelerate-mma=target=sm_90a --canonicalize --tile-remove-layout-conversions --canonicalize --tile-pipeline=stages=3 --canonicalize | FileCheck %s

// The GEMM main loop: A and B become TMA copies into 3-stage rings; two
// iterations are requested before the loop; each iteration waits for its
// stage, keeps one wgmma group in flight, and refills the stage the
// previous iteration used.
// CHECK-LABEL: tile.kernel @gemm
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[RA:.*]] = tile.local_alloc : !tile.smem<3x128x64xbf16, #tile.nvmma_shared<swizzle = 128>>
// CHECK: %[[RB:.*]] = tile.local_alloc : !tile.smem<3x64x256xbf16, #tile.nvmma_shared<swizzle = 128>>
// CHECK: %[[FULL:.*]] = tile.barrier_alloc count 2 : !tile.smem<3xi64>
// CHECK: scf.if
// CHECK:   %[[S0:.*]] = tile.local_index %[[RA]][%{{.*}}]
// CHECK:   tile.async_load %arg0[%{{.*}}, %{{.*}}] into %[[S0]], %[[FULL]][%{{.*}}]
// CHECK:   tile.async_load %arg1
// CHECK: scf.if
// CHECK:   tile.async_load %arg0
// CHECK:   tile.async_load %arg1
// CHECK-NOT: tile.async_load
// CHECK: %[[R:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC:.*]] = {{.*}})
// CHECK:   %[[STAGE:.*]] = arith.remui %[[K]], %[[C3]]
// CHECK:   %[[ROUND:.*]] = arith.divui %[[K]], %[[C3]]
// CHECK:   %[[PHASE:.*]] = arith.trunci
// CHECK:   tile.barrier_wait %[[FULL]][%[[STAGE]]], %[[PHASE]]
// CHECK:   %[[SA:.*]] = tile.local_index %[[RA]][%[[STAGE]]]
// CHECK:   %[[SB:.*]] = tile.local_index %[[RB]][%[[STAGE]]]
// CHECK:   %[[D:.*]] = tile.warpgroup_mma %[[SA]], %[[SB]], %[[ACC]]
// CHECK:   %[[W:.*]] = tile.warpgroup_mma_wait %[[D]] pending 1
// CHECK:   tile.sync_threads
// CHECK:   %[[AHEAD:.*]] = arith.addi %[[K]], %[[C2]]
// CHECK:   scf.if
// CHECK:     tile.async_load %arg0[%{{.*}}, %[[AHEAD]]]
// CHECK:     tile.async_load %arg1[%[[AHEAD]], %{{.*}}]
// CHECK:   scf.yield %[[W]]
// CHECK: %[[DONE:.*]] = tile.warpgroup_mma_wait %[[R]] pending 0
// CHECK: tile.store %[[DONE]]
tile.kernel @gemm(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %i = tile.program_id x : index
  %j = tile.program_id y : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<128x256xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %z) -> (tensor<128x256xf32>) {
    %ta = tile.load %a[%i, %k] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %b[%k, %j] : !tile.view<?x?xbf16> -> tensor<64x256xbf16>
    %d = tile.mma %ta, %tb, %s : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  tile.store %acc, %c[%i, %j] : tensor<128x256xf32> -> !tile.view<?x?xf32>
}

// -----

// A latency hint sets the depth (5 here), shared memory bounds it: four
// 48 KB stages fit in 227 KB, so a hint of 9 gets 4. The cache hint goes
// to the TMA copy.
// CHECK-LABEL: tile.kernel @hinted
// CHECK: tile.local_alloc : !tile.smem<5x128x64xbf16
// CHECK-LABEL: tile.kernel @deep
// CHECK: tile.local_alloc : !tile.smem<4x128x64xbf16
// CHECK: tile.async_load %arg0{{.*}} cache(evict_last)
tile.kernel @hinted(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<128x64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %z) -> (tensor<128x64xf32>) {
    %ta = tile.load %a[%c0, %k] latency(5) : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %a[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %d = tile.mma %ta, %tb, %s : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
    scf.yield %d : tensor<128x64xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<128x64xf32> -> !tile.view<?x?xf32>
}
tile.kernel @deep(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<128x256xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %z) -> (tensor<128x256xf32>) {
    %ta = tile.load %a[%c0, %k] latency(9) cache(evict_last) : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %a[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x256xbf16>
    %d = tile.mma %ta, %tb, %s : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<128x256xf32> -> !tile.view<?x?xf32>
}

// -----

// Left alone: a non-zero padding (TMA fills zeros; B is still copied
// ahead, A is loaded in the loop), and a tile index that depends on the
// loop-carried value (the copy ahead cannot compute it).
// CHECK-LABEL: tile.kernel @padded
// CHECK: tile.barrier_alloc count 1 : !tile.smem<3xi64>
// CHECK: tile.async_load %arg0[%c0, %c0] into
// CHECK: scf.for
// CHECK: tile.barrier_wait
// CHECK: tile.load %arg0[%c0, %{{.*}}] padding(1.0
// CHECK: tile.local_alloc %{{.*}} : tensor<128x64xbf16
// CHECK-LABEL: tile.kernel @carried
// CHECK-NOT: tile.async_load
// CHECK: tile.warpgroup_mma_wait %{{.*}} pending 0
tile.kernel @padded(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<128x64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %z) -> (tensor<128x64xf32>) {
    %ta = tile.load %a[%c0, %k] padding(1.0) : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %a[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %d = tile.mma %ta, %tb, %s : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
    scf.yield %d : tensor<128x64xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<128x64xf32> -> !tile.view<?x?xf32>
}
tile.kernel @carried(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<128x64xf32>
  %acc:2 = scf.for %k = %c0 to %n step %c1 iter_args(%s = %z, %p = %c0) -> (tensor<128x64xf32>, index) {
    %ta = tile.load %a[%c0, %p] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %a[%p, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %d = tile.mma %ta, %tb, %s : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
    %q = arith.addi %p, %k : index
    scf.yield %d, %q : tensor<128x64xf32>, index
  }
  tile.store %acc#0, %c[%c0, %c0] : tensor<128x64xf32> -> !tile.view<?x?xf32>
}

// -----

// An `at_use` operand is loaded where it is written: B is copied ahead
// into its ring, A is loaded in the loop and written to shared memory.
// CHECK-LABEL: tile.kernel @operand_at_use
// CHECK: tile.barrier_alloc count 1 : !tile.smem<3xi64>
// CHECK-NOT: tile.async_load %arg0
// CHECK: tile.async_load %arg1[%c0, %c0] into
// CHECK: scf.for
// CHECK: tile.barrier_wait
// CHECK: tile.load %arg0[%c0, %{{.*}}] at_use
// CHECK: tile.local_alloc %{{.*}} : tensor<128x64xbf16
tile.kernel @operand_at_use(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<128x64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %z) -> (tensor<128x64xf32>) {
    %ta = tile.load %a[%c0, %k] at_use : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %b[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %d = tile.mma %ta, %tb, %s : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
    scf.yield %d : tensor<128x64xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<128x64xf32> -> !tile.view<?x?xf32>
}

// -----

// sm_80: the same ring with cp.async copies into the ldmatrix operands;
// every thread arrives once per copy (2 copies x 128 threads).
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-accelerate-mma=target=sm_80 --canonicalize --tile-remove-layout-conversions --canonicalize --tile-pipeline="stages=3 target=sm_80" --canonicalize | FileCheck %s --check-prefix=SM80
// SM80-LABEL: tile.kernel @ampere
// SM80: tile.local_alloc : !tile.smem<3x64x32xbf16, #tile.nvmma_shared<swizzle = 64>>
// SM80: tile.local_alloc : !tile.smem<3x32x64xbf16, #tile.nvmma_shared<swizzle = 128>>
// SM80: tile.barrier_alloc count 256 : !tile.smem<3xi64>
// SM80: tile.async_load %arg0{{.*}} cp_async
// SM80: scf.for
// SM80: tile.barrier_wait
// SM80: tile.local_load {{.*}} -> tensor<64x32xbf16, #dot_op
// SM80: tile.local_load {{.*}} -> tensor<32x64xbf16, #dot_op
// SM80: tile.mma
// SM80: tile.sync_threads
// SM80: tile.async_load {{.*}} cp_async
// SM80-NOT: tile.warpgroup_mma_wait
tile.kernel @ampere(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %i = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %z) -> (tensor<64x64xf32>) {
    %ta = tile.load %a[%i, %k] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %b[%k, %i] : !tile.view<?x?xbf16> -> tensor<32x64xbf16>
    %d = tile.mma %ta, %tb, %s : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %acc, %c[%i, %i] : tensor<64x64xf32> -> !tile.view<?x?xf32>
}

// -----

// Other loads whose tile index follows from the induction variable are
// issued one iteration ahead into loop-carried registers (first thing in
// the body); a load from a view the loop stores to is left in place.
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-pipeline --canonicalize | FileCheck %s --check-prefix=REG
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-pipeline=register-prefetch=false --canonicalize | FileCheck %s --check-prefix=NOREG
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-pipeline=hoist-invariant-loads=false --canonicalize | FileCheck %s --check-prefix=NOHOIST
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-pipeline=late-loads-in-iteration=true --canonicalize | FileCheck %s --check-prefix=LATE
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-pipeline="register-prefetch=false hoist-invariant-loads=false" --canonicalize | FileCheck %s --check-prefix=NEITHER
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-pipeline=register-prefetch-budget=64 --canonicalize | FileCheck %s --check-prefix=BUDGET
// REG-LABEL: tile.kernel @scan
// REG: %[[FIRST:.*]] = tile.load %arg0[%c0, %{{.*}}]
// REG: scf.for %[[K:.*]] = %{{.*}} iter_args(%[[CARRY:.*]] = %{{.*}}, %[[CUR:.*]] = %[[FIRST]])
// REG-NEXT: %[[NEXT:.*]] = arith.addi %[[K]], %c1
// REG-NEXT: tile.load %arg0[%[[NEXT]], %{{.*}}]
// REG: tile.load %arg1[%[[K]]
// REG: arith.addf %[[CARRY]], %[[CUR]]
// NOREG-LABEL: tile.kernel @scan
// NOREG: scf.for {{.*}} iter_args(%{{[^,]*}}) -> (tensor<64x128xf32
// NOHOIST-LABEL: tile.kernel @scan
// NOHOIST: scf.for {{.*}} iter_args(%{{.*}}, %{{.*}}) -> (tensor<64x128xf32
tile.kernel @scan(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x128xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%run = %z) -> (tensor<64x128xf32>) {
    %t = tile.load %x[%k, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %u = tile.load %y[%k, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %s = arith.addf %run, %t : tensor<64x128xf32>
    %v = arith.addf %s, %u : tensor<64x128xf32>
    tile.store %v, %y[%k, %c0] : tensor<64x128xf32> -> !tile.view<?x?xf32>
    scf.yield %s : tensor<64x128xf32>
  }
}

// -----

// Register prefetch and hoisting clone index ops where nothing guards them
// (the last iteration computes the next one's; a hoisted load runs even when
// the loop does not), so a division by a kernel value, which is not
// speculatable, keeps both loads in their iteration.
// REG-LABEL: tile.kernel @divided_indices
// REG: scf.for %{{.*}} = %c0 to %arg4 step %c1 {
// REG-NEXT: arith.divsi %arg2, %arg3
// REG-NEXT: tile.load %arg0
// REG-NEXT: arith.divsi %{{.*}}, %arg3
// REG-NEXT: tile.load %arg0
tile.kernel @divided_indices(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %ch: index, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %row = arith.divsi %ch, %m : index
    %t = tile.load %x[%row, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %r = arith.divsi %k, %m : index
    %u = tile.load %x[%r, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %s = arith.addf %t, %u : tensor<64x128xf32>
    tile.store %s, %y[%k, %c0] : tensor<64x128xf32> -> !tile.view<?x?xf32>
  }
}

// -----

// A load of the same tile in every iteration (its index computed in the
// loop, but not from the induction variable) moves before the loop with its
// index: read once rather than carried. One from a view the loop stores to
// stays where it is.
// REG-LABEL: tile.kernel @invariant
// REG: %[[ROW:.*]] = arith.muli %arg3, %c2
// REG-NEXT: %[[W:.*]] = tile.load %arg0[%[[ROW]], %c0]
// REG-NEXT: scf.for
// REG-NOT: tile.load %arg0
// REG: tile.load %arg1[%{{.*}}, %c0]
// REG: arith.addf %[[W]]
// REG: tile.store
// Without register prefetch the invariant load still moves; without
// hoisting it is prefetched like the others instead (a loop-carried tile);
// with neither it stays where it is.
// NOREG-LABEL: tile.kernel @invariant
// NOREG: %[[W:.*]] = tile.load %arg0
// NOREG-NEXT: scf.for
// NOREG-NOT: tile.load %arg0
// NOREG: arith.addf %[[W]]
// NOHOIST-LABEL: tile.kernel @invariant
// NOHOIST: tile.load %arg0
// NOHOIST: scf.for {{.*}} iter_args(%[[CUR:.*]] = %{{.*}})
// NOHOIST: tile.load %arg0
// NOHOIST: arith.addf %[[CUR]]
// NEITHER-LABEL: tile.kernel @invariant
// NEITHER-NOT: tile.load
// NEITHER: scf.for
// NEITHER-NOT: iter_args
// NEITHER: tile.load %arg0
// NEITHER-LABEL: tile.kernel @gate_after_product
tile.kernel @invariant(%w: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index, %ch: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %k = %c0 to %n step %c1 {
    %row = arith.muli %ch, %c2 : index
    %t = tile.load %w[%row, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %u = tile.load %y[%row, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %v = arith.addf %t, %u : tensor<64x128xf32>
    tile.store %v, %y[%k, %c0] : tensor<64x128xf32> -> !tile.view<?x?xf32>
  }
}

// -----

// A load first used after a Tensor Core product (the gate %g here): carried
// one iteration ahead like the others by default (two copies of its tile
// live through the body); with late-loads-in-iteration, issued at the top
// of its own iteration instead (the product hides its latency), while the
// product's operands stay carried.
// REG-LABEL: tile.kernel @gate_after_product
// REG: scf.for {{.*}} iter_args({{.*}}, {{.*}}, {{.*}}) -> (tensor<64x64xbf16
// LATE-LABEL: tile.kernel @gate_after_product
// LATE: scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%[[A:[^ ]*]] = {{[^,]*}}, %[[B:[^ ]*]] = {{[^,)]*}}) -> (tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>) {
// LATE: %[[G:.*]] = tile.load %arg2[%[[K]], %c0]
// LATE-NEXT: tile.mma %[[A]], %[[B]]
// LATE: arith.mulf %{{.*}}, %[[G]]
// NOREG-LABEL: tile.kernel @gate_after_product
// NOREG: scf.for
// NOREG-NOT: iter_args
// NOREG: tile.mma
// NOREG: tile.load %arg2
// Each tile takes 32 registers a thread on four warps: a budget of 64
// carries the product's operands, taken first in program order, and leaves
// the gate's load next to its use.
// BUDGET-LABEL: tile.kernel @gate_after_product
// BUDGET: scf.for %[[K:[^ ]*]] = {{.*}} iter_args({{[^,]*}}, {{[^,)]*}}) -> (tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>) {
// BUDGET: tile.mma
// BUDGET-NEXT: tile.load %arg2[%[[K]], %c0]
tile.kernel @gate_after_product(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %g: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  scf.for %k = %c0 to %n step %c1 {
    %ta = tile.load %a[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %tb = tile.load %b[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %p = tile.mma %ta, %tb, %z : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %tg = tile.load %g[%k, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
    %r = arith.mulf %p, %tg : tensor<64x64xf32>
    tile.store %r, %y[%k, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  }
}

// -----

// The late load's index computed after the product and shared with the
// store, and the product and the use nested in an scf.if: the index op
// moves up with the load (the store still sees it), and a product inside a
// nested region counts.
// LATE-LABEL: tile.kernel @late_shared_index
// LATE: scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%[[A:[^ ]*]] = {{[^)]*}}) -> (tensor<64x64xbf16, #blocked>) {
// LATE: %[[ROW:.*]] = arith.addi %[[K]], %arg5
// LATE-NEXT: %[[G:.*]] = tile.load %arg2[%[[ROW]], %c0]
// LATE: scf.if
// LATE: tile.mma %[[A]]
// LATE: arith.mulf %{{.*}}, %[[G]]
// LATE: tile.store %{{.*}}, %arg3[%[[ROW]], %c0]
tile.kernel @late_shared_index(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %g: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index, %off: index, %mode: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %flag = arith.cmpi ne, %mode, %zero : i32
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %tb = tile.load %b[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  scf.for %k = %c0 to %n step %c1 {
    %ta = tile.load %a[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %r = scf.if %flag -> (tensor<64x64xf32>) {
      %p = tile.mma %ta, %tb, %z : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %p : tensor<64x64xf32>
    } else {
      scf.yield %z : tensor<64x64xf32>
    }
    %row = arith.addi %k, %off : index
    %tg = tile.load %g[%row, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
    %v = arith.mulf %r, %tg : tensor<64x64xf32>
    tile.store %v, %y[%row, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  }
}

// -----

// `at_use` loads stay where they are written, whatever the options: %w's
// tile (the same in every iteration) is not hoisted and %x's is not
// carried ahead, while the plain load of %u is.
// REG-LABEL: tile.kernel @at_use
// REG: scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%[[CUR:[^ ]*]] = {{[^)]*}}) -> (tensor<64x128xf32
// REG: tile.load %arg0[%arg5, %c0] at_use
// REG-NEXT: tile.load %arg1[%[[K]], %c0] at_use
// REG: arith.addf %{{.*}}, %[[CUR]]
// LATE-LABEL: tile.kernel @at_use
// LATE: scf.for
// LATE: tile.load %arg0[%arg5, %c0] at_use
// LATE-NEXT: tile.load %arg1[%{{.*}}, %c0] at_use
// NOHOIST-LABEL: tile.kernel @at_use
// NOHOIST: scf.for
// NOHOIST: tile.load %arg0[%arg5, %c0] at_use
// NOHOIST-NEXT: tile.load %arg1[%{{.*}}, %c0] at_use
tile.kernel @at_use(%w: !tile.view<?x?xf32>, %x: !tile.view<?x?xf32>, %u: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index, %ch: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %t = tile.load %w[%ch, %c0] at_use : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %s = tile.load %x[%k, %c0] at_use : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %v = tile.load %u[%k, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %a = arith.addf %t, %s : tensor<64x128xf32>
    %b = arith.addf %a, %v : tensor<64x128xf32>
    tile.store %b, %y[%k, %c0] : tensor<64x128xf32> -> !tile.view<?x?xf32>
  }
}

// -----

// sm_90a, views of rank 4 (x[b, t, h, p] read as 64 x 64 tiles): TMA takes
// 2-D views here, so the ring is filled with cp.async (rows(1): the tile's
// rows run along dimension 1). A tile that is both an mma operand and read
// elementwise is written to shared memory once and read back from there
// (no copy kept in registers); an operand computed in the loop stays.
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-accelerate-mma=target=sm_90a --canonicalize --tile-remove-layout-conversions --canonicalize --tile-pipeline="stages=2 target=sm_90a" --canonicalize | FileCheck %s --check-prefix=RANK4
// RANK4-LABEL: tile.kernel @rank4
// RANK4: %[[RING:.*]] = tile.local_alloc : !tile.smem<2x64x64xbf16
// RANK4: tile.barrier_alloc count 128 : !tile.smem<2xi64>
// RANK4: tile.async_load %arg0[%c0, %c0, %c0, %c0] into {{.*}} rows(1) cp_async
// RANK4: scf.for
// RANK4: tile.barrier_wait
// RANK4: %[[X:.*]] = tile.local_index %[[RING]]
// RANK4: tile.local_load %[[X]] {{.*}} -> tensor<64x64xbf16, #blocked
// RANK4: %[[SQ:.*]] = tile.local_alloc %{{.*}} : tensor<64x64xbf16, #blocked>
// RANK4: tile.warpgroup_mma %[[SQ]], %[[X]]
// RANK4: tile.sync_threads
// RANK4: tile.async_load %arg0[%c0, %{{.*}}, %c0, %c0] into {{.*}} rows(1) cp_async
tile.kernel @rank4(%x: !tile.view<?x?x?x?xbf16>, %y: !tile.view<?x?x?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  scf.for %k = %c0 to %n step %c1 {
    %l = tile.load %x[%c0, %k, %c0, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x64x1x64xbf16>
    %t = tile.reshape %l : tensor<1x64x1x64xbf16> -> tensor<64x64xbf16>
    %f = arith.extf %t : tensor<64x64xbf16> to tensor<64x64xf32>
    %sq = arith.mulf %f, %f : tensor<64x64xf32>
    %a = arith.truncf %sq : tensor<64x64xf32> to tensor<64x64xbf16>
    %d = tile.mma %a, %t, %z : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %o = arith.addf %d, %f : tensor<64x64xf32>
    %r = tile.reshape %o : tensor<64x64xf32> -> tensor<1x64x1x64xf32>
    tile.store %r, %y[%c0, %k, %c0, %c0] : tensor<1x64x1x64xf32> -> !tile.view<?x?x?x?xf32>
  }
}

// -----

// Row indices divided by a kernel argument (a program walking several
// row pairs of several batch rows, as the convolution's inner pass could):
// arith.divsi is not speculatable (the divisor may be zero), but the
// copies run only for iterations the loop runs (the prologue's and the
// refill's scf.if on iv < ub), where the division would run anyway. The
// index ops are cloned inside those guards.
// RANK4-LABEL: tile.kernel @divided_rows
// RANK4: tile.local_alloc : !tile.smem<2x64x64xbf16
// RANK4: scf.if
// RANK4-NEXT: arith.divsi %c0, %arg2
// RANK4: tile.async_load %arg0[%c0, %{{.*}}, %{{.*}}, %c0] into {{.*}} rows(1) cp_async
// RANK4: scf.for %[[K:.*]] =
// RANK4: tile.barrier_wait
// RANK4-NOT: tile.load %arg0
// RANK4: tile.warpgroup_mma
// RANK4: tile.sync_threads
// RANK4: scf.if
// RANK4-NEXT: arith.divsi
// RANK4: tile.async_load %arg0[%c0, %{{.*}}, %{{.*}}, %c0] into {{.*}} rows(1) cp_async
tile.kernel @divided_rows(%x: !tile.view<?x?x?x?xbf16>, %y: !tile.view<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %w = arith.constant dense<1.0> : tensor<64x64xbf16>
  scf.for %k = %c0 to %n step %c1 {
    %pair = arith.divsi %k, %m : index
    %row = arith.remsi %k, %m : index
    %rows = arith.muli %pair, %c64 : index
    %l = tile.load %x[%c0, %rows, %row, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x64x1x64xbf16>
    %t = tile.reshape %l : tensor<1x64x1x64xbf16> -> tensor<64x64xbf16>
    %d = tile.mma %w, %t, %z : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %at = arith.muli %k, %c64 : index
    tile.store %d, %y[%at, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  }
}

// -----

// An unsigned loop's copies are guarded by its own comparison (ult): from a
// lower bound above the upper one as signed numbers it runs no iteration.
// RANK4-LABEL: tile.kernel @unsigned_rows
// RANK4: arith.cmpi ult, %arg2, %arg3
// RANK4-NEXT: scf.if
// RANK4: scf.for unsigned
// RANK4: arith.cmpi ult
// RANK4-NEXT: scf.if
tile.kernel @unsigned_rows(%x: !tile.view<?x?x?x?xbf16>, %y: !tile.view<?x?xf32>, %lo: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %w = arith.constant dense<1.0> : tensor<64x64xbf16>
  scf.for unsigned %k = %lo to %n step %c1 {
    %l = tile.load %x[%c0, %c0, %k, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x64x1x64xbf16>
    %t = tile.reshape %l : tensor<1x64x1x64xbf16> -> tensor<64x64xbf16>
    %d = tile.mma %w, %t, %z : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %at = arith.muli %k, %c64 : index
    tile.store %d, %y[%at, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  }
}

// -----

// An in-place update: each iteration stores rows a later one reads as
// its B operand, so a copy issued stages ahead could read them before the
// store. Any store to the view keeps its loads where they are: no ring, the
// operands are loaded in the iteration that uses them. (The convolution's
// inner pass writes a second buffer instead.)
// CHECK-LABEL: tile.kernel @in_place
// CHECK-NOT: tile.async_load
// CHECK: scf.for
// CHECK:   tile.load %arg1
// CHECK:   tile.warpgroup_mma
// CHECK:   tile.store {{.*}}, %arg1
tile.kernel @in_place(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
  scf.for %k = %c0 to %n step %c1 {
    %tb = tile.load %b[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %z = arith.constant dense<0.0> : tensor<128x64xf32>
    %d = tile.mma %ta, %tb, %z : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
    %h = arith.truncf %d : tensor<128x64xf32> to tensor<128x64xbf16>
    %next = arith.addi %k, %c1 : index
    tile.store %h, %b[%next, %c0] : tensor<128x64xbf16> -> !tile.view<?x?xbf16>
  }
}
