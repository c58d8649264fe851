// RUN: tile-opt %s -split-input-file --tile-assign-layouts "--tile-accelerate-mma=target=sm_90a wgmma-tf32=1" --canonicalize --tile-remove-layout-conversions --canonicalize | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-accelerate-mma=target=sm_90a | FileCheck %s --check-prefix=SM80
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-accelerate-mma | FileCheck %s --check-prefix=SM80

// f32 inputs on sm_90a with wgmma-tf32: wgmma on tf32, which reads both operands K-major.
// Both are rounded to tf32 first (as mma.sync's fragments and the
// interpreter round them) and held as f32; B (K x N) is transposed in
// registers (a blocked layout with its dimensions swapped: no data moves)
// and written N x K, read with `transposed`.
// CHECK-DAG:   #[[BL:[a-z0-9_]+]] = #tile.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>
// CHECK-DAG:   #[[BT:[a-z0-9_]+]] = #tile.blocked<spt = [8, 1], tpw = [8, 4], wpc = [1, 4], order = [0, 1]>
// CHECK-DAG:   #[[MMA:[a-z0-9_]+]] = #tile.mma<version = 3, wpc = [4, 1], instr = [64, 64]>
// CHECK-LABEL: tile.kernel @nn
// CHECK:       %[[A:.*]] = tile.load {{.*}} -> tensor<64x32xf32
// CHECK:       %[[B:.*]] = tile.load {{.*}} -> tensor<32x64xf32, #[[BL]]>
// CHECK:       %[[RA:.*]] = arith.truncf %[[A]] : tensor<64x32xf32, #{{.*}}> to tensor<64x32xtf32
// CHECK:       %[[EA:.*]] = arith.extf %[[RA]]
// CHECK:       %[[RB:.*]] = arith.truncf %[[B]] : tensor<32x64xf32, #[[BL]]> to tensor<32x64xtf32, #[[BL]]>
// CHECK:       %[[EB:.*]] = arith.extf %[[RB]]
// CHECK:       %[[T:.*]] = tile.permute %[[EB]] [1, 0] : tensor<32x64xf32, #[[BL]]> -> tensor<64x32xf32, #[[BT]]>
// CHECK:       %[[SA:.*]] = tile.local_alloc %[[EA]] : {{.*}} -> !tile.smem<64x32xf32, #tile.nvmma_shared<swizzle = 128>>
// CHECK:       %[[SB:.*]] = tile.local_alloc %[[T]] : {{.*}} -> !tile.smem<64x32xf32, #tile.nvmma_shared<swizzle = 128>>
// CHECK:       tile.warpgroup_mma %[[SA]], %[[SB]] transposed, %{{.*}} : !tile.smem<64x32xf32, {{.*}}>, !tile.smem<64x32xf32, {{.*}}>, tensor<64x64xf32, #[[MMA]]>
// Without the option (and on sm_80) they stay on mma.sync (m16n8k8).
// SM80-LABEL: tile.kernel @nn
// SM80-NOT:   tile.warpgroup_mma
// SM80:       tile.mma {{.*}} : tensor<64x32xf32, #dot_op>
tile.kernel @nn(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.mma %ta, %tb, %z : tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>
  tile.store %d, %c[%i, %i] : tensor<64x64xf32> -> !tile.view<?x?xf32>
}

// -----

// A B that is the transpose of a loaded N x K tile is written as loaded;
// an A that is a transpose stays M x K (tf32 has no transposed A).
// CHECK-LABEL: tile.kernel @tn_nt
// CHECK:       %[[AT:.*]] = tile.load {{.*}} -> tensor<32x64xf32
// CHECK:       %[[BT:.*]] = tile.load {{.*}} -> tensor<64x32xf32
// CHECK:       %[[A:.*]] = tile.permute %[[AT]] [1, 0] : tensor<32x64xf32, #{{.*}}> -> tensor<64x32xf32
// CHECK:       arith.truncf %[[A]]
// CHECK:       arith.truncf %[[BT]]
// CHECK-NOT:   tile.permute
// CHECK:       tile.warpgroup_mma %{{.*}}, %{{.*}} transposed, %{{.*}} : !tile.smem<64x32xf32, {{.*}}>, !tile.smem<64x32xf32, {{.*}}>
tile.kernel @tn_nt(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>, %j: index) {
  %i = tile.program_id x : index
  %at = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  %bt = tile.load %a[%j, %j] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  %ta = tile.permute %at [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
  %tb = tile.permute %bt [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.mma %ta, %tb, %z : tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>
  tile.store %d, %c[%i, %i] : tensor<64x64xf32> -> !tile.view<?x?xf32>
}

// -----

// tf32x3 (three products of split operands, about f32 accurate) stays on
// mma.sync; exact f32 products (ieee) stay off the Tensor Cores.
// CHECK-LABEL: tile.kernel @tf32x3
// CHECK-NOT:   tile.warpgroup_mma
// CHECK:       tile.mma {{.*}}precision(tf32x3) : tensor<64x32xf32, #dot_op>
// CHECK-LABEL: tile.kernel @ieee
// CHECK-NOT:   tile.warpgroup_mma
// CHECK:       tile.mma {{.*}}precision(ieee)
tile.kernel @tf32x3(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.mma %ta, %tb, %z precision(tf32x3) : tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>
  tile.store %d, %c[%i, %i] : tensor<64x64xf32> -> !tile.view<?x?xf32>
}
tile.kernel @ieee(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.mma %ta, %tb, %z precision(ieee) : tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>
  tile.store %d, %c[%i, %i] : tensor<64x64xf32> -> !tile.view<?x?xf32>
}
