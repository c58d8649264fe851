// tile-merge-barriers: a CTA barrier that follows another with nothing
// between them that touches memory (arithmetic, shuffles) is dropped;
// loads, stores, other inline assembly, calls and block boundaries keep it.
// RUN: tile-opt %s --tile-merge-barriers | FileCheck %s
// Through tile-compile --merge-barriers (off by default): the SSD walk at
// dstate 64 keeps 20 of its 22 barriers (the ends of back-to-back
// exchanges).
// RUN: tessera print ssd-fused --dtype bf16 --dstate 64 --headdim 64 --options layer > %t.mlir
// RUN: tile-compile %t.mlir --target sm_90a --merge-barriers | FileCheck %s --check-prefix=SSD
// RUN: tile-compile %t.mlir --target sm_90a | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: llvm.func @runs
llvm.func @runs(%p: !llvm.ptr<3>, %v: i32) -> i32 {
  // CHECK:      nvvm.barrier0
  // CHECK-NEXT: llvm.add
  // CHECK-NEXT: llvm.store
  nvvm.barrier0
  %a = llvm.add %v, %v : i32
  nvvm.barrier0
  llvm.store %a, %p : i32, !llvm.ptr<3>
  // After a store and after a load, the barrier stays.
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: llvm.load
  // CHECK-NEXT: nvvm.barrier0
  nvvm.barrier0
  %b = llvm.load %p : !llvm.ptr<3> -> i32
  nvvm.barrier0
  // A shuffle touches no memory: the barrier after it goes.
  // CHECK-NEXT: llvm.inline_asm has_side_effects "shfl.sync.bfly.b32
  // CHECK-NEXT: llvm.inline_asm has_side_effects "ldmatrix
  %s = llvm.inline_asm has_side_effects "shfl.sync.bfly.b32 $0, $1, 1, 31, -1;", "=r,r" %b : (i32) -> i32
  nvvm.barrier0
  // Other inline assembly may read or write shared memory: kept.
  %m = llvm.inline_asm has_side_effects "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {$0}, [$1];", "=r,r" %s : (i32) -> i32
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: llvm.inline_asm has_side_effects "shfl.sync.bfly.b32 $0, $1, 1, 31, -1; st.shared
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: llvm.call @callee
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: nvvm.cp.async.wait.group 0
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: llvm.br
  nvvm.barrier0
  // A shuffle with more after it in the same string: kept.
  %t = llvm.inline_asm has_side_effects "shfl.sync.bfly.b32 $0, $1, 1, 31, -1; st.shared.b32 [$1], $0;", "=r,r" %m : (i32) -> i32
  nvvm.barrier0
  // Calls and NVVM ops that declare no effects: kept.
  llvm.call @callee() : () -> ()
  nvvm.barrier0
  nvvm.cp.async.wait.group 0
  nvvm.barrier0
  llvm.br ^next
// A new block starts a new run.
// CHECK-NEXT: ^bb1:
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: llvm.return
^next:
  nvvm.barrier0
  llvm.return %t : i32
}
llvm.func @callee()

// SSD-COUNT-20: bar.sync
// SSD-NOT:      bar.sync
// OFF-COUNT-22: bar.sync
// OFF-NOT:      bar.sync
