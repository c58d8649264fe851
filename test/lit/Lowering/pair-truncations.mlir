// tile-pair-truncations: two f32 truncated to bf16 (or f16) and packed
// into one 32-bit word, low half first, become one truncation of a
// two-lane vector: PTX cvt.rn.bf16x2.f32 instead of two cvt.rn.bf16.f32
// and a pack. Anything else is left alone.
// RUN: tile-opt %s --tile-pair-truncations --cse | FileCheck %s
// Through tile-compile (--pair-truncations): the packed A operand of the
// register-A wgmma converts in pairs, with no single conversion left.
// RUN: tile-compile %S/wgmma-register-a.mlir --target sm_90a --pair-truncations | FileCheck %s --check-prefix=PTX
// RUN: tile-compile %S/wgmma-register-a.mlir --target sm_90a | FileCheck %s --check-prefix=OFF

// PTX-LABEL: .entry chain_loop(
// PTX-NOT: cvt.rn.bf16.f32
// PTX: cvt.rn.bf16x2.f32
// PTX-NOT: cvt.rn.bf16.f32
// PTX: wgmma.fence.sync.aligned;
// PTX-NOT: cvt.rn.bf16.f32
// PTX: ret;
// OFF-LABEL: .entry chain_loop(
// OFF: cvt.rn.bf16.f32
// OFF-NOT: cvt.rn.bf16x2.f32
// OFF: wgmma.fence.sync.aligned;

// The low half (shifted by nothing) is lane 0.
// CHECK-LABEL: llvm.func @bf16_pair(
// CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32)
// CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[V0:.*]] = llvm.insertelement %[[A]], %{{.*}}[%[[C0]] : i32] : vector<2xf32>
// CHECK: %[[V1:.*]] = llvm.insertelement %[[B]], %[[V0]][%[[C1]] : i32] : vector<2xf32>
// CHECK: %[[T:.*]] = llvm.fptrunc %[[V1]] : vector<2xf32> to vector<2xbf16>
// CHECK: %[[R:.*]] = llvm.bitcast %[[T]] : vector<2xbf16> to i32
// CHECK-NOT: llvm.or
// CHECK: llvm.return %[[R]]
llvm.func @bf16_pair(%a: f32, %b: f32) -> i32 {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %ta = llvm.fptrunc %a : f32 to bf16
  %tb = llvm.fptrunc %b : f32 to bf16
  %ia = llvm.bitcast %ta : bf16 to i16
  %ib = llvm.bitcast %tb : bf16 to i16
  %za = llvm.zext %ia : i16 to i32
  %zb = llvm.zext %ib : i16 to i32
  %hb = llvm.shl %zb, %c16 : i32
  %r = llvm.or %za, %hb : i32
  llvm.return %r : i32
}

// The shifted half first in the or, and f16.
// CHECK-LABEL: llvm.func @f16_pair_swapped(
// CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32)
// CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.insertelement %[[A]], %{{.*}}[%[[C0]] : i32]
// CHECK: llvm.insertelement %[[B]], %{{.*}}[%[[C1]] : i32]
// CHECK: llvm.fptrunc %{{.*}} : vector<2xf32> to vector<2xf16>
// CHECK-NOT: llvm.or
llvm.func @f16_pair_swapped(%a: f32, %b: f32) -> i32 {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %ta = llvm.fptrunc %a : f32 to f16
  %tb = llvm.fptrunc %b : f32 to f16
  %ia = llvm.bitcast %ta : f16 to i16
  %ib = llvm.bitcast %tb : f16 to i16
  %za = llvm.zext %ia : i16 to i32
  %zb = llvm.zext %ib : i16 to i32
  %hb = llvm.shl %zb, %c16 : i32
  %r = llvm.or %hb, %za : i32
  llvm.return %r : i32
}

// A packing loop that shifts every element, the first by 0.
// CHECK-LABEL: llvm.func @shifted_by_zero(
// CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32)
// CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.insertelement %[[A]], %{{.*}}[%[[C0]] : i32]
// CHECK: llvm.insertelement %[[B]], %{{.*}}[%[[C1]] : i32]
// CHECK: llvm.fptrunc %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK-NOT: llvm.or
llvm.func @shifted_by_zero(%a: f32, %b: f32) -> i32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %ta = llvm.fptrunc %a : f32 to bf16
  %tb = llvm.fptrunc %b : f32 to bf16
  %ia = llvm.bitcast %ta : bf16 to i16
  %ib = llvm.bitcast %tb : bf16 to i16
  %za = llvm.zext %ia : i16 to i32
  %zb = llvm.zext %ib : i16 to i32
  %la = llvm.shl %za, %c0 : i32
  %hb = llvm.shl %zb, %c16 : i32
  %r = llvm.or %la, %hb : i32
  llvm.return %r : i32
}

// A vector of bf16 built lane by lane from truncations (a tile's store):
// one truncation of the vector of f32, lanes in their places.
// CHECK-LABEL: llvm.func @vector_of_truncations(
// CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %[[D:.*]]: f32
// CHECK-DAG: %[[I0:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-DAG: %[[I1:.*]] = llvm.mlir.constant(1 : i32)
// CHECK-DAG: %[[I2:.*]] = llvm.mlir.constant(2 : i32)
// CHECK-DAG: %[[I3:.*]] = llvm.mlir.constant(3 : i32)
// CHECK: llvm.insertelement %[[C]], %{{.*}}[%[[I0]] : i32] : vector<4xf32>
// CHECK: llvm.insertelement %[[A]], %{{.*}}[%[[I1]] : i32] : vector<4xf32>
// CHECK: llvm.insertelement %[[D]], %{{.*}}[%[[I2]] : i32] : vector<4xf32>
// CHECK: llvm.insertelement %[[B]], %{{.*}}[%[[I3]] : i32] : vector<4xf32>
// CHECK: %[[T:.*]] = llvm.fptrunc %{{.*}} : vector<4xf32> to vector<4xbf16>
// CHECK: llvm.store %[[T]]
llvm.func @vector_of_truncations(%a: f32, %b: f32, %c: f32, %d: f32, %p: !llvm.ptr<3>) {
  %i0 = llvm.mlir.constant(0 : i32) : i32
  %i1 = llvm.mlir.constant(1 : i32) : i32
  %i2 = llvm.mlir.constant(2 : i32) : i32
  %i3 = llvm.mlir.constant(3 : i32) : i32
  %u = llvm.mlir.undef : vector<4xbf16>
  %ta = llvm.fptrunc %a : f32 to bf16
  %tb = llvm.fptrunc %b : f32 to bf16
  %tc = llvm.fptrunc %c : f32 to bf16
  %td = llvm.fptrunc %d : f32 to bf16
  %v0 = llvm.insertelement %ta, %u[%i1 : i32] : vector<4xbf16>
  %v1 = llvm.insertelement %tb, %v0[%i3 : i32] : vector<4xbf16>
  %v2 = llvm.insertelement %tc, %v1[%i0 : i32] : vector<4xbf16>
  %v3 = llvm.insertelement %td, %v2[%i2 : i32] : vector<4xbf16>
  llvm.store %v3, %p : vector<4xbf16>, !llvm.ptr<3>
  llvm.return
}

// A lane written twice counts its last value: a truncation over an
// earlier lane that was not one still pairs. Written the other way round,
// the chain is already whole (and truncated) before the last write, which
// then replaces lane 0 of the paired result.
// CHECK-LABEL: llvm.func @written_twice(
// CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32
// CHECK-DAG: %[[I0:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-DAG: %[[I1:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: llvm.insertelement %[[B]], %{{.*}}[%[[I0]] : i32] : vector<2xf32>
// CHECK: llvm.insertelement %[[A]], %{{.*}}[%[[I1]] : i32] : vector<2xf32>
// CHECK: llvm.fptrunc %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK-LABEL: llvm.func @overwritten(
// CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32, %[[H:.*]]: bf16
// CHECK-DAG: %[[I0:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-DAG: %[[I1:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: llvm.insertelement %[[A]], %{{.*}}[%[[I0]] : i32] : vector<2xf32>
// CHECK: llvm.insertelement %[[B]], %{{.*}}[%[[I1]] : i32] : vector<2xf32>
// CHECK: %[[T:.*]] = llvm.fptrunc %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK: %[[V:.*]] = llvm.insertelement %[[H]], %[[T]][%[[I0]] : i32] : vector<2xbf16>
// CHECK: llvm.store %[[V]]
llvm.func @written_twice(%a: f32, %b: f32, %h: bf16, %p: !llvm.ptr<3>) {
  %i0 = llvm.mlir.constant(0 : i32) : i32
  %i1 = llvm.mlir.constant(1 : i32) : i32
  %u = llvm.mlir.poison : vector<2xbf16>
  %ta = llvm.fptrunc %a : f32 to bf16
  %tb = llvm.fptrunc %b : f32 to bf16
  %v0 = llvm.insertelement %h, %u[%i0 : i32] : vector<2xbf16>
  %v1 = llvm.insertelement %ta, %v0[%i1 : i32] : vector<2xbf16>
  %v2 = llvm.insertelement %tb, %v1[%i0 : i32] : vector<2xbf16>
  llvm.store %v2, %p : vector<2xbf16>, !llvm.ptr<3>
  llvm.return
}
llvm.func @overwritten(%a: f32, %b: f32, %h: bf16, %p: !llvm.ptr<3>) {
  %i0 = llvm.mlir.constant(0 : i32) : i32
  %i1 = llvm.mlir.constant(1 : i32) : i32
  %u = llvm.mlir.poison : vector<2xbf16>
  %ta = llvm.fptrunc %a : f32 to bf16
  %tb = llvm.fptrunc %b : f32 to bf16
  %v0 = llvm.insertelement %ta, %u[%i0 : i32] : vector<2xbf16>
  %v1 = llvm.insertelement %tb, %v0[%i1 : i32] : vector<2xbf16>
  %v2 = llvm.insertelement %h, %v1[%i0 : i32] : vector<2xbf16>
  llvm.store %v2, %p : vector<2xbf16>, !llvm.ptr<3>
  llvm.return
}

// Left alone: a vector with a lane not written, or one not truncated.
// CHECK-LABEL: llvm.func @not_vectors(
// CHECK-NOT: vector<2xf32>
// CHECK-NOT: vector<4xf32>
// CHECK: llvm.return
llvm.func @not_vectors(%a: f32, %b: f32, %h: bf16, %p: !llvm.ptr<3>) {
  %i0 = llvm.mlir.constant(0 : i32) : i32
  %i1 = llvm.mlir.constant(1 : i32) : i32
  %u = llvm.mlir.undef : vector<4xbf16>
  %u2 = llvm.mlir.undef : vector<2xbf16>
  %ta = llvm.fptrunc %a : f32 to bf16
  %tb = llvm.fptrunc %b : f32 to bf16
  %v0 = llvm.insertelement %ta, %u[%i0 : i32] : vector<4xbf16>
  %v1 = llvm.insertelement %tb, %v0[%i1 : i32] : vector<4xbf16>
  llvm.store %v1, %p : vector<4xbf16>, !llvm.ptr<3>
  %w0 = llvm.insertelement %ta, %u2[%i0 : i32] : vector<2xbf16>
  %w1 = llvm.insertelement %h, %w0[%i1 : i32] : vector<2xbf16>
  llvm.store %w1, %p : vector<2xbf16>, !llvm.ptr<3>
  llvm.return
}

// Left alone: a shift other than 16, halves of different types, a half
// that is not truncated from f32.
// CHECK-LABEL: llvm.func @not_pairs(
// CHECK-NOT: vector<2x
// CHECK-COUNT-3: llvm.or
// CHECK-NOT: vector<2x
// CHECK: llvm.return
llvm.func @not_pairs(%a: f32, %b: f32, %c: f64, %d: i16) -> i32 {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %ta = llvm.fptrunc %a : f32 to bf16
  %tb = llvm.fptrunc %b : f32 to bf16
  %hb16 = llvm.fptrunc %b : f32 to f16
  %tc = llvm.fptrunc %c : f64 to bf16
  %ia = llvm.bitcast %ta : bf16 to i16
  %ib = llvm.bitcast %tb : bf16 to i16
  %ih = llvm.bitcast %hb16 : f16 to i16
  %ic = llvm.bitcast %tc : bf16 to i16
  %za = llvm.zext %ia : i16 to i32
  %zb = llvm.zext %ib : i16 to i32
  %zh = llvm.zext %ih : i16 to i32
  %zc = llvm.zext %ic : i16 to i32
  %s8 = llvm.shl %zb, %c8 : i32
  %r0 = llvm.or %za, %s8 : i32
  %sh = llvm.shl %zh, %c16 : i32
  %r1 = llvm.or %za, %sh : i32
  %sc = llvm.shl %zc, %c16 : i32
  %r2 = llvm.or %za, %sc : i32
  %x = llvm.xor %r0, %r1 : i32
  %y = llvm.xor %x, %r2 : i32
  llvm.return %y : i32
}
