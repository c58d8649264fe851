// wgmma with A from registers: an accumulator (after math in its registers)
// is the A operand of the next product inside a pipelined loop. The PTX
// passes A as four 32-bit registers of packed pairs (no descriptor, no
// transpose immediate), with no shared-memory write of it, and the loop
// waits for that wgmma before its registers can be rewritten (no group
// kept in flight across iterations).
// RUN: tile-compile %s --target sm_90a -o %t.ptx
// RUN: FileCheck %s --input-file %t.ptx
// RUN: tile-compile %s --target sm_90a --no-wgmma-register-a | FileCheck %s --check-prefix=OFF
// (ptxas.mlir checks ptxas takes it with no spills and no serialized wgmma.)

// CHECK-LABEL: .entry chain_loop(
// The first product: descriptors for A and B, A not transposed, B MN-major;
// its accumulator is zero, so the first K step does not read it (scale-d z).
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, z, 1, 1, 0, 1;
// CHECK: wgmma.wait_group.sync.aligned 0;
// The second: A as registers, packed before the fence (they pass through
// it), K = 64 in four steps.
// CHECK: or.b32
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.fence.sync.aligned;
// CHECK-NOT: or.b32
// CHECK: { .reg .pred p, z; setp.ne.b32 p, [[FLAG:%r[0-9]+]], 0; setp.eq.b32 z, [[FLAG]], 0;
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {{{(%r[0-9]+, ){15}%r[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NOT: wgmma.mma_async
// CHECK: bar.sync
// Without: every wgmma takes two descriptors.
// OFF-COUNT-6: wgmma.mma_async.sync.aligned.m64n{{32|64}}k16.f32.bf16.bf16 {{{[^}]*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, {{p|z}}, 1, 1, 0, 1;
// OFF-NOT: wgmma.mma_async
tile.kernel @chain_loop(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %i = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %z2 = arith.constant dense<0.0> : tensor<64x32xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z2) -> (tensor<64x32xf32>) {
    %ta = tile.load %a[%i, %k] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %a[%k, %i] : !tile.view<?x?xbf16> -> tensor<32x64xbf16>
    %tf = tile.load %a[%k, %i] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
    %d = tile.mma %ta, %tb, %z : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    %h = arith.truncf %d : tensor<64x64xf32> to tensor<64x64xbf16>
    %e = tile.mma %h, %tf, %acc : tensor<64x64xbf16>, tensor<64x32xbf16>, tensor<64x32xf32>
    scf.yield %e : tensor<64x32xf32>
  }
  tile.store %r, %c[%i, %i] : tensor<64x32xf32> -> !tile.view<?x?xf32>
}
