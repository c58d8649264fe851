// An asynchronous copy from a view its kernel also stores to is refused:
// tile-order-global-memory orders tile.load and tile.store only, and a
// bulk copy (async proxy) is not ordered by its bar.sync. tile-pipeline
// never makes one (test/lit/Passes/pipeline.mlir, @in_place); a copy from
// another view lowers.
// RUN: tile-opt %s -split-input-file --convert-tile-to-llvm -verify-diagnostics

#blocked = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32} {
  tile.kernel @copy_of_written_view(%x: !tile.view<?x?xbf16>, %t: index) {
    %c0 = arith.constant 0 : index
    %buf = tile.local_alloc : !tile.smem<64x64xbf16, #tile.nvmma_shared<swizzle = 128>>
    %bar = tile.barrier_alloc count 128 : !tile.smem<1xi64>
    // expected-error @+1 {{'tile.async_load' op copies from a view its kernel stores to, and nothing orders the copy with those stores (load it with tile.load)}}
    tile.async_load %x[%t, %c0] into %buf, %bar[%c0] cp_async : !tile.view<?x?xbf16> -> !tile.smem<64x64xbf16, #tile.nvmma_shared<swizzle = 128>>, !tile.smem<1xi64>
    %z = arith.constant dense<0.0> : tensor<64x64xbf16, #blocked>
    tile.store %z, %x[%c0, %c0] : tensor<64x64xbf16, #blocked> -> !tile.view<?x?xbf16>
  }
}

// -----

#blocked = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32} {
  tile.kernel @copy_of_other_view(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>, %t: index) {
    %c0 = arith.constant 0 : index
    %buf = tile.local_alloc : !tile.smem<64x64xbf16, #tile.nvmma_shared<swizzle = 128>>
    %bar = tile.barrier_alloc count 128 : !tile.smem<1xi64>
    tile.async_load %x[%t, %c0] into %buf, %bar[%c0] cp_async : !tile.view<?x?xbf16> -> !tile.smem<64x64xbf16, #tile.nvmma_shared<swizzle = 128>>, !tile.smem<1xi64>
    %z = arith.constant dense<0.0> : tensor<64x64xbf16, #blocked>
    tile.store %z, %y[%c0, %c0] : tensor<64x64xbf16, #blocked> -> !tile.view<?x?xbf16>
  }
}
