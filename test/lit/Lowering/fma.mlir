// tile-compile --fma: the NVPTX backend contracts a multiply and the add or
// subtract it feeds into one fma (FPOpFusion::Fast). Without it every
// multiply and add is rounded on its own (.rn), which ptxas may not fuse
// either. Here a complex product's real part, ar * br - ai * bi.
// RUN: tile-compile %s | FileCheck %s --check-prefix=OFF
// RUN: tile-compile %s --fma | FileCheck %s --check-prefix=FMA

// OFF-LABEL: .entry complex_real(
// OFF-NOT: fma.rn.f32
// OFF: mul.rn.f32
// OFF: mul.rn.f32
// OFF: sub.rn.f32
// OFF-NOT: fma.rn.f32
// OFF: ret;
// FMA-LABEL: .entry complex_real(
// FMA-NOT: {{(sub|add)(\.rn)?\.f32}}
// FMA: fma.rn.f32
// FMA-NOT: {{(sub|add)(\.rn)?\.f32}}
// FMA: ret;
module attributes {tile.num_warps = 4 : i32} {
tile.kernel @complex_real(%a: !tile.view<?xf32>, %b: !tile.view<?xf32>, %c: !tile.view<?xf32>, %d: !tile.view<?xf32>, %y: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %ar = tile.load %a[%c0] : !tile.view<?xf32> -> tensor<128xf32>
  %ai = tile.load %b[%c0] : !tile.view<?xf32> -> tensor<128xf32>
  %br = tile.load %c[%c0] : !tile.view<?xf32> -> tensor<128xf32>
  %bi = tile.load %d[%c0] : !tile.view<?xf32> -> tensor<128xf32>
  %p = arith.mulf %ar, %br : tensor<128xf32>
  %q = arith.mulf %ai, %bi : tensor<128xf32>
  %r = arith.subf %p, %q : tensor<128xf32>
  tile.store %r, %y[%c0] : tensor<128xf32> -> !tile.view<?xf32>
  tile.return
}
}
