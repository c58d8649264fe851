// RUN: tile-opt %s -split-input-file --tile-assign-layouts=num-warps=8 --tile-accelerate-mma=target=sm_90a | FileCheck %s --check-prefixes=CHECK,MONLY
// RUN: tile-opt %s -split-input-file --tile-assign-layouts=num-warps=8 "--tile-accelerate-mma=target=sm_90a warpgroups-along-n=1" | FileCheck %s --check-prefixes=CHECK,ALONGN
// RUN: tile-opt %s -split-input-file --tile-assign-layouts=num-warps=8 --tile-accelerate-mma | FileCheck %s --check-prefix=SM80
// RUN: not tile-opt %s -split-input-file --tile-accelerate-mma=target=sm_70 2>&1 | FileCheck %s --check-prefix=BADTARGET

// BADTARGET: tile-accelerate-mma: unknown target 'sm_70' (expected sm_80 or sm_90a)

// The Hopper GEMM tile: A (128 x 64) and B (64 x 256) go to 128-byte
// swizzled shared memory, the accumulator to one m64n256 wgmma per
// warpgroup (two warpgroups along M).
// CHECK-LABEL: tile.kernel @hopper
// CHECK: %[[A:.*]] = tile.local_alloc %{{.*}} : tensor<128x64xbf16, #{{.*}}> -> !tile.smem<128x64xbf16, #tile.nvmma_shared<swizzle = 128>>
// CHECK: %[[B:.*]] = tile.local_alloc %{{.*}} : tensor<64x256xbf16, #{{.*}}> -> !tile.smem<64x256xbf16, #tile.nvmma_shared<swizzle = 128>>
// CHECK: %[[C:.*]] = tile.convert_layout %{{.*}} -> tensor<128x256xf32, #[[MMA:.*]]>
// CHECK: %[[D:.*]] = tile.warpgroup_mma %[[A]], %[[B]], %[[C]]
// CHECK: tile.warpgroup_mma_wait %[[D]] pending 0 : tensor<128x256xf32, #[[MMA]]>
// SM80-LABEL: tile.kernel @hopper
// SM80-NOT: tile.warpgroup_mma
// SM80: tile.local_load
// SM80: tile.mma {{.*}} tensor<128x256xf32, #mma>
tile.kernel @hopper(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
  %tb = tile.load %b[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x256xbf16>
  %z = arith.constant dense<0.0> : tensor<128x256xf32>
  %d = tile.mma %ta, %tb, %z : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
  tile.store %d, %c[%i, %i] : tensor<128x256xf32> -> !tile.view<?x?xf32>
}

// -----

// Narrow rows take narrower swizzles: 32 f16 = 64 bytes, 16 f16 = 32 bytes.
// The instruction N is the tile's N (here 32).
// CHECK: #[[NARROW:.*]] = #tile.mma<version = 3, wpc = [8, 1], instr = [64, 16]>
// CHECK-LABEL: tile.kernel @narrow
// CHECK: tile.local_alloc {{.*}} -> !tile.smem<128x32xf16, #tile.nvmma_shared<swizzle = 64>>
// CHECK: tile.local_alloc {{.*}} -> !tile.smem<32x16xf16, #tile.nvmma_shared<swizzle = 32>>
// CHECK: tile.warpgroup_mma {{.*}} tensor<128x16xf32, #[[NARROW]]>
tile.kernel @narrow(%a: !tile.view<?x?xf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xf16> -> tensor<128x32xf16>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xf16> -> tensor<32x16xf16>
  %z = arith.constant dense<0.0> : tensor<128x16xf32>
  %d = tile.mma %ta, %tb, %z : tensor<128x32xf16>, tensor<32x16xf16>, tensor<128x16xf32>
  tile.store %d, %c[%i, %i] : tensor<128x16xf32> -> !tile.view<?x?xf32>
}

// -----

// N beyond 256 repeats the widest instruction; M repeats the warpgroups.
// CHECK: #[[WIDE:.*]] = #tile.mma<version = 3, wpc = [8, 1], instr = [64, 256]>
// CHECK-LABEL: tile.kernel @wide
// CHECK: tile.warpgroup_mma {{.*}} tensor<256x512xf32, #[[WIDE]]>
tile.kernel @wide(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<256x16xbf16>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<16x512xbf16>
  %z = arith.constant dense<0.0> : tensor<256x512xf32>
  %d = tile.mma %ta, %tb, %z : tensor<256x16xbf16>, tensor<16x512xbf16>, tensor<256x512xf32>
  tile.store %d, %c[%i, %i] : tensor<256x512xf32> -> !tile.view<?x?xf32>
}

// -----

// 64 rows on 8 warps: mma.sync by default; with warpgroups-along-n one
// warpgroup along M, two along N, each taking 32 columns (instruction N
// 32). B is stepped by 32 columns, so its swizzle rows are 64 bytes (32
// bf16), not 128; a transposed B (K-major) keeps 128.
// MONLY-LABEL: tile.kernel @warpgroups_along_n
// MONLY-NOT: tile.warpgroup_mma
// MONLY: tile.mma {{.*}} tensor<64x64xf32, #mma{{[0-9]*}}>
// ALONGN: #[[ALONGN:.*]] = #tile.mma<version = 3, wpc = [4, 2], instr = [64, 32]>
// ALONGN-LABEL: tile.kernel @warpgroups_along_n
// ALONGN: tile.local_alloc {{.*}} -> !tile.smem<16x64xbf16, #tile.nvmma_shared<swizzle = 64>>
// ALONGN: tile.warpgroup_mma {{.*}} tensor<64x64xf32, #[[ALONGN]]>
// ALONGN: tile.local_alloc {{.*}} -> !tile.smem<64x64xbf16, #tile.nvmma_shared<swizzle = 128>>
// ALONGN: tile.warpgroup_mma {{.*}} transposed, {{.*}} tensor<64x64xf32, #[[ALONGN]]>
tile.kernel @warpgroups_along_n(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x16xbf16>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<16x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.mma %ta, %tb, %z : tensor<64x16xbf16>, tensor<16x64xbf16>, tensor<64x64xf32>
  %tk = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %bt = tile.permute %tk [1, 0] : tensor<64x64xbf16> -> tensor<64x64xbf16>
  %ta2 = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %e = tile.mma %ta2, %bt, %d : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  tile.store %e, %c[%i, %i] : tensor<64x64xf32> -> !tile.view<?x?xf32>
}

// -----

// Fewer rows than one warpgroup covers (32 rows): mma.sync. f32 inputs:
// tf32 mma.sync (kwidth 1), never wgmma here.
// CHECK: #[[V2:.*]] = #tile.mma<version = 2, wpc = [2, 4], instr = [16, 8]>
// CHECK-LABEL: tile.kernel @fallbacks
// CHECK-NOT: tile.warpgroup_mma
// CHECK: tile.mma {{.*}} tensor<32x64xf32, #[[V2]]>
// CHECK: tile.mma {{.*}} : tensor<32x16xf32, #dot_op{{[0-9]*}}>, tensor<16x64xf32, #dot_op{{[0-9]*}}>, tensor<32x64xf32, #[[V2]]>
// CHECK-NOT: tile.warpgroup_mma
tile.kernel @fallbacks(%a: !tile.view<?x?xbf16>, %f: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<32x16xbf16>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<16x64xbf16>
  %z = arith.constant dense<0.0> : tensor<32x64xf32>
  %d = tile.mma %ta, %tb, %z : tensor<32x16xbf16>, tensor<16x64xbf16>, tensor<32x64xf32>
  %fa = tile.load %f[%i, %i] : !tile.view<?x?xf32> -> tensor<32x16xf32>
  %fb = tile.load %f[%i, %i] : !tile.view<?x?xf32> -> tensor<16x64xf32>
  %e = tile.mma %fa, %fb, %d : tensor<32x16xf32>, tensor<16x64xf32>, tensor<32x64xf32>
  tile.store %e, %c[%i, %i] : tensor<32x64xf32> -> !tile.view<?x?xf32>
}

// -----

// Transposed operands are written to shared memory as loaded and read
// transposed by wgmma: A^T (stored K x M, M-major) and B^T (stored N x K,
// K-major); the permutes are left dead.
// CHECK-LABEL: tile.kernel @transposed
// CHECK: %[[LA:.*]] = tile.load {{.*}} -> tensor<64x128xbf16
// CHECK: %[[LB:.*]] = tile.load {{.*}} -> tensor<64x64xbf16
// CHECK: %[[AT:.*]] = tile.local_alloc %[[LA]] : tensor<64x128xbf16, #{{.*}}> -> !tile.smem<64x128xbf16, #tile.nvmma_shared<swizzle = 128>>
// CHECK: %[[BT:.*]] = tile.local_alloc %[[LB]] : tensor<64x64xbf16, #{{.*}}> -> !tile.smem<64x64xbf16, #tile.nvmma_shared<swizzle = 128>>
// CHECK: tile.warpgroup_mma %[[AT]] transposed, %[[BT]] transposed, %{{.*}} : !tile.smem<64x128xbf16, {{.*}}>, !tile.smem<64x64xbf16, {{.*}}>, tensor<128x64xf32
// SM80-LABEL: tile.kernel @transposed
// SM80: tile.permute
tile.kernel @transposed(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.program_id x : index
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
  %tb = tile.load %a[%i, %i] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %at = tile.permute %ta [1, 0] : tensor<64x128xbf16> -> tensor<128x64xbf16>
  %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16> -> tensor<64x64xbf16>
  %z = arith.constant dense<0.0> : tensor<128x64xf32>
  %d = tile.mma %at, %bt, %z : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
  tile.store %d, %c[%i, %i] : tensor<128x64xf32> -> !tile.view<?x?xf32>
}
