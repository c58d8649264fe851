// Exchange scratch placed by lifetime (convert-tile-to-llvm
// scratch-lifetimes, tile-compile --scratch-lifetimes). By default one
// scratch region, as large as the largest exchange (32 KB here, before the
// loop), sits under every buffer: 32 KB + the 8 KB buffer of the loop. By
// lifetime, the loop's exchanges share one 8 KB region that lives as long
// as the loop, the buffer goes after it, and the exchange before the loop
// reuses all of that space: 32 KB in all; the loop's exchange is at offset
// 0, the buffer at 8192.
// RUN: tile-opt %s --convert-tile-to-llvm | FileCheck %s --check-prefix=SHARED
// RUN: tile-opt %s --convert-tile-to-llvm="scratch-lifetimes=true" | FileCheck %s --check-prefix=LIFE
// SHARED: tile.shared_bytes = 40960
// LIFE: tile.shared_bytes = 32768
//
// The fused SSD kernel with initial and final states: their transposing
// exchanges before and after the chunk loop no longer add to the loop's
// buffers (132 -> 112 KB: two CTAs per SM on the H200).
// RUN: tessera print ssd-fused --dtype bf16 --dstate 128 --options all | tile-compile - --target sm_90a --stages 2 --no-swizzle --num-warps 4 --stmatrix --info %t.ssd.json -o %t.ssd.ptx
// RUN: FileCheck %s --input-file %t.ssd.json --check-prefix=SSD
// RUN: tessera print ssd-fused --dtype bf16 --dstate 128 --options all | tile-compile - --target sm_90a --stages 2 --no-swizzle --num-warps 4 --stmatrix --scratch-lifetimes --info %t.ssdlt.json -o %t.ssdlt.ptx
// RUN: FileCheck %s --input-file %t.ssdlt.json --check-prefix=SSD-LT
// SSD: "shared_bytes": 132096
// SSD-LT: "shared_bytes": 114704
#row = #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>
#col = #tile.blocked<spt = [8, 1], tpw = [4, 8], wpc = [1, 4], order = [0, 1]>
module attributes {tile.num_warps = 4 : i32} {
  tile.kernel @before_loop(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xbf16>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<128x64xf32, #row>
    %u = tile.convert_layout %t : tensor<128x64xf32, #row> -> tensor<128x64xf32, #col>
    tile.store %u, %x[%c1, %c0] : tensor<128x64xf32, #col> -> !tile.view<?x?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %a = tile.load %y[%i, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #row>
      %s = tile.local_alloc %a : tensor<64x64xbf16, #row> -> !tile.smem<64x64xbf16, #tile.nvmma_shared<swizzle = 128>>
      %r = tile.local_load %s : !tile.smem<64x64xbf16, #tile.nvmma_shared<swizzle = 128>> -> tensor<64x64xbf16, #col>
      %v = tile.convert_layout %r : tensor<64x64xbf16, #col> -> tensor<64x64xbf16, #row>
      tile.store %v, %y[%i, %c1] : tensor<64x64xbf16, #row> -> !tile.view<?x?xbf16>
    }
    tile.return
  }
}
