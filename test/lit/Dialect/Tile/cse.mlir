// -cse merges identical pure tile ops, and identical loads with no store
// between them, but never a load across a store (tile.load reads and
// tile.store writes the default memory resource).
//
// RUN: tile-opt %s -cse -split-input-file | FileCheck %s

// CHECK-LABEL: tile.kernel @pure_ops(
tile.kernel @pure_ops(%x: !tile.view<?x?xf32>, %v: !tile.view<?xi32>, %s: f32) {
  // CHECK-NEXT: %[[P:.*]] = tile.program_id x : index
  // CHECK-NEXT: %[[N:.*]] = tile.num_programs y : index
  // CHECK-NEXT: %[[D:.*]] = tile.dim
  // CHECK-NEXT: %[[I:.*]] = tile.iota
  // CHECK-NEXT: %[[S:.*]] = tile.splat
  // CHECK-NEXT: %[[R:.*]] = tile.reshape %[[S]]
  // CHECK-NEXT: %[[B:.*]] = tile.broadcast %[[R]]
  // CHECK-NEXT: %[[T:.*]] = tile.permute %[[B]]
  // CHECK-NEXT: %[[M:.*]] = tile.reduce max %[[T]]
  // CHECK-NEXT: %[[C:.*]] = tile.scan sum %[[M]]
  // CHECK-NEXT: %[[Y:.*]] = tile.mma %[[T]], %[[B]], %[[T]]
  // CHECK-NEXT: arith.addf %[[Y]], %[[Y]]
  // CHECK-NEXT: arith.addi %[[P]], %[[P]]
  // CHECK-NEXT: arith.addi %[[N]], %[[N]]
  // CHECK-NEXT: arith.addi %[[D]], %[[D]]
  // CHECK-NEXT: arith.addi %[[I]], %[[I]]
  // CHECK-NEXT: arith.addf %[[C]], %[[C]]
  %p0 = tile.program_id x : index
  %p1 = tile.program_id x : index
  %n0 = tile.num_programs y : index
  %n1 = tile.num_programs y : index
  %d0 = tile.dim %x[0] : !tile.view<?x?xf32>
  %d1 = tile.dim %x[0] : !tile.view<?x?xf32>
  %i0 = tile.iota : tensor<64xi32>
  %i1 = tile.iota : tensor<64xi32>
  %s0 = tile.splat %s : f32 -> tensor<64xf32>
  %s1 = tile.splat %s : f32 -> tensor<64xf32>
  %r0 = tile.reshape %s0 : tensor<64xf32> -> tensor<64x1xf32>
  %r1 = tile.reshape %s1 : tensor<64xf32> -> tensor<64x1xf32>
  %b0 = tile.broadcast %r0 : tensor<64x1xf32> -> tensor<64x64xf32>
  %b1 = tile.broadcast %r1 : tensor<64x1xf32> -> tensor<64x64xf32>
  %t0 = tile.permute %b0 [1, 0] : tensor<64x64xf32> -> tensor<64x64xf32>
  %t1 = tile.permute %b1 [1, 0] : tensor<64x64xf32> -> tensor<64x64xf32>
  %m0 = tile.reduce max %t0 axis 1 : tensor<64x64xf32> -> tensor<64x1xf32>
  %m1 = tile.reduce max %t1 axis 1 : tensor<64x64xf32> -> tensor<64x1xf32>
  %c0 = tile.scan sum %m0 axis 0 : tensor<64x1xf32>
  %c1 = tile.scan sum %m1 axis 0 : tensor<64x1xf32>
  %y0 = tile.mma %t0, %b0, %t1 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
  %y1 = tile.mma %t1, %b1, %t0 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
  %z = arith.addf %y0, %y1 : tensor<64x64xf32>
  %q = arith.addi %p0, %p1 : index
  %r = arith.addi %n0, %n1 : index
  %d = arith.addi %d0, %d1 : index
  %i = arith.addi %i0, %i1 : tensor<64xi32>
  %c = arith.addf %c0, %c1 : tensor<64x1xf32>
  tile.store %z, %x[%q, %r] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %c, %x[%d, %r] : tensor<64x1xf32> -> !tile.view<?x?xf32>
  tile.store %i, %v[%d] : tensor<64xi32> -> !tile.view<?xi32>
  tile.return
}

// -----

// Ops that differ in an attribute are not merged.
// CHECK-LABEL: tile.kernel @attributes_differ(
tile.kernel @attributes_differ(%x: !tile.view<?xf32>, %i: index) {
  // CHECK: tile.program_id x
  // CHECK: tile.program_id y
  // CHECK: tile.scan sum %{{.*}} axis 0 :
  // CHECK: tile.scan sum %{{.*}} axis 0 reverse :
  // CHECK: tile.load %{{.*}} latency(2)
  // CHECK: tile.load %{{.*}} latency(3)
  %p0 = tile.program_id x : index
  %p1 = tile.program_id y : index
  %t = tile.iota : tensor<64xi32>
  %a = tile.scan sum %t axis 0 : tensor<64xi32>
  %b = tile.scan sum %t axis 0 reverse : tensor<64xi32>
  %l0 = tile.load %x[%i] latency(2) : !tile.view<?xf32> -> tensor<64xf32>
  %l1 = tile.load %x[%i] latency(3) : !tile.view<?xf32> -> tensor<64xf32>
  %s = arith.addf %l0, %l1 : tensor<64xf32>
  %ab = arith.addi %a, %b : tensor<64xi32>
  %abf = arith.sitofp %ab : tensor<64xi32> to tensor<64xf32>
  %u = arith.addf %s, %abf : tensor<64xf32>
  tile.store %u, %x[%p0] : tensor<64xf32> -> !tile.view<?xf32>
  tile.store %u, %x[%p1] : tensor<64xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

// Two identical loads with nothing written between them are one load.
// CHECK-LABEL: tile.kernel @loads_without_store(
// CHECK-SAME:    %[[X:[^:]*]]: !tile.view<?xf32>, %[[Y:[^:]*]]: !tile.view<?xf32>, %[[I:[^:]*]]: index)
tile.kernel @loads_without_store(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %i: index) {
  // CHECK-NEXT: %[[L:.*]] = tile.load %[[X]][%[[I]]]
  // CHECK-NEXT: %[[S:.*]] = arith.addf %[[L]], %[[L]]
  // CHECK-NEXT: tile.store %[[S]], %[[Y]][%[[I]]]
  // CHECK-NEXT: tile.return
  %a = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xf32>
  %b = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xf32>
  %s = arith.addf %a, %b : tensor<64xf32>
  tile.store %s, %y[%i] : tensor<64xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

// A store between two identical loads keeps both: it may have written what
// the second load reads (views may alias).
// CHECK-LABEL: tile.kernel @loads_across_store(
// CHECK-SAME:    %[[X:[^:]*]]: !tile.view<?xf32>, %[[Y:[^:]*]]: !tile.view<?xf32>, %[[I:[^:]*]]: index)
tile.kernel @loads_across_store(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %i: index) {
  // CHECK-NEXT: %[[A:.*]] = tile.load %[[X]][%[[I]]]
  // CHECK-NEXT: tile.store %[[A]], %[[Y]][%[[I]]]
  // CHECK-NEXT: %[[B:.*]] = tile.load %[[X]][%[[I]]]
  // CHECK-NEXT: tile.store %[[B]], %[[Y]][%[[I]]]
  // CHECK-NEXT: tile.return
  %a = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xf32>
  tile.store %a, %y[%i] : tensor<64xf32> -> !tile.view<?xf32>
  %b = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xf32>
  tile.store %b, %y[%i] : tensor<64xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

// Two identical stores are both kept.
// CHECK-LABEL: tile.kernel @stores(
tile.kernel @stores(%x: !tile.view<?xf32>, %i: index, %s: f32) {
  // CHECK: tile.store
  // CHECK-NEXT: tile.store
  %t = tile.splat %s : f32 -> tensor<64xf32>
  tile.store %t, %x[%i] : tensor<64xf32> -> !tile.view<?xf32>
  tile.store %t, %x[%i] : tensor<64xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

// A load in a loop body that stores is not hoisted or merged with the load
// before the loop.
// CHECK-LABEL: tile.kernel @load_in_loop(
tile.kernel @load_in_loop(%x: !tile.view<?xf32>, %i: index, %n: index) {
  // CHECK:      tile.load
  // CHECK:      scf.for
  // CHECK-NEXT:   tile.store
  // CHECK-NEXT:   tile.load
  // CHECK-NEXT:   tile.store
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xf32>
  scf.for %k = %c0 to %n step %c1 {
    tile.store %a, %x[%k] : tensor<64xf32> -> !tile.view<?xf32>
    %b = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xf32>
    tile.store %b, %x[%i] : tensor<64xf32> -> !tile.view<?xf32>
  }
  tile.return
}
