// cp.async of a tile into swizzled shared memory. When the whole tile lies
// inside the view, each thread's pieces are a fixed step apart in both
// memories (here 8 rows: 8 x row stride in global memory, 8 x 128 bytes in
// shared memory, the swizzle's period), so after the first piece each copy
// costs two adds. Otherwise every piece is bounds-checked (zero-filled past
// the view's edge).
// RUN: tile-compile %s --target sm_90a | FileCheck %s
// Views that are not 16-byte pieces are copied element by element: unrolled
// (64 loads a thread here), or with --loop-misaligned-copies in one loop
// over the thread's elements, 128 apart.
// RUN: tile-compile %s --target sm_90a | FileCheck %s --check-prefix=UNROLLED
// RUN: tile-compile %s --target sm_90a --loop-misaligned-copies | FileCheck %s --check-prefix=LOOPED
// UNROLLED-COUNT-64: ld.global.b16
// UNROLLED-NOT: ld.global.b16
// LOOPED: mov.b64 %rd[[K:[0-9]+]], %rd{{[0-9]+}};
// LOOPED: $L__BB0_[[LOOP:[0-9]+]]:
// LOOPED: ld.global.b16
// LOOPED-NOT: ld.global.b16
// LOOPED: st.shared.b16
// LOOPED: add.s64 %rd[[NEXT:[0-9]+]], %rd[[K]], 128;
// LOOPED: mov.b64 %rd[[K]], %rd[[NEXT]];
// LOOPED-NEXT: @%p{{[0-9]+}} bra $L__BB0_[[LOOP]];
// LOOPED-NOT: ld.global.b16
// LOOPED: mbarrier.arrive.shared::cta.b64
// CHECK-LABEL: .entry copy_rows(
// CHECK: @%p{{[0-9]+}} bra
// CHECK: cp.async.cg.shared.global [%r[[TO:[0-9]+]]], [%rd[[SRC:[0-9]+]]], 16,
// CHECK: add.s64 %rd[[SRC1:[0-9]+]], %rd[[SRC]], %rd[[STEP:[0-9]+]];
// CHECK-NEXT: add.s32 %r[[TO1:[0-9]+]], %r[[TO]], 1024;
// CHECK: cp.async.cg.shared.global [%r[[TO1]]], [%rd[[SRC1]]], 16,
// CHECK: add.s64 %rd[[SRC2:[0-9]+]], %rd[[SRC1]], %rd[[STEP]];
// CHECK-NEXT: add.s32 %r[[TO2:[0-9]+]], %r[[TO]], 2048;
// CHECK: cp.async.cg.shared.global [%r[[TO2]]], [%rd[[SRC2]]], 16,
// CHECK: bra.uni
// The edge: a bounds check (selp of the byte count) per piece.
// CHECK: selp.b64
// CHECK: cp.async.cg.shared.global
// CHECK: cp.async.mbarrier.arrive.noinc.shared::cta.b64
module attributes {tile.num_warps = 4 : i32} {
  tile.kernel @copy_rows(%x: !tile.view<?x?x?x?xbf16>, %t: index) {
    %c0 = arith.constant 0 : index
    %buf = tile.local_alloc : !tile.smem<64x128xbf16, #tile.nvmma_shared<swizzle = 128>>
    %bar = tile.barrier_alloc count 128 : !tile.smem<1xi64>
    tile.async_load %x[%c0, %t, %c0, %c0] into %buf, %bar[%c0] rows(1) cp_async : !tile.view<?x?x?x?xbf16> -> !tile.smem<64x128xbf16, #tile.nvmma_shared<swizzle = 128>>, !tile.smem<1xi64>
  }
}
