// Contiguous tiles are read and written 16 bytes at a time. A tile wholly
// inside its view, with last stride 1 and aligned rows (checked once per
// tile at run time), takes a branch of unpredicated vector accesses;
// otherwise each vector is checked on its own, and elements of a vector
// that is not aligned or not inside the view take predicated scalar
// accesses (with their address arithmetic behind opaque copies, so that it
// stays in that branch).
// RUN: tile-compile %s --target sm_90a | FileCheck %s

// f32: 8 elements per thread = two 16-byte vectors.
// CHECK-LABEL: .entry copy_f32(
// CHECK: @%p{{[0-9]+}} bra
// CHECK-NOT: @%p
// CHECK: {{^[[:space:]]+}}ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
// CHECK-NOT: @%p
// CHECK: {{^[[:space:]]+}}ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
// CHECK-NEXT: // end inline asm
// CHECK-NEXT: bra.uni
// CHECK: mov.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}};
// CHECK: setp.eq.{{[bs]}}64 {{.*}}, 1;
// CHECK: @%p{{[0-9]+}} ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
// CHECK: @%p{{[0-9]+}} ld.global.b32
// CHECK: {{^[[:space:]]+}}st.global.v4.b32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: @%p{{[0-9]+}} st.global.v4.b32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: @%p{{[0-9]+}} st.global.b32
tile.kernel @copy_f32(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>) {
  %i = tile.program_id x : index
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<1024xf32>
  tile.store %t, %y[%i] : tensor<1024xf32> -> !tile.view<?xf32>
}

// bf16: 8 elements per thread = one 16-byte vector of four packed words.
// CHECK-LABEL: .entry copy_bf16(
// CHECK: ld.global.v4.b32
// CHECK: ld.global.b16
// CHECK: st.global.v4.b32
// CHECK: st.global.b16
tile.kernel @copy_bf16(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>) {
  %i = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x?xbf16> -> tensor<16x64xbf16>
  tile.store %t, %y[%i, %c0] : tensor<16x64xbf16> -> !tile.view<?x?xbf16>
}

// A column (one element per row along the last dimension) cannot vectorize.
// CHECK-LABEL: .entry column(
// CHECK-NOT: .v4.
// CHECK: ld.global.b32
tile.kernel @column(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x1xf32>
  tile.store %t, %x[%c0, %c0] : tensor<64x1xf32> -> !tile.view<?x?xf32>
}
