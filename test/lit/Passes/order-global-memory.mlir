// RUN: tile-opt %s -split-input-file --tile-order-global-memory | FileCheck %s
// The whole pipeline (layouts assigned: see order-global-memory-layouts.mlir
// for the tiles each thread reads back itself).
// RUN: tile-compile %s --target sm_90a | FileCheck %s --check-prefix=PTX

// A tile stored and loaded back: other threads may read what one wrote, so
// a barrier goes between them. A load after a load, or a store after a
// store, needs none.
// CHECK-LABEL: tile.kernel @read_after_write
// CHECK:         tile.store %{{.*}}, %arg1
// CHECK-NEXT:    tile.store %{{.*}}, %arg1
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    tile.load %arg1
// CHECK-NEXT:    tile.load %arg1
// CHECK-NOT:     tile.sync_threads
// CHECK:         tile.return
tile.kernel @read_after_write(%x: !tile.view<?x?xf32>, %work: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  tile.store %t, %work[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %work[%c1, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  %u = tile.load %work[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %v = tile.load %work[%c1, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %s = arith.addf %u, %v : tensor<64x64xf32>
  tile.store %s, %y[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// A store over what was read: the readers must be done first. Distinct
// views need nothing, and an existing barrier already orders.
// CHECK-LABEL: tile.kernel @write_after_read
// CHECK:         tile.load %arg0
// CHECK-NEXT:    tile.store %{{.*}}, %arg1
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    tile.store %{{.*}}, %arg0
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    tile.load %arg1
// CHECK-NOT:     tile.sync_threads
// CHECK:         tile.return
tile.kernel @write_after_read(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  tile.store %t, %y[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %x[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.sync_threads
  %u = tile.load %y[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  tile.return
}

// -----

// In a loop that loads a view and stores it back: the store waits for
// this iteration's readers, and the next iteration's load for this
// iteration's store (a barrier at the top of the body).
// CHECK-LABEL: tile.kernel @loop_carried
// CHECK:         scf.for
// CHECK-NEXT:      tile.sync_threads
// CHECK-NEXT:      tile.load %arg0
// CHECK:           tile.sync_threads
// CHECK-NEXT:      tile.store %{{.*}}, %arg0
// CHECK-NEXT:    }
tile.kernel @loop_carried(%w: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
    %d = arith.addf %t, %t : tensor<64x64xf32>
    tile.store %d, %w[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  }
  tile.return
}

// -----

// A view written before a loop that only reads it: one barrier before the
// loop, none in it, and none after it (the barrier before the loop orders
// the store whether the loop runs or not).
// CHECK-LABEL: tile.kernel @before_loop
// CHECK:         tile.store %{{.*}}, %arg1
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    scf.for
// CHECK-NOT:       tile.sync_threads
// CHECK:         }
// CHECK-NEXT:    tile.load %arg1
tile.kernel @before_loop(%x: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  tile.store %t, %w[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %u = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
    tile.store %u, %y[%i, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  }
  %v = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  tile.store %v, %y[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// A store in one branch of an scf.if: the load after it may follow it. A
// barrier at the end of both branches orders what follows; at the end of
// one only, not. (Each branch's store follows the load of %w before the
// scf.if, so it gets a barrier of its own first.)
// CHECK-LABEL: tile.kernel @branches
// CHECK:         scf.if
// CHECK-NEXT:      tile.store
// CHECK-NEXT:    }
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    tile.load %arg1
// CHECK:         scf.if
// CHECK-NEXT:      tile.sync_threads
// CHECK-NEXT:      tile.store
// CHECK-NEXT:      tile.sync_threads
// CHECK-NEXT:    } else {
// CHECK-NEXT:      tile.sync_threads
// CHECK-NEXT:      tile.store
// CHECK-NEXT:      tile.sync_threads
// CHECK-NEXT:    }
// CHECK-NEXT:    tile.load %arg1
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      tile.sync_threads
// CHECK-NEXT:      tile.store
// CHECK-NEXT:      tile.sync_threads
// CHECK-NEXT:    } else {
// CHECK-NEXT:      tile.sync_threads
// CHECK-NEXT:      tile.store
// CHECK-NEXT:    }
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    tile.load %arg1
tile.kernel @branches(%x: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>, %k: index) {
  %c0 = arith.constant 0 : index
  %c = arith.cmpi eq, %k, %c0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  scf.if %c {
    tile.store %t, %w[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  }
  %u = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  tile.store %u, %x[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  scf.if %c {
    tile.store %t, %w[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
    tile.sync_threads
  } else {
    tile.store %u, %w[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
    tile.sync_threads
  }
  %v = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  scf.if %c {
    tile.store %t, %w[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
    tile.sync_threads
  } else {
    tile.store %u, %w[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  }
  %q = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  tile.return
}

// -----

// scf.while: the condition region runs before every body and once more at
// the end. The body's store follows the condition's load (the readers
// first), and the condition's next load follows the store.
// CHECK-LABEL: tile.kernel @while_loop
// CHECK:         scf.while
// CHECK-NEXT:      tile.sync_threads
// CHECK-NEXT:      tile.load %arg0
// CHECK:         } do {
// CHECK:           tile.sync_threads
// CHECK-NEXT:      tile.store %{{.*}}, %arg0
tile.kernel @while_loop(%w: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %t = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    tile.store %z, %w[%j, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  tile.return
}

// -----

// State carried through a loop that may not run: the store before a loop
// that does not touch the view still orders against the load after it.
// A loop that stores to a view read before it gets one barrier before it
// (not one an iteration); a while's body store orders against the load
// after the loop; the inner loop's store reaches the outer body's next
// load.
// CHECK-LABEL: tile.kernel @through_loops
// CHECK:         tile.store %{{.*}}, %arg1
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      tile.store %{{.*}}, %arg2
// CHECK-NEXT:    }
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    tile.load %arg1
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    scf.while
// CHECK:         } do {
// CHECK-NOT:       tile.sync_threads
// CHECK:           tile.store %{{.*}}, %arg1
// CHECK:         }
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    tile.load %arg1
// CHECK-NEXT:    tile.sync_threads
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      tile.sync_threads
// CHECK-NEXT:      tile.load %arg1
// CHECK-NEXT:      tile.sync_threads
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        tile.store %{{.*}}, %arg2
// CHECK-NEXT:        tile.store %{{.*}}, %arg1
// CHECK-NEXT:      }
// CHECK-NEXT:    }
tile.kernel @through_loops(%x: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  tile.store %t, %w[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  scf.for %i = %c0 to %n step %c1 {
    tile.store %t, %y[%i, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  }
  %u = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %r = scf.while (%j = %c0) : (index) -> index {
    %more = arith.cmpi slt, %j, %n : index
    scf.condition(%more) %j : index
  } do {
  ^bb0(%j: index):
    tile.store %u, %w[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  %v = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  scf.for %i = %c0 to %n step %c1 {
    %a = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
    scf.for %k = %c0 to %n step %c1 {
      tile.store %a, %y[%k, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
      tile.store %v, %w[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
    }
  }
  tile.return
}

// -----

// A one-wide tile stored and reloaded (each thread its own elements, no
// barrier needed): its ld.global is asm with side effects (the kernel
// stores to its view), so CSE does not merge the reload into the first
// load across the store.
// PTX-LABEL: .entry reload_column(
// PTX:         ld.global
// PTX:         st.global
// PTX:         ld.global
// PTX:         st.global
tile.kernel @reload_column(%a: !tile.view<?x?xf32>, %b: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<32x1xf32>
  %t2 = arith.addf %t, %t : tensor<32x1xf32>
  tile.store %t2, %a[%c0, %c0] : tensor<32x1xf32> -> !tile.view<?x?xf32>
  %u = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<32x1xf32>
  %v = arith.addf %u, %t : tensor<32x1xf32>
  tile.store %v, %b[%c0, %c0] : tensor<32x1xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// wgmma operands from views the kernel writes before the loop: no TMA
// copies of them (a bulk copy reads through the async proxy, which the
// barrier does not order after the kernel's stores); plain loads instead.
// PTX-LABEL: .entry workspace_operands(
// PTX-NOT:     cp.async.bulk.tensor
// PTX:         wgmma.mma_async
// PTX-NOT:     cp.async.bulk.tensor
// PTX:         ret;
tile.kernel @workspace_operands(%x: !tile.view<?x?xbf16>, %w1: !tile.view<?x?xbf16>, %w2: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %nk: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tile.program_id x : index
  %t = tile.load %x[%m, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  tile.store %t, %w1[%m, %c0] : tensor<64x64xbf16> -> !tile.view<?x?xbf16>
  tile.store %t, %w2[%m, %c0] : tensor<64x64xbf16> -> !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %z) -> tensor<64x64xf32> {
    %a = tile.load %w1[%m, %k] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %b = tile.load %w2[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %d = tile.mma %a, %b, %acc : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %r, %c[%m, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// Half of a stored tile read back: other threads' elements, so bar.sync
// between the stores and the loads on the GPU too.
// PTX-LABEL: .entry reload_half(
// PTX:         st.global
// PTX:         bar.sync 0;
// PTX:         ld.global
tile.kernel @reload_half(%x: !tile.view<?x?xf32>, %work: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  tile.store %t, %work[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  %u = tile.load %work[%c1, %c0] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  tile.store %u, %y[%c0, %c0] : tensor<32x64xf32> -> !tile.view<?x?xf32>
  tile.return
}
