// tile-compile --no-coordinate-compares keeps the per-register compare of
// both coordinates of a causal mask; by default it is one difference a
// thread against a constant a register (setp with an immediate).
// RUN: tile-compile %s --target sm_90a -o %t.on.ptx
// RUN: FileCheck %s --input-file %t.on.ptx --check-prefix=ON
// RUN: tile-compile %s --target sm_90a --no-coordinate-compares -o %t.off.ptx
// RUN: FileCheck %s --input-file %t.off.ptx --check-prefix=OFF
// ON-LABEL: .entry causal(
// ON-COUNT-16: setp.lt.s32 {{.*}}, {{-?[0-9]+}};
// OFF-LABEL: .entry causal(
// OFF-NOT:  setp.lt.s32
// OFF:      setp.gt.u32 %p{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// OFF-NOT:  setp.lt.s32
#mma = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @causal(%v: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %t = tile.load %v[%i, %i] : !tile.view<?x?xf32> -> tensor<64x64xf32, #mma>
  %cols = tile.iota dim 1 : tensor<64x64xi32, #mma>
  %rows = tile.iota : tensor<64x64xi32, #mma>
  %causal = arith.cmpi sle, %cols, %rows : tensor<64x64xi32, #mma>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %m = arith.select %causal, %t, %zero : tensor<64x64xi1, #mma>, tensor<64x64xf32, #mma>
  tile.store %m, %w[%i, %i] : tensor<64x64xf32, #mma> -> !tile.view<?x?xf32>
}
}
