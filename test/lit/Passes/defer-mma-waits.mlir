// RUN: tile-opt %s -split-input-file --tile-defer-mma-waits | FileCheck %s

#blocked = #tile.blocked<spt = [1, 8], tpw = [16, 2], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>
#nv = #tile.nvmma_shared<swizzle = 128>
#nv32 = #tile.nvmma_shared<swizzle = 32>

// A complex product's shape: a chained pair accumulates onto the first's
// in-flight result (no wait between), the independent product is issued
// before anything waits, and the waits sit at the first reader.
// CHECK-LABEL: tile.kernel @complex
// CHECK: %[[Z:.*]] = arith.constant dense<0.0
// CHECK-NEXT: %[[D0:.*]] = tile.warpgroup_mma %{{.*}}, %{{.*}}, %[[Z]]
// CHECK-NEXT: %[[D1:.*]] = tile.warpgroup_mma %{{.*}}, %{{.*}}, %[[D0]]
// CHECK-NEXT: %[[D2:.*]] = tile.warpgroup_mma %{{.*}}, %{{.*}}, %[[Z]]
// CHECK-NEXT: %[[W1:.*]] = tile.warpgroup_mma_wait %[[D1]] pending 0
// CHECK-NEXT: %[[W2:.*]] = tile.warpgroup_mma_wait %[[D2]] pending 0
// CHECK-NEXT: arith.addf %[[W1]], %[[W2]]
// CHECK-NOT: tile.warpgroup_mma_wait
tile.kernel @complex(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #blocked>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x16xbf16, #blocked>
  %f = tile.local_alloc %ta : tensor<64x64xbf16, #blocked> -> !tile.smem<64x64xbf16, #nv>
  %x = tile.local_alloc %tb : tensor<64x16xbf16, #blocked> -> !tile.smem<64x16xbf16, #nv32>
  %z = arith.constant dense<0.0> : tensor<64x16xf32, #mma>
  %d0 = tile.warpgroup_mma %f, %x, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w0 = tile.warpgroup_mma_wait %d0 pending 0 : tensor<64x16xf32, #mma>
  %d1 = tile.warpgroup_mma %f, %x, %w0 : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w1 = tile.warpgroup_mma_wait %d1 pending 0 : tensor<64x16xf32, #mma>
  %d2 = tile.warpgroup_mma %f, %x, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w2 = tile.warpgroup_mma_wait %d2 pending 0 : tensor<64x16xf32, #mma>
  %s = arith.addf %w1, %w2 : tensor<64x16xf32, #mma>
  %o = tile.convert_layout %s : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #blocked>
  tile.store %o, %c[%i, %i] : tensor<64x16xf32, #blocked> -> !tile.view<?x?xf32>
}

// -----

#blocked = #tile.blocked<spt = [1, 8], tpw = [16, 2], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>
#nv = #tile.nvmma_shared<swizzle = 128>
#nv32 = #tile.nvmma_shared<swizzle = 32>

// No chaining when the waited result has another reader, or when the
// operand types differ (the pass asks for the same A type, which with the
// accumulator type fixes the instruction shape).
// CHECK-LABEL: tile.kernel @no_chain
// CHECK: %[[D0:.*]] = tile.warpgroup_mma
// CHECK-NEXT: %[[W0:.*]] = tile.warpgroup_mma_wait %[[D0]] pending 0
// CHECK-NEXT: %[[D1:.*]] = tile.warpgroup_mma %{{.*}}, %{{.*}}, %[[W0]]
// CHECK-NEXT: %[[D2:.*]] = tile.warpgroup_mma %{{.*}}, %{{.*}}, %[[W0]]
// CHECK-NEXT: %[[W1:.*]] = tile.warpgroup_mma_wait %[[D1]] pending 0
// CHECK-NEXT: %[[W2:.*]] = tile.warpgroup_mma_wait %[[D2]] pending 0
// CHECK: %[[D3:.*]] = tile.warpgroup_mma
// CHECK-NEXT: %[[W3:.*]] = tile.warpgroup_mma_wait %[[D3]] pending 0
// CHECK-NEXT: tile.warpgroup_mma %{{.*}}, %{{.*}}, %[[W3]] : !tile.smem<64x64xf16
tile.kernel @no_chain(%a: !tile.view<?x?xbf16>, %h: !tile.view<?x?xf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #blocked>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x16xbf16, #blocked>
  %th = tile.load %h[%i, %i] : !tile.view<?x?xf16> -> tensor<64x64xf16, #blocked>
  %tk = tile.load %h[%i, %i] : !tile.view<?x?xf16> -> tensor<64x16xf16, #blocked>
  %f = tile.local_alloc %ta : tensor<64x64xbf16, #blocked> -> !tile.smem<64x64xbf16, #nv>
  %x = tile.local_alloc %tb : tensor<64x16xbf16, #blocked> -> !tile.smem<64x16xbf16, #nv32>
  %fh = tile.local_alloc %th : tensor<64x64xf16, #blocked> -> !tile.smem<64x64xf16, #nv>
  %xh = tile.local_alloc %tk : tensor<64x16xf16, #blocked> -> !tile.smem<64x16xf16, #nv32>
  %z = arith.constant dense<0.0> : tensor<64x16xf32, #mma>
  %d0 = tile.warpgroup_mma %f, %x, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w0 = tile.warpgroup_mma_wait %d0 pending 0 : tensor<64x16xf32, #mma>
  %d1 = tile.warpgroup_mma %f, %x, %w0 : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w1 = tile.warpgroup_mma_wait %d1 pending 0 : tensor<64x16xf32, #mma>
  %d2 = tile.warpgroup_mma %f, %x, %w0 : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w2 = tile.warpgroup_mma_wait %d2 pending 0 : tensor<64x16xf32, #mma>
  %s = arith.addf %w1, %w2 : tensor<64x16xf32, #mma>
  %d3 = tile.warpgroup_mma %f, %x, %s : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w3 = tile.warpgroup_mma_wait %d3 pending 0 : tensor<64x16xf32, #mma>
  %d4 = tile.warpgroup_mma %fh, %xh, %w3 : !tile.smem<64x64xf16, #nv>, !tile.smem<64x16xf16, #nv32>, tensor<64x16xf32, #mma>
  %w4 = tile.warpgroup_mma_wait %d4 pending 0 : tensor<64x16xf32, #mma>
  %o = tile.convert_layout %w4 : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #blocked>
  tile.store %o, %c[%i, %i] : tensor<64x16xf32, #blocked> -> !tile.view<?x?xf32>
}

// -----

#blocked = #tile.blocked<spt = [1, 8], tpw = [16, 2], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>
#nv = #tile.nvmma_shared<swizzle = 128>
#nv32 = #tile.nvmma_shared<swizzle = 32>

// Where a wait stops: a CTA barrier (the other warps may then overwrite
// the operands), a new buffer (it could not share the operands' memory),
// an op with regions, an asynchronous copy into shared memory.
// CHECK-LABEL: tile.kernel @stops
// CHECK: %[[D0:.*]] = tile.warpgroup_mma
// CHECK-NEXT: arith.constant 1.0
// CHECK-NEXT: tile.warpgroup_mma_wait %[[D0]] pending 0
// CHECK-NEXT: tile.sync_threads
// CHECK: %[[D1:.*]] = tile.warpgroup_mma
// CHECK-NEXT: tile.warpgroup_mma_wait %[[D1]] pending 0
// CHECK-NEXT: tile.local_alloc
// CHECK: %[[D2:.*]] = tile.warpgroup_mma
// CHECK-NEXT: arith.constant 0
// CHECK-NEXT: arith.cmpi
// CHECK-NEXT: tile.warpgroup_mma_wait %[[D2]] pending 0
// CHECK-NEXT: scf.if
// CHECK: %[[D3:.*]] = tile.warpgroup_mma
// CHECK-NEXT: arith.constant 0
// CHECK-NEXT: tile.local_index
// CHECK-NEXT: tile.warpgroup_mma_wait %[[D3]] pending 0
// CHECK-NEXT: tile.async_load
tile.kernel @stops(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: i32) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #blocked>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x16xbf16, #blocked>
  %f = tile.local_alloc %ta : tensor<64x64xbf16, #blocked> -> !tile.smem<64x64xbf16, #nv>
  %x = tile.local_alloc %tb : tensor<64x16xbf16, #blocked> -> !tile.smem<64x16xbf16, #nv32>
  %ring = tile.local_alloc : !tile.smem<2x64x16xbf16, #nv32>
  %bar = tile.barrier_alloc count 1 : !tile.smem<2xi64>
  %z = arith.constant dense<0.0> : tensor<64x16xf32, #mma>
  %d0 = tile.warpgroup_mma %f, %x, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w0 = tile.warpgroup_mma_wait %d0 pending 0 : tensor<64x16xf32, #mma>
  %one = arith.constant 1.0 : f32
  tile.sync_threads
  %d1 = tile.warpgroup_mma %f, %x, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w1 = tile.warpgroup_mma_wait %d1 pending 0 : tensor<64x16xf32, #mma>
  %y = tile.local_alloc %tb : tensor<64x16xbf16, #blocked> -> !tile.smem<64x16xbf16, #nv32>
  %d2 = tile.warpgroup_mma %f, %y, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w2 = tile.warpgroup_mma_wait %d2 pending 0 : tensor<64x16xf32, #mma>
  %zero = arith.constant 0 : i32
  %p = arith.cmpi sgt, %n, %zero : i32
  scf.if %p {
    tile.sync_threads
  }
  %d3 = tile.warpgroup_mma %f, %y, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w3 = tile.warpgroup_mma_wait %d3 pending 0 : tensor<64x16xf32, #mma>
  %c0 = arith.constant 0 : index
  %stage = tile.local_index %ring[%c0] : !tile.smem<2x64x16xbf16, #nv32> -> !tile.smem<64x16xbf16, #nv32>
  tile.async_load %a[%i, %i] into %stage, %bar[%c0] : !tile.view<?x?xbf16> -> !tile.smem<64x16xbf16, #nv32>, !tile.smem<2xi64>
  %s0 = arith.addf %w0, %w1 : tensor<64x16xf32, #mma>
  %s1 = arith.addf %w2, %w3 : tensor<64x16xf32, #mma>
  %s = arith.addf %s0, %s1 : tensor<64x16xf32, #mma>
  %o = tile.convert_layout %s : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #blocked>
  tile.store %o, %c[%i, %i] : tensor<64x16xf32, #blocked> -> !tile.view<?x?xf32>
}

// -----

#blocked = #tile.blocked<spt = [1, 8], tpw = [16, 2], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>
#nv = #tile.nvmma_shared<swizzle = 128>
#nv32 = #tile.nvmma_shared<swizzle = 32>
// No chain across a barrier and a copy: d0 reads ring stage 0, the wait
// and sync_threads publish that the stage may be refilled, d1 accumulates
// onto w0 after the refill. Without w0, d0 would still be reading the
// stage while the copy overwrites it.
// CHECK-LABEL: tile.kernel @chain_race
// CHECK: %[[D0:.*]] = tile.warpgroup_mma
// CHECK-NEXT: %[[W0:.*]] = tile.warpgroup_mma_wait %[[D0]] pending 0
// CHECK-NEXT: tile.sync_threads
// CHECK: tile.warpgroup_mma %{{.*}}, %{{.*}}, %[[W0]]
tile.kernel @chain_race(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %true = arith.constant true
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #blocked>
  %f = tile.local_alloc %ta : tensor<64x64xbf16, #blocked> -> !tile.smem<64x64xbf16, #nv>
  %ring = tile.local_alloc : !tile.smem<2x64x16xbf16, #nv32>
  %bar = tile.barrier_alloc count 1 : !tile.smem<2xi64>
  %stage = tile.local_index %ring[%c0] : !tile.smem<2x64x16xbf16, #nv32> -> !tile.smem<64x16xbf16, #nv32>
  tile.async_load %a[%i, %i] into %stage, %bar[%c0] : !tile.view<?x?xbf16> -> !tile.smem<64x16xbf16, #nv32>, !tile.smem<2xi64>
  tile.barrier_wait %bar[%c0], %false : !tile.smem<2xi64>
  %z = arith.constant dense<0.0> : tensor<64x16xf32, #mma>
  %d0 = tile.warpgroup_mma %f, %stage, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w0 = tile.warpgroup_mma_wait %d0 pending 0 : tensor<64x16xf32, #mma>
  tile.sync_threads
  tile.async_load %a[%c0, %i] into %stage, %bar[%c0] : !tile.view<?x?xbf16> -> !tile.smem<64x16xbf16, #nv32>, !tile.smem<2xi64>
  tile.barrier_wait %bar[%c0], %true : !tile.smem<2xi64>
  %d1 = tile.warpgroup_mma %f, %stage, %w0 : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
  %w1 = tile.warpgroup_mma_wait %d1 pending 0 : tensor<64x16xf32, #mma>
  %o = tile.convert_layout %w1 : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #blocked>
  tile.store %o, %c[%i, %i] : tensor<64x16xf32, #blocked> -> !tile.view<?x?xf32>
}

// -----

#blocked = #tile.blocked<spt = [1, 8], tpw = [16, 2], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>
#nv = #tile.nvmma_shared<swizzle = 128>
#nv32 = #tile.nvmma_shared<swizzle = 32>
// A pipelined loop body (tile-pipeline shape): %da stays in flight across
// the back edge (pending 1); the wait 0 for the independent %db stops
// before it, or it would drain %da every iteration.
// CHECK-LABEL: tile.kernel @relaxed
// CHECK: %[[DB:.*]] = tile.warpgroup_mma
// CHECK-NEXT: tile.warpgroup_mma_wait %[[DB]] pending 0
// CHECK-NEXT: tile.warpgroup_mma
// CHECK-NEXT: tile.warpgroup_mma_wait %{{.*}} pending 1
tile.kernel @relaxed(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %i = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #blocked>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x16xbf16, #blocked>
  %f = tile.local_alloc %ta : tensor<64x64xbf16, #blocked> -> !tile.smem<64x64xbf16, #nv>
  %x = tile.local_alloc %tb : tensor<64x16xbf16, #blocked> -> !tile.smem<64x16xbf16, #nv32>
  %z = arith.constant dense<0.0> : tensor<64x16xf32, #mma>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x16xf32, #mma>) {
    %db = tile.warpgroup_mma %f, %x, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
    %wb = tile.warpgroup_mma_wait %db pending 0 : tensor<64x16xf32, #mma>
    %da = tile.warpgroup_mma %f, %x, %acc : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
    %wa = tile.warpgroup_mma_wait %da pending 1 : tensor<64x16xf32, #mma>
    %o = tile.convert_layout %wb : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #blocked>
    tile.store %o, %c[%k, %i] : tensor<64x16xf32, #blocked> -> !tile.view<?x?xf32>
    tile.sync_threads
    scf.yield %wa : tensor<64x16xf32, #mma>
  }
  %w = tile.warpgroup_mma_wait %r pending 0 : tensor<64x16xf32, #mma>
  %o2 = tile.convert_layout %w : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #blocked>
  tile.store %o2, %c[%i, %i] : tensor<64x16xf32, #blocked> -> !tile.view<?x?xf32>
}

// -----

#blocked = #tile.blocked<spt = [1, 8], tpw = [16, 2], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 16]>
#nv = #tile.nvmma_shared<swizzle = 128>
#nv32 = #tile.nvmma_shared<swizzle = 32>

// A state a wgmma carries across the back edge (the SSD's decayed state):
// ptxas counts its registers as written by the Tensor Core, so the wait for
// the independent %d stops before the state is touched (ptxas would insert
// one there anyway).
// CHECK-LABEL: tile.kernel @carried
// CHECK: %[[D:.*]] = tile.warpgroup_mma
// CHECK-NEXT: tile.warpgroup_mma_wait %[[D]] pending 0
// CHECK-NEXT: arith.mulf %{{.*}}, %{{.*}}
tile.kernel @carried(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %i = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #blocked>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x16xbf16, #blocked>
  %f = tile.local_alloc %ta : tensor<64x64xbf16, #blocked> -> !tile.smem<64x64xbf16, #nv>
  %x = tile.local_alloc %tb : tensor<64x16xbf16, #blocked> -> !tile.smem<64x16xbf16, #nv32>
  %z = arith.constant dense<0.0> : tensor<64x16xf32, #mma>
  %decay = arith.constant dense<0.5> : tensor<64x16xf32, #mma>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%h = %z) -> (tensor<64x16xf32, #mma>) {
    %d = tile.warpgroup_mma %f, %x, %z : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
    %w = tile.warpgroup_mma_wait %d pending 0 : tensor<64x16xf32, #mma>
    %hd = arith.mulf %h, %decay : tensor<64x16xf32, #mma>
    %o = tile.convert_layout %w : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #blocked>
    tile.store %o, %c[%k, %i] : tensor<64x16xf32, #blocked> -> !tile.view<?x?xf32>
    %dh = tile.warpgroup_mma %f, %x, %hd : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x16xbf16, #nv32>, tensor<64x16xf32, #mma>
    %wh = tile.warpgroup_mma_wait %dh pending 0 : tensor<64x16xf32, #mma>
    scf.yield %wh : tensor<64x16xf32, #mma>
  }
  %o2 = tile.convert_layout %r : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #blocked>
  tile.store %o2, %c[%i, %i] : tensor<64x16xf32, #blocked> -> !tile.view<?x?xf32>
}
