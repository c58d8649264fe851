// The whole pipeline to PTX, for both targets; ptxas (when CUDA is
// installed) must accept it with no spills.
// RUN: tile-compile %s --target sm_90a -o %t.sm90.ptx
// RUN: FileCheck %s --input-file %t.sm90.ptx --check-prefixes=PTX,SM90
// RUN: tile-compile %s --target sm_80 | FileCheck %s --check-prefixes=PTX,SM80
// RUN: not tile-compile %s --target sm_70 2>&1 | FileCheck %s --check-prefix=BADTARGET

// SM90: .target sm_90a
// SM80: .target sm_80
// PTX-LABEL: .visible .entry softmax_rows(
// PTX: .param .u64 .ptr .global .align 1 softmax_rows_param_0,
// PTX: .maxntid 128, 1, 1
// PTX: @%p{{[0-9]+}} ld.global.b32
// PTX: bar.sync 0;
// PTX: ex2.approx.ftz.f32
// PTX: @%p{{[0-9]+}} st.global.b32
// BADTARGET: unsupported target 'sm_70' (expected sm_90a or sm_80)
tile.kernel @softmax_rows(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] padding(0xFFF0000000000000) : !tile.view<?x?xf32> -> tensor<4x128xf32>
  %m = tile.reduce max %t axis 1 : tensor<4x128xf32> -> tensor<4x1xf32>
  %mb = tile.broadcast %m : tensor<4x1xf32> -> tensor<4x128xf32>
  %d = arith.subf %t, %mb : tensor<4x128xf32>
  %e = math.exp2 %d : tensor<4x128xf32>
  %s = tile.reduce sum %e axis 1 : tensor<4x128xf32> -> tensor<4x1xf32>
  %sb = tile.broadcast %s : tensor<4x1xf32> -> tensor<4x128xf32>
  %p = arith.divf %e, %sb : tensor<4x128xf32>
  tile.store %p, %y[%i, %c0] : tensor<4x128xf32> -> !tile.view<?x?xf32>
}
