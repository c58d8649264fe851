// A kernel's num_warps overrides the compile option's warps, so one module
// holds kernels of different block sizes: its layouts, its PTX .maxntid
// and the warps the runtime launches it with (--info) are its own.
// RUN: tile-opt %s --tile-assign-layouts="num-warps=4" | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-compile %s --target sm_90a --num-warps 4 -o %t.ptx --info %t.json
// RUN: FileCheck %s --input-file %t.ptx --check-prefix=PTX
// RUN: FileCheck %s --input-file %t.json --check-prefix=INFO
// RUN: tile-compile %s --target sm_90a --num-warps 2 --info %t2.json -o %t2.ptx
// RUN: FileCheck %s --input-file %t2.json --check-prefix=INFO2
// The Tensor Core mapping takes the kernel's warps too: two warpgroups
// along M of a 128-row wgmma product on 8 warps.
// RUN: tile-opt %s --tile-assign-layouts=num-warps=4 --tile-accelerate-mma=target=sm_90a | FileCheck %s --check-prefix=MMA
// MMA: #[[WG:mma[0-9]*]] = #tile.mma<version = 3, wpc = [8, 1], instr = [64, 64]>
// MMA-LABEL: tile.kernel @product(
// MMA: tile.warpgroup_mma {{.*}} tensor<128x64xf32, #[[WG]]>

// LAYOUT-DAG: #[[W8:blocked[0-9]*]] = #tile.blocked<spt = [8], tpw = [32], wpc = [8], order = [0]>
// LAYOUT-DAG: #[[W4:blocked[0-9]*]] = #tile.blocked<spt = [8], tpw = [32], wpc = [4], order = [0]>
// LAYOUT-LABEL: tile.kernel @eight(
// LAYOUT:         tensor<1024xf32, #[[W8]]>
// LAYOUT-LABEL: tile.kernel @default(
// LAYOUT:         tensor<1024xf32, #[[W4]]>

// PTX-LABEL: .entry eight(
// PTX:       .maxntid 256, 1, 1
// PTX-LABEL: .entry default(
// PTX:       .maxntid 128, 1, 1

// INFO: "name": "eight", "target": "sm_90a", "num_warps": 8,
// INFO: "name": "default", "target": "sm_90a", "num_warps": 4,
// INFO2: "name": "eight", "target": "sm_90a", "num_warps": 8,
// INFO2: "name": "default", "target": "sm_90a", "num_warps": 2,
tile.kernel @eight(%x: !tile.view<?xf32>) attributes {num_warps = 8 : i32} {
  %i = tile.program_id x : index
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<1024xf32>
  tile.store %t, %x[%i] : tensor<1024xf32> -> !tile.view<?xf32>
  tile.return
}
tile.kernel @default(%x: !tile.view<?xf32>) {
  %i = tile.program_id x : index
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<1024xf32>
  tile.store %t, %x[%i] : tensor<1024xf32> -> !tile.view<?xf32>
  tile.return
}
tile.kernel @product(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {num_warps = 8 : i32} {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
  %tb = tile.load %b[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %z = arith.constant dense<0.0> : tensor<128x64xf32>
  %d = tile.mma %ta, %tb, %z : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
  tile.store %d, %c[%i, %i] : tensor<128x64xf32> -> !tile.view<?x?xf32>
}
