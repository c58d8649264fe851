// tile-compile --no-hoist-invariants: LLVM's O3 without LICM, so the
// per-thread address arithmetic a loop body uses (here lane * 32 bytes, the
// start of each thread's four-element piece) is recomputed in the loop
// instead of held in a register across it. The barrier at the top of the
// body marks where the loop starts.
// RUN: tile-compile %s --no-pipeline | FileCheck %s --check-prefix=HOIST
// RUN: tile-compile %s --no-pipeline --no-hoist-invariants | FileCheck %s --check-prefix=NOHOIST

// HOIST:      mul.wide.u32 {{.*}}, 32;
// HOIST:      bar.sync
// HOIST-NOT:  mul.wide.u32 {{.*}}, 32;
// NOHOIST:    bar.sync
// NOHOIST:    mul.wide.u32 {{.*}}, 32;
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @invariant(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    tile.sync_threads
    %d = arith.muli %n, %m : index
    %o = arith.addi %k, %d : index
    %t = tile.load %x[%o] : !tile.view<?xf32> -> tensor<128xf32>
    tile.store %t, %y[%k] : tensor<128xf32> -> !tile.view<?xf32>
  }
  tile.return
}
}
