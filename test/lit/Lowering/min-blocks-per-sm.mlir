// min_blocks_per_sm on a kernel (or convert-tile-to-llvm's
// min-blocks-per-sm for every kernel without one) becomes nvvm.minctasm,
// PTX .minnctapersm: ptxas keeps registers under 64K / (blocks x threads).
// RUN: tile-opt %s --tile-assign-layouts --convert-tile-to-llvm | FileCheck %s
// RUN: tile-opt %s --tile-assign-layouts --convert-tile-to-llvm="min-blocks-per-sm=2" | FileCheck %s --check-prefix=OPTION
// RUN: tile-compile %s --num-warps 4 | FileCheck %s --check-prefix=PTX
// RUN: not tile-compile %s --num-warps 8 --min-blocks-per-sm 9 2>&1 | FileCheck %s --check-prefix=TOOMANY
// RUN: not tile-compile %s --min-blocks-per-sm 0 2>&1 | FileCheck %s --check-prefix=RANGE

// CHECK-LABEL: llvm.func @three(
// CHECK-SAME:    nvvm.minctasm = 3 : i32
// CHECK-LABEL: llvm.func @unbounded(
// CHECK-NOT:     nvvm.minctasm
// OPTION-LABEL: llvm.func @three(
// OPTION-SAME:    nvvm.minctasm = 3 : i32
// OPTION-LABEL: llvm.func @unbounded(
// OPTION-SAME:    nvvm.minctasm = 2 : i32
// PTX-LABEL:   .entry three(
// PTX:         .maxntid 128, 1, 1
// PTX-NEXT:    .minnctapersm 3
// PTX-LABEL:   .entry unbounded(
// PTX-NOT:     .minnctapersm
// TOOMANY: 'tile.kernel' op min_blocks_per_sm 9 of 8 warps each cannot share an SM, which holds at most 64 warps
// RANGE: --min-blocks-per-sm takes a count from 1 to 32, got '0'
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @three(%x: !tile.view<?xf32>) attributes {min_blocks_per_sm = 3 : i32} {
  %i = tile.program_id x : index
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<128xf32>
  tile.store %t, %x[%i] : tensor<128xf32> -> !tile.view<?xf32>
  tile.return
}
tile.kernel @unbounded(%x: !tile.view<?xf32>) {
  %i = tile.program_id x : index
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<128xf32>
  tile.store %t, %x[%i] : tensor<128xf32> -> !tile.view<?xf32>
  tile.return
}
}

