// RUN: tile-opt %s -split-input-file --tile-remove-layout-conversions | FileCheck %s

#a = #tile.blocked<spt = [1], tpw = [32], wpc = [4], order = [0]>
#b = #tile.blocked<spt = [4], tpw = [32], wpc = [4], order = [0]>
#c = #tile.blocked<spt = [8], tpw = [32], wpc = [4], order = [0]>

// A conversion to the same layout disappears; chains fold. #a, one
// element a thread, is not stored as it is, but #b and #c (16 and 32
// bytes a thread) are (StoreFromAccumulator): the chain a -> b -> c and
// the round trip a -> b -> a both store b, one conversion in all.
// CHECK-LABEL: tile.kernel @chains
// CHECK-SAME: (%[[X:.*]]: !tile.view<?xf32>)
// CHECK: %[[T:.*]] = tile.load {{.*}} -> tensor<256xf32, #[[A:blocked[0-9]*]]>
// CHECK: %[[C:.*]] = tile.convert_layout %[[T]] : tensor<256xf32, #[[A]]> -> tensor<256xf32, #[[B:blocked[0-9]*]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %[[C]]
// CHECK: tile.store %[[C]]
// CHECK: tile.store %[[T]]
tile.kernel @chains(%x: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<256xf32, #a>
  %1 = tile.convert_layout %t : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %2 = tile.convert_layout %1 : tensor<256xf32, #b> -> tensor<256xf32, #c>
  tile.store %2, %x[%c0] : tensor<256xf32, #c> -> !tile.view<?xf32>
  %3 = tile.convert_layout %1 : tensor<256xf32, #b> -> tensor<256xf32, #a>
  tile.store %3, %x[%c0] : tensor<256xf32, #a> -> !tile.view<?xf32>
  %4 = tile.convert_layout %t : tensor<256xf32, #a> -> tensor<256xf32, #a>
  tile.store %4, %x[%c0] : tensor<256xf32, #a> -> !tile.view<?xf32>
}

// -----

#blocked = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, wpc = [4, 1], instr = [16, 8]>
#opa = #tile.dot_operand<idx = 0, parent = #mma, kwidth = 2>
#opb = #tile.dot_operand<idx = 1, parent = #mma, kwidth = 2>

// The Tensor Core GEMM loop as tile-accelerate-mma leaves it: the
// accumulator is carried in mma layout (one conversion after the loop, none
// for it inside); operands keep coalesced loads and reach their fragments
// through shared memory.
// CHECK-LABEL: tile.kernel @gemm_loop
// The initial accumulator is loaded straight into mma layout too.
// CHECK: %[[INIT:.*]] = tile.load {{.*}} -> tensor<64x64xf32, #[[MMA:mma[0-9]*]]>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<64x64xf32, #[[MMA]]>)
// CHECK:   %[[A:.*]] = tile.convert_layout %{{.*}} -> tensor<64x32xbf16, #[[OPA:dot_op[0-9]*]]>
// CHECK:   %[[B:.*]] = tile.convert_layout %{{.*}} -> tensor<32x64xbf16, #[[OPB:dot_op[0-9]*]]>
// CHECK-NOT: tile.convert_layout
// CHECK:   %[[D:.*]] = tile.mma %[[A]], %[[B]], %[[ACC]]
// CHECK:   scf.yield %[[D]] : tensor<64x64xf32, #[[MMA]]>
// CHECK: %[[OUT:.*]] = tile.convert_layout %[[R]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #blocked{{[0-9]*}}>
// CHECK: tile.store %[[OUT]]
tile.kernel @gemm_loop(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index, %init: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = tile.load %init[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #blocked>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #blocked>) {
    %ta = tile.load %a[%c0, %k] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #blocked>
    %tb = tile.load %b[%k, %c0] : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #blocked>
    %fa = tile.convert_layout %ta : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #opa>
    %fb = tile.convert_layout %tb : tensor<32x64xbf16, #blocked> -> tensor<32x64xbf16, #opb>
    %fc = tile.convert_layout %acc : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %d = tile.mma %fa, %fb, %fc : tensor<64x32xbf16, #opa>, tensor<32x64xbf16, #opb>, tensor<64x64xf32, #mma>
    %back = tile.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    scf.yield %back : tensor<64x64xf32, #blocked>
  }
  tile.store %r, %c[%c0, %c0] : tensor<64x64xf32, #blocked> -> !tile.view<?x?xf32>
}

// -----

// Elementwise math on an accumulator runs in the accumulator's layout: the
// other operands (a broadcast, a splat constant, a select on a broadcast
// mask) are rebuilt in it, the conversion moves down to the store, and a
// shared-memory write takes the accumulator's registers as they are.
#bl = #tile.blocked<spt = [1, 4], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#mm = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>
// CHECK-LABEL: tile.kernel @scores
// CHECK: %[[ACC:.*]] = tile.load %arg1{{.*}} -> tensor<64x64xf32, #[[MM:mma[0-9]*]]>
// CHECK-NOT: tile.convert_layout
// CHECK: %[[R:.*]] = tile.broadcast %{{.*}} : tensor<64x1xf32, #{{.*}}> -> tensor<64x64xf32, #[[MM]]>
// CHECK: %[[S:.*]] = arith.subf %[[ACC]], %[[R]] : tensor<64x64xf32, #[[MM]]>
// CHECK: %[[E:.*]] = math.exp %[[S]] : tensor<64x64xf32, #[[MM]]>
// CHECK: %[[M:.*]] = tile.broadcast %{{.*}} : tensor<1x64xi1, #{{.*}}> -> tensor<64x64xi1, #[[MM]]>
// CHECK: %[[P:.*]] = arith.select %[[M]], %[[E]], %{{.*}} : tensor<64x64xi1, #[[MM]]>, tensor<64x64xf32, #[[MM]]>
// CHECK: %[[O:.*]] = tile.convert_layout %[[P]] : tensor<64x64xf32, #[[MM]]> -> tensor<64x64xf32, #blocked
// CHECK: %[[T:.*]] = arith.truncf %[[P]] : tensor<64x64xf32, #[[MM]]> to tensor<64x64xbf16, #[[MM]]>
// CHECK: tile.local_alloc %[[T]] : tensor<64x64xbf16, #[[MM]]>
// CHECK: tile.store %[[O]]
tile.kernel @scores(%c: !tile.view<?x?xf32>, %v: !tile.view<?x?xf32>, %w: !tile.view<?x?xi1>) {
  %c0 = arith.constant 0 : index
  %acc = tile.load %v[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #mm>
  %rowmax = tile.load %v[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x1xf32, #bl>
  %keep = tile.load %w[%c0, %c0] : !tile.view<?x?xi1> -> tensor<1x64xi1, #bl>
  %x = tile.convert_layout %acc : tensor<64x64xf32, #mm> -> tensor<64x64xf32, #bl>
  %r = tile.broadcast %rowmax : tensor<64x1xf32, #bl> -> tensor<64x64xf32, #bl>
  %s = arith.subf %x, %r : tensor<64x64xf32, #bl>
  %e = math.exp %s : tensor<64x64xf32, #bl>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #bl>
  %m = tile.broadcast %keep : tensor<1x64xi1, #bl> -> tensor<64x64xi1, #bl>
  %p = arith.select %m, %e, %z : tensor<64x64xi1, #bl>, tensor<64x64xf32, #bl>
  %t = arith.truncf %p : tensor<64x64xf32, #bl> to tensor<64x64xbf16, #bl>
  %buf = tile.local_alloc %t : tensor<64x64xbf16, #bl> -> !tile.smem<64x64xbf16, #tile.nvmma_shared<swizzle = 128>>
  tile.store %p, %c[%c0, %c0] : tensor<64x64xf32, #bl> -> !tile.view<?x?xf32>
}

// -----

#blocked = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>

// A state updated by mma each iteration (the SSD forward's) is carried in
// the accumulator's layout even though it has other uses: the decay scaling
// runs in that layout and feeds the mma directly, the bf16 copy for the
// other use is rounded there, and no conversion is left (the store takes
// the accumulator's layout).
// CHECK-LABEL: tile.kernel @state_loop
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[H:.*]] = %{{.*}}) -> (tensor<64x64xf32, #[[MMA:mma[0-9]*]]>)
// CHECK-NOT: tile.convert_layout
// CHECK:   %[[T:.*]] = arith.truncf %[[H]] : tensor<64x64xf32, #[[MMA]]> to tensor<64x64xbf16, #[[MMA]]>
// CHECK:   tile.local_alloc %[[T]]
// CHECK:   %[[S:.*]] = arith.mulf %[[H]], %{{.*}} : tensor<64x64xf32, #[[MMA]]>
// CHECK:   %[[D:.*]] = tile.warpgroup_mma %{{.*}}, %{{.*}}, %[[S]]
// CHECK:   %[[W:.*]] = tile.warpgroup_mma_wait %[[D]]
// CHECK:   scf.yield %[[W]] : tensor<64x64xf32, #[[MMA]]>
// CHECK: tile.store %[[R]], {{.*}} : tensor<64x64xf32, #[[MMA]]>
#nv = #tile.nvmma_shared<swizzle = 128>
tile.kernel @state_loop(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #blocked>
  %decay = arith.constant dense<0.5> : tensor<64x64xf32, #blocked>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%h = %z) -> (tensor<64x64xf32, #blocked>) {
    %hb = arith.truncf %h : tensor<64x64xf32, #blocked> to tensor<64x64xbf16, #blocked>
    %sh = tile.local_alloc %hb : tensor<64x64xbf16, #blocked> -> !tile.smem<64x64xbf16, #nv>
    %ta = tile.load %a[%c0, %k] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #blocked>
    %sa = tile.local_alloc %ta : tensor<64x64xbf16, #blocked> -> !tile.smem<64x64xbf16, #nv>
    %scaled = arith.mulf %decay, %h : tensor<64x64xf32, #blocked>
    %acc = tile.convert_layout %scaled : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %d = tile.warpgroup_mma %sa, %sh, %acc : !tile.smem<64x64xbf16, #nv>, !tile.smem<64x64xbf16, #nv>, tensor<64x64xf32, #mma>
    %w = tile.warpgroup_mma_wait %d pending 0 : tensor<64x64xf32, #mma>
    %back = tile.convert_layout %w : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    scf.yield %back : tensor<64x64xf32, #blocked>
  }
  tile.store %r, %c[%c0, %c0] : tensor<64x64xf32, #blocked> -> !tile.view<?x?xf32>
}

// -----

// A shared-memory copy of a constant inside a loop (a DFT matrix as an mma
// operand, written by tile-accelerate-mma next to its use) moves before
// the loop, with its own copy of the constant: the buffer is written once
// per program, and the constant's other uses stay in the loop.
#blocked = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#other = #tile.blocked<spt = [1, 4], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#nv = #tile.nvmma_shared<swizzle = 64>
// CHECK-LABEL: tile.kernel @constant_copy_out_of_loop
// CHECK:         %[[BUF:.*]] = tile.local_alloc %{{.*}} : tensor<16x32xbf16
// CHECK:         scf.for
// CHECK-NOT:       tile.local_alloc
// CHECK:           tile.local_load %[[BUF]]
// CHECK:           tile.store
tile.kernel @constant_copy_out_of_loop(%c: !tile.view<?x?xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %f = arith.constant dense<1.5> : tensor<16x32xbf16, #blocked>
    %s = tile.local_alloc %f : tensor<16x32xbf16, #blocked> -> !tile.smem<16x32xbf16, #nv>
    %t = tile.local_load %s : !tile.smem<16x32xbf16, #nv> -> tensor<16x32xbf16, #other>
    %g = tile.convert_layout %f : tensor<16x32xbf16, #blocked> -> tensor<16x32xbf16, #other>
    %u = arith.addf %t, %g : tensor<16x32xbf16, #other>
    tile.store %u, %c[%i, %c0] : tensor<16x32xbf16, #other> -> !tile.view<?x?xbf16>
  }
}

// -----

// A narrowing cast runs before a conversion of a tile that is not an
// accumulator (half the bytes to exchange) only when nothing else wants
// the conversion: not for a vector (ConvertVectorOperands moves its
// conversions the other way; the two would undo each other, so this test
// also checks that the pass ends), not for a load (it is loaded in the
// converted layout instead), not for a conversion with another user.
#a = #tile.blocked<spt = [1, 1], tpw = [32, 1], wpc = [4, 1], order = [1, 0]>
#b = #tile.blocked<spt = [4, 1], tpw = [32, 1], wpc = [4, 1], order = [0, 1]>
// (Here the conversion moves up to the load, which takes its layout.)
// CHECK-LABEL: tile.kernel @narrow_vector
// CHECK-NOT:   tile.convert_layout
// CHECK:       arith.truncf
// CHECK-NEXT:  tile.store
tile.kernel @narrow_vector(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<512x1xf32, #a>
  %u = math.exp %t : tensor<512x1xf32, #a>
  %0 = tile.convert_layout %u : tensor<512x1xf32, #a> -> tensor<512x1xf32, #b>
  %1 = arith.truncf %0 : tensor<512x1xf32, #b> to tensor<512x1xbf16, #b>
  tile.store %1, %y[%c0, %c0] : tensor<512x1xbf16, #b> -> !tile.view<?x?xbf16>
}

// -----

#a = #tile.blocked<spt = [1, 4], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#b = #tile.blocked<spt = [4, 1], tpw = [4, 8], wpc = [1, 4], order = [0, 1]>
// CHECK-LABEL: tile.kernel @narrow_load
// CHECK-NOT:   tile.convert_layout
// CHECK:       tile.load {{.*}} -> tensor<64x64xf32, #[[B:blocked[0-9]*]]>
// CHECK-NEXT:  arith.truncf {{.*}} : tensor<64x64xf32, #[[B]]> to tensor<64x64xbf16, #[[B]]>
tile.kernel @narrow_load(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #a>
  %0 = tile.convert_layout %t : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
  %1 = arith.truncf %0 : tensor<64x64xf32, #b> to tensor<64x64xbf16, #b>
  %2 = math.exp %1 : tensor<64x64xbf16, #b>
  %3 = tile.reduce sum %2 axis 0 : tensor<64x64xbf16, #b> -> tensor<1x64xbf16, #b>
  tile.store %3, %y[%c0, %c0] : tensor<1x64xbf16, #b> -> !tile.view<?x?xbf16>
}

// -----

#a = #tile.blocked<spt = [1, 4], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#b = #tile.blocked<spt = [4, 1], tpw = [4, 8], wpc = [1, 4], order = [0, 1]>
// CHECK-LABEL: tile.kernel @narrow_shared_conversion
// CHECK:       %[[C:.*]] = tile.convert_layout %{{.*}} : tensor<64x64xf32
// CHECK-NOT:   tile.convert_layout
// CHECK:       arith.truncf %[[C]]
tile.kernel @narrow_shared_conversion(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xbf16>, %z: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #a>
  %u = math.exp %t : tensor<64x64xf32, #a>
  %0 = tile.convert_layout %u : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
  %1 = arith.truncf %0 : tensor<64x64xf32, #b> to tensor<64x64xbf16, #b>
  %2 = math.exp %1 : tensor<64x64xbf16, #b>
  %3 = tile.reduce sum %2 axis 0 : tensor<64x64xbf16, #b> -> tensor<1x64xbf16, #b>
  tile.store %3, %y[%c0, %c0] : tensor<1x64xbf16, #b> -> !tile.view<?x?xbf16>
  %4 = math.sqrt %0 : tensor<64x64xf32, #b>
  tile.store %4, %z[%c0, %c0] : tensor<64x64xf32, #b> -> !tile.view<?x?xf32>
}

// -----

// A narrowing cast of a conversion it alone uses runs first: the
// conversion moves bf16, half the bytes.
#a = #tile.blocked<spt = [1, 4], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#b = #tile.blocked<spt = [4, 1], tpw = [4, 8], wpc = [1, 4], order = [0, 1]>
// CHECK-LABEL: tile.kernel @narrow_first
// CHECK:       %[[T:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #[[A:blocked[0-9]*]]> to tensor<64x64xbf16, #[[A]]>
// CHECK:       tile.convert_layout %[[T]] : tensor<64x64xbf16, #[[A]]>
tile.kernel @narrow_first(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #a>
  %u = math.exp %t : tensor<64x64xf32, #a>
  %0 = tile.convert_layout %u : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
  %1 = arith.truncf %0 : tensor<64x64xf32, #b> to tensor<64x64xbf16, #b>
  %2 = math.exp %1 : tensor<64x64xbf16, #b>
  %3 = tile.reduce sum %2 axis 0 : tensor<64x64xbf16, #b> -> tensor<1x64xbf16, #b>
  tile.store %3, %y[%c0, %c0] : tensor<1x64xbf16, #b> -> !tile.view<?x?xbf16>
}

// -----

// An accumulator rounded to bf16 and widened again for a product with a
// tile that cannot be made in the accumulator's layout (a load in no loop):
// the rounding runs in the accumulator's layout and the conversion moves
// the bf16 elements, half the bytes; the widening cast stays after it (it
// moves only where its users move too, or into a store).
#bl = #tile.blocked<spt = [1, 4], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#mm = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
// CHECK-LABEL: tile.kernel @widen_after_conversion
// CHECK:      %[[ACC:.*]] = tile.load %arg0{{.*}} -> tensor<64x64xf32, #[[MM:mma[0-9]*]]>
// CHECK:      %[[T:.*]] = arith.truncf %[[ACC]] : tensor<64x64xf32, #[[MM]]> to tensor<64x64xbf16, #[[MM]]>
// CHECK:      %[[C:.*]] = tile.convert_layout %[[T]] : tensor<64x64xbf16, #[[MM]]> -> tensor<64x64xbf16, #[[BL:blocked[0-9]*]]>
// CHECK:      %[[E:.*]] = arith.extf %[[C]] : tensor<64x64xbf16, #[[BL]]> to tensor<64x64xf32, #[[BL]]>
// CHECK:      arith.mulf %[[E]], %{{.*}} : tensor<64x64xf32, #[[BL]]>
// CHECK-NOT:  tile.convert_layout
tile.kernel @widen_after_conversion(%v: !tile.view<?x?xf32>, %g: !tile.view<?x?xf32>, %y: !tile.view<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %acc = tile.load %v[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #mm>
  %gate = tile.load %g[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #bl>
  %0 = tile.convert_layout %acc : tensor<64x64xf32, #mm> -> tensor<64x64xf32, #bl>
  %1 = arith.truncf %0 : tensor<64x64xf32, #bl> to tensor<64x64xbf16, #bl>
  %2 = arith.extf %1 : tensor<64x64xbf16, #bl> to tensor<64x64xf32, #bl>
  %3 = arith.mulf %2, %gate : tensor<64x64xf32, #bl>
  %4 = arith.truncf %3 : tensor<64x64xf32, #bl> to tensor<64x64xbf16, #bl>
  tile.store %4, %y[%c0, %c0] : tensor<64x64xbf16, #bl> -> !tile.view<?x?xbf16>
}

// -----

// The same with a splat constant for the gate: every op moves into the
// accumulator's layout, the widening cast too, and the store takes that
// layout (no conversion left).
#bl = #tile.blocked<spt = [1, 4], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#mm = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
// CHECK-LABEL: tile.kernel @widen_in_accumulator_layout
// CHECK-NOT:  tile.convert_layout
// CHECK:      arith.extf %{{.*}} : tensor<64x64xbf16, #[[MM:mma[0-9]*]]> to tensor<64x64xf32, #[[MM]]>
// CHECK:      arith.mulf {{.*}} : tensor<64x64xf32, #[[MM]]>
// CHECK-NOT:  tile.convert_layout
// CHECK:      tile.store {{.*}} : tensor<64x64xbf16, #[[MM]]>
tile.kernel @widen_in_accumulator_layout(%v: !tile.view<?x?xf32>, %y: !tile.view<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %acc = tile.load %v[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #mm>
  %gate = arith.constant dense<0.5> : tensor<64x64xf32, #bl>
  %0 = tile.convert_layout %acc : tensor<64x64xf32, #mm> -> tensor<64x64xf32, #bl>
  %1 = arith.truncf %0 : tensor<64x64xf32, #bl> to tensor<64x64xbf16, #bl>
  %2 = arith.extf %1 : tensor<64x64xbf16, #bl> to tensor<64x64xf32, #bl>
  %3 = arith.mulf %2, %gate : tensor<64x64xf32, #bl>
  %4 = arith.truncf %3 : tensor<64x64xf32, #bl> to tensor<64x64xbf16, #bl>
  tile.store %4, %y[%c0, %c0] : tensor<64x64xbf16, #bl> -> !tile.view<?x?xbf16>
}

// -----

// Where the widened tile is stored (a wgmma accumulator's layout is stored
// as it is) or written to shared memory, the widening cast runs in the
// accumulator's layout and no conversion is left.
#bl = #tile.blocked<spt = [1, 4], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
#mm = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
// CHECK-LABEL: tile.kernel @widen_into_store_and_shared
// CHECK-NOT:  tile.convert_layout
// CHECK:      %[[E:.*]] = arith.extf %{{.*}} : tensor<64x64xbf16, #[[MM:mma[0-9]*]]> to tensor<64x64xf32, #[[MM]]>
// CHECK-NOT:  tile.convert_layout
// CHECK:      tile.store %[[E]], {{.*}} : tensor<64x64xf32, #[[MM]]>
// CHECK:      %[[F:.*]] = arith.extf %{{.*}} : tensor<64x64xbf16, #[[MM]]> to tensor<64x64xf32, #[[MM]]>
// CHECK-NOT:  tile.convert_layout
// CHECK:      tile.local_alloc %[[F]] : tensor<64x64xf32, #[[MM]]>
tile.kernel @widen_into_store_and_shared(%v: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %acc = tile.load %v[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #mm>
  %t = arith.truncf %acc : tensor<64x64xf32, #mm> to tensor<64x64xbf16, #mm>
  %0 = tile.convert_layout %t : tensor<64x64xbf16, #mm> -> tensor<64x64xbf16, #bl>
  %1 = arith.extf %0 : tensor<64x64xbf16, #bl> to tensor<64x64xf32, #bl>
  tile.store %1, %y[%c0, %c0] : tensor<64x64xf32, #bl> -> !tile.view<?x?xf32>
  %2 = tile.convert_layout %t : tensor<64x64xbf16, #mm> -> tensor<64x64xbf16, #bl>
  %3 = arith.extf %2 : tensor<64x64xbf16, #bl> to tensor<64x64xf32, #bl>
  %buf = tile.local_alloc %3 : tensor<64x64xf32, #bl> -> !tile.smem<64x64xf32, #tile.nvmma_shared<swizzle = 128>>
}
