// The element-by-element copy of a misaligned view when the tile's elements
// are not a multiple of the threads: 24 x 64 = 1536 elements on 1024
// threads, two for the first 512 threads and one for the others.
// Unrolled, the second element is guarded (k = tid + 1024 < 1536); as a
// loop (--loop-misaligned-copies) the loop from tid steps by 1024 while
// the next element is below 1536, so it runs twice for tid < 512.
// RUN: tile-compile %s --target sm_90a --num-warps 32 | FileCheck %s --check-prefix=UNROLLED
// RUN: tile-compile %s --target sm_90a --num-warps 32 --loop-misaligned-copies | FileCheck %s --check-prefix=LOOPED
// UNROLLED: ld.global.b16
// UNROLLED: or.b64 %rd[[K1:[0-9]+]], %rd{{[0-9]+}}, 1024;
// UNROLLED-NEXT: setp.gt.u64 %p[[PAST:[0-9]+]], %rd[[K1]], 1535;
// UNROLLED-NEXT: @%p[[PAST]] bra
// UNROLLED: ld.global.b16
// UNROLLED-NOT: ld.global.b16
// LOOPED: mov.b64 %rd[[K:[0-9]+]], %rd{{[0-9]+}};
// LOOPED: setp.gt.s64 %p[[NONE:[0-9]+]], %rd[[K]], 1535;
// LOOPED-NEXT: @%p[[NONE]] bra $L__BB0_[[DONE:[0-9]+]];
// LOOPED: $L__BB0_[[LOOP:[0-9]+]]:
// LOOPED: ld.global.b16
// LOOPED-NOT: ld.global.b16
// LOOPED: add.s64 %rd[[NEXT:[0-9]+]], %rd[[K]], 1024;
// LOOPED-NEXT: setp.lt.s64 %p[[MORE:[0-9]+]], %rd[[K]], 512;
// LOOPED-NEXT: mov.b64 %rd[[K]], %rd[[NEXT]];
// LOOPED-NEXT: @%p[[MORE]] bra $L__BB0_[[LOOP]];
// LOOPED-NEXT: $L__BB0_[[DONE]]:
// LOOPED-NOT: ld.global.b16
module attributes {tile.num_warps = 32 : i32} {
  tile.kernel @copy_rows_uneven(%x: !tile.view<?x?x?x?xbf16>, %t: index) {
    %c0 = arith.constant 0 : index
    %buf = tile.local_alloc : !tile.smem<24x64xbf16, #tile.nvmma_shared<swizzle = 128>>
    %bar = tile.barrier_alloc count 1024 : !tile.smem<1xi64>
    tile.async_load %x[%c0, %t, %c0, %c0] into %buf, %bar[%c0] rows(1) cp_async : !tile.view<?x?x?x?xbf16> -> !tile.smem<24x64xbf16, #tile.nvmma_shared<swizzle = 128>>, !tile.smem<1xi64>
  }
}
