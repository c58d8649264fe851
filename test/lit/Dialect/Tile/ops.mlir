// Round trip of every tile op, and of the arith/math/scf ops a kernel uses on
// tiles: custom form -> custom form, generic form -> custom form, and the
// bytecode of the whole file (which also checks that it parses as one module).
//
// RUN: tile-opt %s -split-input-file | tile-opt -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file --mlir-print-op-generic | tile-opt -split-input-file | FileCheck %s
// RUN: tile-opt %s -emit-bytecode | tile-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @empty()
// CHECK-NEXT:    tile.return
// CHECK-NEXT:  }
tile.kernel @empty() {
  tile.return
}

// -----

// The terminator may be left out of a non-empty body; the parser adds it.
// CHECK-LABEL: tile.kernel @implicit_terminator()
// CHECK-NEXT:    tile.program_id x : index
// CHECK-NEXT:    tile.return
tile.kernel @implicit_terminator() {
  %0 = tile.program_id x : index
}

// -----

// Every kind of kernel argument: views of every rank and element type, and
// the scalar types.
// CHECK-LABEL: tile.kernel @arguments(
// CHECK-SAME:    %{{.*}}: !tile.view<?xf32>,
// CHECK-SAME:    %{{.*}}: !tile.view<?x?xbf16>,
// CHECK-SAME:    %{{.*}}: !tile.view<?x64xf16>,
// CHECK-SAME:    %{{.*}}: !tile.view<4x?x?xf64>,
// CHECK-SAME:    %{{.*}}: !tile.view<?x?x?x?xi1>,
// CHECK-SAME:    %{{.*}}: !tile.view<?xi8>,
// CHECK-SAME:    %{{.*}}: !tile.view<?xi16>,
// CHECK-SAME:    %{{.*}}: !tile.view<?xi32>,
// CHECK-SAME:    %{{.*}}: !tile.view<?xi64>,
// CHECK-SAME:    %{{.*}}: index, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: f32, %{{.*}}: f64)
tile.kernel @arguments(%a: !tile.view<?xf32>, %b: !tile.view<?x?xbf16>,
                       %c: !tile.view<?x64xf16>, %d: !tile.view<4x?x?xf64>,
                       %e: !tile.view<?x?x?x?xi1>, %f: !tile.view<?xi8>,
                       %g: !tile.view<?xi16>, %h: !tile.view<?xi32>,
                       %i: !tile.view<?xi64>,
                       %n: index, %m: i32, %l: i64, %s: f32, %t: f64) {
  tile.return
}

// -----

// Argument and kernel attributes are kept.
// CHECK-LABEL: tile.kernel @attributes(
// CHECK-SAME:    %{{.*}}: !tile.view<?xf32> {tile.note = "x"}, %{{.*}}: i32)
// CHECK-SAME:    attributes {tile.config = [64, 64]}
tile.kernel @attributes(%x: !tile.view<?xf32> {tile.note = "x"}, %n: i32)
    attributes {tile.config = [64, 64]} {
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @grid(
// CHECK-SAME:    %[[V:.*]]: !tile.view<?x64x?xf32>)
tile.kernel @grid(%v: !tile.view<?x64x?xf32>) {
  // CHECK-NEXT: tile.program_id x : index
  // CHECK-NEXT: tile.program_id y : index
  // CHECK-NEXT: tile.program_id z : index
  // CHECK-NEXT: tile.num_programs x : index
  // CHECK-NEXT: tile.num_programs y : index
  // CHECK-NEXT: tile.num_programs z : index
  // CHECK-NEXT: tile.dim %[[V]][0] : !tile.view<?x64x?xf32>
  // CHECK-NEXT: tile.dim %[[V]][1] : !tile.view<?x64x?xf32>
  // CHECK-NEXT: tile.dim %[[V]][2] : !tile.view<?x64x?xf32>
  %px = tile.program_id x : index
  %py = tile.program_id y : index
  %pz = tile.program_id z : index
  %nx = tile.num_programs x : index
  %ny = tile.num_programs y : index
  %nz = tile.num_programs z : index
  %d0 = tile.dim %v[0] : !tile.view<?x64x?xf32>
  %d1 = tile.dim %v[1] : !tile.view<?x64x?xf32>
  %d2 = tile.dim %v[2] : !tile.view<?x64x?xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: tile.kernel @load_hints(
// CHECK-SAME:    %[[X:.*]]: !tile.view<?x?xbf16>, %[[I:.*]]: index, %[[J:.*]]: index)
tile.kernel @load_hints(%x: !tile.view<?x?xbf16>, %i: index, %j: index) {
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %0 = tile.load %x[%i, %j] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] padding(1.000000e+00) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %1 = tile.load %x[%i, %j] padding(1.0) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] latency(1) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %2 = tile.load %x[%i, %j] latency(1) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] latency(10) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %3 = tile.load %x[%i, %j] latency(10) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] cache(normal) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %4 = tile.load %x[%i, %j] cache(normal) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] cache(evict_first) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %5 = tile.load %x[%i, %j] cache(evict_first) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] cache(evict_last) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %6 = tile.load %x[%i, %j] cache(evict_last) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] allow_tma : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %7 = tile.load %x[%i, %j] allow_tma : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] padding(0.000000e+00) latency(3) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %8 = tile.load %x[%i, %j] padding(0.0) latency(3) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] padding(-2.500000e+00) cache(evict_first) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %9 = tile.load %x[%i, %j] padding(-2.5) cache(evict_first) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] padding(0.000000e+00) allow_tma : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %10 = tile.load %x[%i, %j] padding(0.0) allow_tma : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] latency(5) cache(evict_last) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %11 = tile.load %x[%i, %j] latency(5) cache(evict_last) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] latency(2) allow_tma : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %12 = tile.load %x[%i, %j] latency(2) allow_tma : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] cache(evict_first) allow_tma : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %13 = tile.load %x[%i, %j] cache(evict_first) allow_tma : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] padding(0.000000e+00) latency(7) cache(evict_last) allow_tma : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %14 = tile.load %x[%i, %j] padding(0.0) latency(7) cache(evict_last) allow_tma : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] at_use : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %at = tile.load %x[%i, %j] at_use : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] padding(-1.000000e+00) cache(evict_first) at_use : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %at2 = tile.load %x[%i, %j] padding(-1.0) cache(evict_first) at_use : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // -inf (the padding of a max reduction) is written as the bits of an f64.
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] padding(0xFFF0000000000000) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %15 = tile.load %x[%i, %j] padding(0xFFF0000000000000) : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  // Any order of hints in the source is accepted through the attribute
  // dictionary; it prints in the canonical order.
  // CHECK-NEXT: tile.load %[[X]][%[[I]], %[[J]]] padding(0.000000e+00) latency(4) cache(evict_first) allow_tma : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %16 = tile.load %x[%i, %j] {allow_tma, cache = 1 : i32, latency = 4 : i32, padding = 0.0 : f64} : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  tile.return
}

// -----

// The padding of an integer tile may be any value of its element type, ends of
// the range included.
// CHECK-LABEL: tile.kernel @load_int_padding(
tile.kernel @load_int_padding(%a: !tile.view<?xi1>, %b: !tile.view<?xi8>,
                              %c: !tile.view<?xi32>, %d: !tile.view<?xi64>,
                              %i: index) {
  // CHECK-NEXT: padding(0.000000e+00) : !tile.view<?xi1> -> tensor<64xi1>
  // CHECK-NEXT: padding(1.000000e+00) : !tile.view<?xi1> -> tensor<64xi1>
  // CHECK-NEXT: padding(-1.280000e+02) : !tile.view<?xi8> -> tensor<64xi8>
  // CHECK-NEXT: padding(1.270000e+02) : !tile.view<?xi8> -> tensor<64xi8>
  // CHECK-NEXT: padding(0xC1E0000000000000) : !tile.view<?xi32> -> tensor<64xi32>
  // CHECK-NEXT: padding(0x41DFFFFFFFC00000) : !tile.view<?xi32> -> tensor<64xi32>
  // CHECK-NEXT: padding(-9.2233720368547758E+18) : !tile.view<?xi64> -> tensor<64xi64>
  %0 = tile.load %a[%i] padding(0.0) : !tile.view<?xi1> -> tensor<64xi1>
  %1 = tile.load %a[%i] padding(1.0) : !tile.view<?xi1> -> tensor<64xi1>
  %2 = tile.load %b[%i] padding(-128.0) : !tile.view<?xi8> -> tensor<64xi8>
  %3 = tile.load %b[%i] padding(127.0) : !tile.view<?xi8> -> tensor<64xi8>
  %4 = tile.load %c[%i] padding(-2147483648.0) : !tile.view<?xi32> -> tensor<64xi32>
  %5 = tile.load %c[%i] padding(2147483647.0) : !tile.view<?xi32> -> tensor<64xi32>
  %6 = tile.load %d[%i] padding(-9223372036854775808.0) : !tile.view<?xi64> -> tensor<64xi64>
  tile.return
}

// -----

// Loads of every rank and element type, from static and dynamic views.
// CHECK-LABEL: tile.kernel @load_shapes(
tile.kernel @load_shapes(%a: !tile.view<?xf32>, %b: !tile.view<?x64xf16>,
                         %c: !tile.view<4x?x?xf64>, %d: !tile.view<?x?x?x?xi1>,
                         %e: !tile.view<?xi8>, %f: !tile.view<?xi64>,
                         %i: index) {
  // CHECK: tile.load %{{.*}}[%{{.*}}] : !tile.view<?xf32> -> tensor<128xf32>
  %0 = tile.load %a[%i] : !tile.view<?xf32> -> tensor<128xf32>
  // CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.view<?x64xf16> -> tensor<16x64xf16>
  %1 = tile.load %b[%i, %i] : !tile.view<?x64xf16> -> tensor<16x64xf16>
  // CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !tile.view<4x?x?xf64> -> tensor<1x8x8xf64>
  %2 = tile.load %c[%i, %i, %i] : !tile.view<4x?x?xf64> -> tensor<1x8x8xf64>
  // CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] padding(1.000000e+00) : !tile.view<?x?x?x?xi1> -> tensor<1x2x1x32xi1>
  %3 = tile.load %d[%i, %i, %i, %i] padding(1.0) : !tile.view<?x?x?x?xi1> -> tensor<1x2x1x32xi1>
  // CHECK: tile.load %{{.*}}[%{{.*}}] padding(-1.000000e+00) : !tile.view<?xi8> -> tensor<256xi8>
  %4 = tile.load %e[%i] padding(-1.0) : !tile.view<?xi8> -> tensor<256xi8>
  // CHECK: tile.load %{{.*}}[%{{.*}}] : !tile.view<?xi64> -> tensor<1xi64>
  %5 = tile.load %f[%i] : !tile.view<?xi64> -> tensor<1xi64>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @store_hints(
// CHECK-SAME:    %[[Y:.*]]: !tile.view<?x?xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
tile.kernel @store_hints(%y: !tile.view<?x?xf32>, %i: index, %j: index) {
  // CHECK: %[[T:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %t = arith.constant dense<0.0> : tensor<64x64xf32>
  // CHECK-NEXT: tile.store %[[T]], %[[Y]][%[[I]], %[[J]]] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %y[%i, %j] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  // CHECK-NEXT: tile.store %[[T]], %[[Y]][%[[I]], %[[J]]] latency(1) : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %y[%i, %j] latency(1) : tensor<64x64xf32> -> !tile.view<?x?xf32>
  // CHECK-NEXT: tile.store %[[T]], %[[Y]][%[[I]], %[[J]]] latency(10) : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %y[%i, %j] latency(10) : tensor<64x64xf32> -> !tile.view<?x?xf32>
  // CHECK-NEXT: tile.store %[[T]], %[[Y]][%[[I]], %[[J]]] cache(normal) : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %y[%i, %j] cache(normal) : tensor<64x64xf32> -> !tile.view<?x?xf32>
  // CHECK-NEXT: tile.store %[[T]], %[[Y]][%[[I]], %[[J]]] cache(evict_first) : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %y[%i, %j] cache(evict_first) : tensor<64x64xf32> -> !tile.view<?x?xf32>
  // CHECK-NEXT: tile.store %[[T]], %[[Y]][%[[I]], %[[J]]] cache(evict_last) : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %y[%i, %j] cache(evict_last) : tensor<64x64xf32> -> !tile.view<?x?xf32>
  // CHECK-NEXT: tile.store %[[T]], %[[Y]][%[[I]], %[[J]]] allow_tma : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %y[%i, %j] allow_tma : tensor<64x64xf32> -> !tile.view<?x?xf32>
  // CHECK-NEXT: tile.store %[[T]], %[[Y]][%[[I]], %[[J]]] latency(4) cache(evict_first) : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %y[%i, %j] latency(4) cache(evict_first) : tensor<64x64xf32> -> !tile.view<?x?xf32>
  // CHECK-NEXT: tile.store %[[T]], %[[Y]][%[[I]], %[[J]]] latency(6) allow_tma : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %y[%i, %j] latency(6) allow_tma : tensor<64x64xf32> -> !tile.view<?x?xf32>
  // CHECK-NEXT: tile.store %[[T]], %[[Y]][%[[I]], %[[J]]] cache(evict_last) allow_tma : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %y[%i, %j] cache(evict_last) allow_tma : tensor<64x64xf32> -> !tile.view<?x?xf32>
  // CHECK-NEXT: tile.store %[[T]], %[[Y]][%[[I]], %[[J]]] latency(2) cache(normal) allow_tma : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.store %t, %y[%i, %j] latency(2) cache(normal) allow_tma : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.return
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: tile.kernel @mma(
tile.kernel @mma(%x: !tile.view<?x?xf32>, %i: index) {
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %a16 = arith.constant dense<1.0> : tensor<64x32xbf16>
  %b16 = arith.constant dense<1.0> : tensor<32x64xbf16>
  %ah = arith.constant dense<1.0> : tensor<64x16xf16>
  %bh = arith.constant dense<1.0> : tensor<16x64xf16>
  %af = arith.constant dense<1.0> : tensor<64x8xf32>
  %bf = arith.constant dense<1.0> : tensor<8x64xf32>
  %at = arith.constant dense<1.0> : tensor<64x8xtf32>
  %bt = arith.constant dense<1.0> : tensor<8x64xtf32>
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %0 = tile.mma %a16, %b16, %acc : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x16xf16>, tensor<16x64xf16>, tensor<64x64xf32>
  %1 = tile.mma %ah, %bh, %0 : tensor<64x16xf16>, tensor<16x64xf16>, tensor<64x64xf32>
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x8xf32>, tensor<8x64xf32>, tensor<64x64xf32>
  %2 = tile.mma %af, %bf, %1 : tensor<64x8xf32>, tensor<8x64xf32>, tensor<64x64xf32>
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} precision(tf32) : tensor<64x8xf32>, tensor<8x64xf32>, tensor<64x64xf32>
  %3 = tile.mma %af, %bf, %2 precision(tf32) : tensor<64x8xf32>, tensor<8x64xf32>, tensor<64x64xf32>
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} precision(tf32x3) : tensor<64x8xf32>, tensor<8x64xf32>, tensor<64x64xf32>
  %4 = tile.mma %af, %bf, %3 precision(tf32x3) : tensor<64x8xf32>, tensor<8x64xf32>, tensor<64x64xf32>
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} precision(ieee) : tensor<64x8xf32>, tensor<8x64xf32>, tensor<64x64xf32>
  %5 = tile.mma %af, %bf, %4 precision(ieee) : tensor<64x8xf32>, tensor<8x64xf32>, tensor<64x64xf32>
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x8xtf32>, tensor<8x64xtf32>, tensor<64x64xf32>
  %6 = tile.mma %at, %bt, %5 : tensor<64x8xtf32>, tensor<8x64xtf32>, tensor<64x64xf32>
  // Non-square and small shapes.
  %a2 = arith.constant dense<1.0> : tensor<16x128xbf16>
  %b2 = arith.constant dense<1.0> : tensor<128x8xbf16>
  %c2 = arith.constant dense<0.0> : tensor<16x8xf32>
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x128xbf16>, tensor<128x8xbf16>, tensor<16x8xf32>
  %7 = tile.mma %a2, %b2, %c2 : tensor<16x128xbf16>, tensor<128x8xbf16>, tensor<16x8xf32>
  tile.store %6, %x[%i, %i] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @reduce(
// CHECK-SAME:    %[[X:.*]]: !tile.view<?x?xf32>, %[[N:.*]]: !tile.view<?xi32>,
tile.kernel @reduce(%x: !tile.view<?x?xf32>, %n: !tile.view<?xi32>, %i: index) {
  // CHECK: %[[T:.*]] = tile.load %[[X]]
  %t = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  // CHECK: tile.reduce sum %[[T]] axis 1 : tensor<32x64xf32> -> tensor<32x1xf32>
  %0 = tile.reduce sum %t axis 1 : tensor<32x64xf32> -> tensor<32x1xf32>
  // CHECK: tile.reduce prod %[[T]] axis 0 : tensor<32x64xf32> -> tensor<1x64xf32>
  %1 = tile.reduce prod %t axis 0 : tensor<32x64xf32> -> tensor<1x64xf32>
  // CHECK: tile.reduce max %[[T]] axis 1 : tensor<32x64xf32> -> tensor<32x1xf32>
  %2 = tile.reduce max %t axis 1 : tensor<32x64xf32> -> tensor<32x1xf32>
  // CHECK: tile.reduce min %[[T]] axis 0 : tensor<32x64xf32> -> tensor<1x64xf32>
  %3 = tile.reduce min %t axis 0 : tensor<32x64xf32> -> tensor<1x64xf32>
  // CHECK: %[[U:.*]] = tile.load %[[N]]
  %u = tile.load %n[%i] : !tile.view<?xi32> -> tensor<128xi32>
  // CHECK: tile.reduce sum %[[U]] axis 0 : tensor<128xi32> -> tensor<1xi32>
  %4 = tile.reduce sum %u axis 0 : tensor<128xi32> -> tensor<1xi32>
  // CHECK: tile.reduce max %[[U]] axis 0 : tensor<128xi32> -> tensor<1xi32>
  %5 = tile.reduce max %u axis 0 : tensor<128xi32> -> tensor<1xi32>
  // A size-1 axis reduces to itself.
  // CHECK: tile.reduce sum %{{.*}} axis 1 : tensor<32x1xf32> -> tensor<32x1xf32>
  %6 = tile.reduce sum %0 axis 1 : tensor<32x1xf32> -> tensor<32x1xf32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @scan(
tile.kernel @scan(%x: !tile.view<?x?xf32>, %i: index) {
  // CHECK: %[[T:.*]] = tile.load
  %t = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<64x16xf32>
  // CHECK: tile.scan sum %[[T]] axis 0 : tensor<64x16xf32>
  %0 = tile.scan sum %t axis 0 : tensor<64x16xf32>
  // CHECK: tile.scan prod %[[T]] axis 1 : tensor<64x16xf32>
  %1 = tile.scan prod %t axis 1 : tensor<64x16xf32>
  // CHECK: tile.scan max %[[T]] axis 0 : tensor<64x16xf32>
  %2 = tile.scan max %t axis 0 : tensor<64x16xf32>
  // CHECK: tile.scan min %[[T]] axis 1 : tensor<64x16xf32>
  %3 = tile.scan min %t axis 1 : tensor<64x16xf32>
  // CHECK: tile.scan sum %[[T]] axis 0 reverse : tensor<64x16xf32>
  %4 = tile.scan sum %t axis 0 reverse : tensor<64x16xf32>
  // CHECK: tile.scan prod %[[T]] axis 1 reverse : tensor<64x16xf32>
  %5 = tile.scan prod %t axis 1 reverse : tensor<64x16xf32>
  // CHECK: tile.scan max %[[T]] axis 0 reverse : tensor<64x16xf32>
  %6 = tile.scan max %t axis 0 reverse : tensor<64x16xf32>
  // CHECK: tile.scan min %[[T]] axis 1 reverse : tensor<64x16xf32>
  %7 = tile.scan min %t axis 1 reverse : tensor<64x16xf32>
  %iota = tile.iota : tensor<64xi32>
  // CHECK: tile.scan sum %{{.*}} axis 0 : tensor<64xi32>
  %8 = tile.scan sum %iota axis 0 : tensor<64xi32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @shape_ops(
tile.kernel @shape_ops(%x: !tile.view<?x?xf32>, %i: index) {
  // CHECK: %[[M:.*]] = tile.load %{{.*}} -> tensor<32x1xf32>
  %m = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<32x1xf32>
  // CHECK: tile.broadcast %[[M]] : tensor<32x1xf32> -> tensor<32x64xf32>
  %0 = tile.broadcast %m : tensor<32x1xf32> -> tensor<32x64xf32>
  // CHECK: %[[R:.*]] = tile.load %{{.*}} -> tensor<1x64xf32>
  %r = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<1x64xf32>
  // CHECK: tile.broadcast %[[R]] : tensor<1x64xf32> -> tensor<32x64xf32>
  %1 = tile.broadcast %r : tensor<1x64xf32> -> tensor<32x64xf32>
  // CHECK: %[[S:.*]] = tile.load %{{.*}} -> tensor<1x1xf32>
  %s = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<1x1xf32>
  // CHECK: tile.broadcast %[[S]] : tensor<1x1xf32> -> tensor<16x8xf32>
  %2 = tile.broadcast %s : tensor<1x1xf32> -> tensor<16x8xf32>
  // CHECK: tile.broadcast %[[M]] : tensor<32x1xf32> -> tensor<32x1xf32>
  %3 = tile.broadcast %m : tensor<32x1xf32> -> tensor<32x1xf32>

  // CHECK: %[[Q:.*]] = tile.load %{{.*}} -> tensor<64x32xf32>
  %q = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  // CHECK: tile.reshape %[[Q]] : tensor<64x32xf32> -> tensor<1x64x1x32xf32>
  %4 = tile.reshape %q : tensor<64x32xf32> -> tensor<1x64x1x32xf32>
  // CHECK: tile.reshape %{{.*}} : tensor<1x64x1x32xf32> -> tensor<2048xf32>
  %5 = tile.reshape %4 : tensor<1x64x1x32xf32> -> tensor<2048xf32>
  // CHECK: tile.reshape %{{.*}} : tensor<2048xf32> -> tensor<32x64xf32>
  %6 = tile.reshape %5 : tensor<2048xf32> -> tensor<32x64xf32>

  // CHECK: tile.permute %[[Q]] [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  %7 = tile.permute %q [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  // CHECK: tile.permute %[[Q]] [0, 1] : tensor<64x32xf32> -> tensor<64x32xf32>
  %8 = tile.permute %q [0, 1] : tensor<64x32xf32> -> tensor<64x32xf32>
  // CHECK: %[[C:.*]] = tile.reshape %[[Q]] : tensor<64x32xf32> -> tensor<2x32x32xf32>
  %c = tile.reshape %q : tensor<64x32xf32> -> tensor<2x32x32xf32>
  %c2 = tile.reshape %c : tensor<2x32x32xf32> -> tensor<2x16x64xf32>
  // CHECK: tile.permute %{{.*}} [2, 0, 1] : tensor<2x16x64xf32> -> tensor<64x2x16xf32>
  %9 = tile.permute %c2 [2, 0, 1] : tensor<2x16x64xf32> -> tensor<64x2x16xf32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @iota_splat(
// CHECK-SAME:    %[[F:[^:]*]]: f32, %[[B:[^:]*]]: f64, %[[N:[^:]*]]: i32, %[[L:[^:]*]]: i64)
tile.kernel @iota_splat(%f: f32, %b: f64, %n: i32, %l: i64) {
  // CHECK-NEXT: tile.iota : tensor<64xi32>
  %0 = tile.iota : tensor<64xi32>
  // CHECK-NEXT: tile.iota : tensor<1024xi64>
  %1 = tile.iota : tensor<1024xi64>
  // CHECK-NEXT: tile.iota : tensor<128xi8>
  %2 = tile.iota : tensor<128xi8>
  // CHECK-NEXT: tile.iota : tensor<1xi1>
  %3 = tile.iota : tensor<1xi1>
  // CHECK-NEXT: tile.splat %[[F]] : f32 -> tensor<64x64xf32>
  %4 = tile.splat %f : f32 -> tensor<64x64xf32>
  // CHECK-NEXT: tile.splat %[[B]] : f64 -> tensor<8xf64>
  %5 = tile.splat %b : f64 -> tensor<8xf64>
  // CHECK-NEXT: tile.splat %[[N]] : i32 -> tensor<16x1xi32>
  %6 = tile.splat %n : i32 -> tensor<16x1xi32>
  // CHECK-NEXT: tile.splat %[[L]] : i64 -> tensor<2x2x2xi64>
  %7 = tile.splat %l : i64 -> tensor<2x2x2xi64>
  // CHECK-NEXT: %[[H:.*]] = arith.truncf %[[F]] : f32 to bf16
  // CHECK-NEXT: tile.splat %[[H]] : bf16 -> tensor<32x32xbf16>
  %h = arith.truncf %f : f32 to bf16
  %8 = tile.splat %h : bf16 -> tensor<32x32xbf16>
  // CHECK-NEXT: %[[T:.*]] = arith.constant true
  // CHECK-NEXT: tile.splat %[[T]] : i1 -> tensor<64xi1>
  %t = arith.constant true
  %9 = tile.splat %t : i1 -> tensor<64xi1>
  tile.return
}

//===----------------------------------------------------------------------===//
// arith, math and scf on tiles
//===----------------------------------------------------------------------===//

// -----

// The causal mask of an attention-like kernel: row index >= column index,
// from iota + reshape + broadcast + cmpi, then a select with -inf.
// CHECK-LABEL: tile.kernel @causal_mask(
tile.kernel @causal_mask(%s: !tile.view<?x?xf32>, %i: index) {
  // CHECK: %[[IOTA:.*]] = tile.iota : tensor<64xi32>
  // CHECK: %[[ROW:.*]] = tile.reshape %[[IOTA]] : tensor<64xi32> -> tensor<64x1xi32>
  // CHECK: %[[COL:.*]] = tile.reshape %[[IOTA]] : tensor<64xi32> -> tensor<1x64xi32>
  // CHECK: %[[ROWS:.*]] = tile.broadcast %[[ROW]] : tensor<64x1xi32> -> tensor<64x64xi32>
  // CHECK: %[[COLS:.*]] = tile.broadcast %[[COL]] : tensor<1x64xi32> -> tensor<64x64xi32>
  // CHECK: %[[MASK:.*]] = arith.cmpi sge, %[[ROWS]], %[[COLS]] : tensor<64x64xi32>
  // CHECK: %[[NINF:.*]] = arith.constant dense<0xFF800000> : tensor<64x64xf32>
  // CHECK: %[[S:.*]] = tile.load
  // CHECK: arith.select %[[MASK]], %[[S]], %[[NINF]] : tensor<64x64xi1>, tensor<64x64xf32>
  %iota = tile.iota : tensor<64xi32>
  %row = tile.reshape %iota : tensor<64xi32> -> tensor<64x1xi32>
  %col = tile.reshape %iota : tensor<64xi32> -> tensor<1x64xi32>
  %rows = tile.broadcast %row : tensor<64x1xi32> -> tensor<64x64xi32>
  %cols = tile.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
  %mask = arith.cmpi sge, %rows, %cols : tensor<64x64xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<64x64xf32>
  %t = tile.load %s[%i, %i] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %masked = arith.select %mask, %t, %ninf : tensor<64x64xi1>, tensor<64x64xf32>
  tile.store %masked, %s[%i, %i] : tensor<64x64xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// Softmax of a row block: casts, constants, max/sum reductions, exp2.
// CHECK-LABEL: tile.kernel @softmax(
tile.kernel @softmax(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>, %i: index) {
  // CHECK: %[[XB:.*]] = tile.load %{{.*}} padding(0xFFF0000000000000) : !tile.view<?x?xbf16> -> tensor<16x128xbf16>
  // CHECK: %[[XF:.*]] = arith.extf %[[XB]] : tensor<16x128xbf16> to tensor<16x128xf32>
  // CHECK: %[[LOG2E:.*]] = arith.constant dense<1.44269502> : tensor<16x128xf32>
  // CHECK: %[[XS:.*]] = arith.mulf %[[XF]], %[[LOG2E]] : tensor<16x128xf32>
  // CHECK: %[[M:.*]] = tile.reduce max %[[XS]] axis 1 : tensor<16x128xf32> -> tensor<16x1xf32>
  // CHECK: %[[MB:.*]] = tile.broadcast %[[M]] : tensor<16x1xf32> -> tensor<16x128xf32>
  // CHECK: %[[D:.*]] = arith.subf %[[XS]], %[[MB]] : tensor<16x128xf32>
  // CHECK: %[[E:.*]] = math.exp2 %[[D]] : tensor<16x128xf32>
  // CHECK: %[[S:.*]] = tile.reduce sum %[[E]] axis 1 : tensor<16x128xf32> -> tensor<16x1xf32>
  // CHECK: %[[SB:.*]] = tile.broadcast %[[S]] : tensor<16x1xf32> -> tensor<16x128xf32>
  // CHECK: %[[P:.*]] = arith.divf %[[E]], %[[SB]] : tensor<16x128xf32>
  // CHECK: %[[PB:.*]] = arith.truncf %[[P]] : tensor<16x128xf32> to tensor<16x128xbf16>
  // CHECK: tile.store %[[PB]]
  %xb = tile.load %x[%i, %i] padding(0xFFF0000000000000) : !tile.view<?x?xbf16> -> tensor<16x128xbf16>
  %xf = arith.extf %xb : tensor<16x128xbf16> to tensor<16x128xf32>
  %log2e = arith.constant dense<1.44269504> : tensor<16x128xf32>
  %xs = arith.mulf %xf, %log2e : tensor<16x128xf32>
  %m = tile.reduce max %xs axis 1 : tensor<16x128xf32> -> tensor<16x1xf32>
  %mb = tile.broadcast %m : tensor<16x1xf32> -> tensor<16x128xf32>
  %d = arith.subf %xs, %mb : tensor<16x128xf32>
  %e = math.exp2 %d : tensor<16x128xf32>
  %s = tile.reduce sum %e axis 1 : tensor<16x128xf32> -> tensor<16x1xf32>
  %sb = tile.broadcast %s : tensor<16x1xf32> -> tensor<16x128xf32>
  %p = arith.divf %e, %sb : tensor<16x128xf32>
  %pb = arith.truncf %p : tensor<16x128xf32> to tensor<16x128xbf16>
  tile.store %pb, %y[%i, %i] : tensor<16x128xbf16> -> !tile.view<?x?xbf16>
  tile.return
}

// -----

// Integer <-> float casts and non-splat constant tiles.
// CHECK-LABEL: tile.kernel @casts_and_constants(
tile.kernel @casts_and_constants(%y: !tile.view<?xf16>, %i: index) {
  // CHECK: %[[C:.*]] = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  // CHECK: %[[F:.*]] = arith.sitofp %[[C]] : tensor<4xi32> to tensor<4xf32>
  // CHECK: %[[H:.*]] = arith.truncf %[[F]] : tensor<4xf32> to tensor<4xf16>
  // CHECK: %[[W:.*]] = arith.extf %[[H]] : tensor<4xf16> to tensor<4xf64>
  // CHECK: %[[I:.*]] = arith.fptosi %[[W]] : tensor<4xf64> to tensor<4xi64>
  // CHECK: arith.trunci %[[I]] : tensor<4xi64> to tensor<4xi8>
  // CHECK: arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xbf16>
  // CHECK: arith.constant dense<true> : tensor<8x8xi1>
  %c = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %f = arith.sitofp %c : tensor<4xi32> to tensor<4xf32>
  %h = arith.truncf %f : tensor<4xf32> to tensor<4xf16>
  %w = arith.extf %h : tensor<4xf16> to tensor<4xf64>
  %n = arith.fptosi %w : tensor<4xf64> to tensor<4xi64>
  %b = arith.trunci %n : tensor<4xi64> to tensor<4xi8>
  %m = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xbf16>
  %t = arith.constant dense<true> : tensor<8x8xi1>
  tile.store %h, %y[%i] : tensor<4xf16> -> !tile.view<?xf16>
  tile.return
}

// -----

// A GEMM main loop: scf.for carries the accumulator tile.
// CHECK-LABEL: tile.kernel @gemm(
// CHECK-SAME:    %[[A:[^:]*]]: !tile.view<?x?xbf16>, %[[B:[^:]*]]: !tile.view<?x?xbf16>, %[[C:[^:]*]]: !tile.view<?x?xf32>)
tile.kernel @gemm(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) {
  // CHECK-DAG: %[[PM:.*]] = tile.program_id x : index
  // CHECK-DAG: %[[PN:.*]] = tile.program_id y : index
  // CHECK-DAG: %[[K:.*]] = tile.dim %[[A]][1] : !tile.view<?x?xbf16>
  // CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
  // CHECK: %[[RES:.*]] = scf.for %[[KK:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<128x128xf32>) {
  // CHECK-NEXT: %[[AT:.*]] = tile.load %[[A]][%[[PM]], %[[KK]]] latency(3) cache(evict_last) : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
  // CHECK-NEXT: %[[BT:.*]] = tile.load %[[B]][%[[KK]], %[[PN]]] latency(3) : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
  // CHECK-NEXT: %[[D:.*]] = tile.mma %[[AT]], %[[BT]], %[[ACC]] : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
  // CHECK-NEXT: scf.yield %[[D]] : tensor<128x128xf32>
  // CHECK-NEXT: }
  // CHECK-NEXT: tile.store %[[RES]], %[[C]][%[[PM]], %[[PN]]] cache(evict_first) : tensor<128x128xf32> -> !tile.view<?x?xf32>
  %pm = tile.program_id x : index
  %pn = tile.program_id y : index
  %k = tile.dim %a[1] : !tile.view<?x?xbf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %kp = arith.addi %k, %c31 : index
  %nk = arith.divui %kp, %c32 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %res = scf.for %kk = %c0 to %nk step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
    %at = tile.load %a[%pm, %kk] latency(3) cache(evict_last) : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
    %bt = tile.load %b[%kk, %pn] latency(3) : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
    %d = tile.mma %at, %bt, %acc : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  tile.store %res, %c[%pm, %pn] cache(evict_first) : tensor<128x128xf32> -> !tile.view<?x?xf32>
  tile.return
}

// -----

// scf.if yielding tiles, and an scf.for carrying two tiles and a scalar.
// CHECK-LABEL: tile.kernel @control_flow(
tile.kernel @control_flow(%x: !tile.view<?xf32>, %n: i32, %alpha: f32) {
  %pid = tile.program_id x : index
  %c0 = arith.constant 0 : i32
  %neg = arith.cmpi slt, %n, %c0 : i32
  // CHECK: %[[IF:.*]]:2 = scf.if %{{.*}} -> (tensor<256xf32>, tensor<256xi32>) {
  // CHECK:   scf.yield %{{.*}}, %{{.*}} : tensor<256xf32>, tensor<256xi32>
  // CHECK: } else {
  // CHECK:   math.exp2 %{{.*}} : tensor<256xf32>
  // CHECK:   scf.yield %{{.*}}, %{{.*}} : tensor<256xf32>, tensor<256xi32>
  // CHECK: }
  %t, %idx = scf.if %neg -> (tensor<256xf32>, tensor<256xi32>) {
    %z = arith.constant dense<0.0> : tensor<256xf32>
    %zi = arith.constant dense<0> : tensor<256xi32>
    scf.yield %z, %zi : tensor<256xf32>, tensor<256xi32>
  } else {
    %l = tile.load %x[%pid] : !tile.view<?xf32> -> tensor<256xf32>
    %e = math.exp2 %l : tensor<256xf32>
    %io = tile.iota : tensor<256xi32>
    scf.yield %e, %io : tensor<256xf32>, tensor<256xi32>
  }
  // CHECK: scf.if %{{.*}} {
  // CHECK:   tile.store
  // CHECK: }
  scf.if %neg {
    tile.store %t, %x[%pid] : tensor<256xf32> -> !tile.view<?xf32>
  }
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %st = arith.constant 1 : index
  %a = tile.splat %alpha : f32 -> tensor<256xf32>
  // CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<256xf32>, tensor<256xi32>, f32) {
  %r:3 = scf.for %iv = %lb to %ub step %st iter_args(%acc = %t, %ia = %idx, %s = %alpha) -> (tensor<256xf32>, tensor<256xi32>, f32) {
    %p = arith.mulf %acc, %a : tensor<256xf32>
    %one = arith.constant dense<1> : tensor<256xi32>
    %q = arith.addi %ia, %one : tensor<256xi32>
    %u = arith.addf %s, %alpha : f32
    %m = math.exp2 %p : tensor<256xf32>
    scf.yield %m, %q, %u : tensor<256xf32>, tensor<256xi32>, f32
  }
  tile.store %r#0, %x[%pid] : tensor<256xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

// The other scf ops a kernel may use: scf.while (with scf.condition) and
// scf.execute_region.
// CHECK-LABEL: tile.kernel @while_execute_region(
// CHECK-SAME:    %[[X:[^:]*]]: !tile.view<?xf32>, %{{.*}}: index)
tile.kernel @while_execute_region(%x: !tile.view<?xf32>, %n: index) {
  // CHECK: %[[W:.*]]:2 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (index, tensor<64xf32>) -> (index, tensor<64xf32>) {
  // CHECK:   scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : index, tensor<64xf32>
  // CHECK: } do {
  // CHECK:   tile.load %[[X]]
  // CHECK:   scf.yield %{{.*}}, %{{.*}} : index, tensor<64xf32>
  // CHECK: }
  // CHECK: %[[E:.*]] = scf.execute_region -> tensor<64xf32> {
  // CHECK:   math.exp %[[W]]#1 : tensor<64xf32>
  // CHECK:   scf.yield %{{.*}} : tensor<64xf32>
  // CHECK: }
  // CHECK: tile.store %[[E]], %[[X]]
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %r:2 = scf.while (%k = %c0, %acc = %zero) : (index, tensor<64xf32>) -> (index, tensor<64xf32>) {
    %c = arith.cmpi slt, %k, %n : index
    scf.condition(%c) %k, %acc : index, tensor<64xf32>
  } do {
  ^bb0(%k2: index, %acc2: tensor<64xf32>):
    %t = tile.load %x[%k2] : !tile.view<?xf32> -> tensor<64xf32>
    %s = arith.addf %acc2, %t : tensor<64xf32>
    %k3 = arith.addi %k2, %c1 : index
    scf.yield %k3, %s : index, tensor<64xf32>
  }
  %e = scf.execute_region -> tensor<64xf32> {
    %m = math.exp %r#1 : tensor<64xf32>
    scf.yield %m : tensor<64xf32>
  }
  tile.store %e, %x[%c0] : tensor<64xf32> -> !tile.view<?xf32>
  tile.return
}

// -----

// Scalars of every tile element type, and index.
// CHECK-LABEL: tile.kernel @scalars()
// CHECK-NEXT: arith.constant 1.000000e+00 : f16
// CHECK-NEXT: arith.constant 1.000000e+00 : bf16
// CHECK-NEXT: arith.constant 1.000000e+00 : tf32
// CHECK-NEXT: arith.constant 1.000000e+00 : f32
// CHECK-NEXT: arith.constant 1.000000e+00 : f64
// CHECK-NEXT: arith.constant true
// CHECK-NEXT: arith.constant 1 : i8
// CHECK-NEXT: arith.constant 1 : i16
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: arith.constant 1 : i64
// CHECK-NEXT: arith.constant 1 : index
tile.kernel @scalars() {
  %0 = arith.constant 1.0 : f16
  %1 = arith.constant 1.0 : bf16
  %2 = arith.constant 1.0 : tf32
  %3 = arith.constant 1.0 : f32
  %4 = arith.constant 1.0 : f64
  %5 = arith.constant true
  %6 = arith.constant 1 : i8
  %7 = arith.constant 1 : i16
  %8 = arith.constant 1 : i32
  %9 = arith.constant 1 : i64
  %10 = arith.constant 1 : index
  tile.return
}

// -----

// Two kernels in one module.
// CHECK-LABEL: tile.kernel @first(
// CHECK-LABEL: tile.kernel @second(
module {
  tile.kernel @first(%x: !tile.view<?xf32>) {
    tile.return
  }
  tile.kernel @second(%x: !tile.view<?xf32>) {
    tile.return
  }
}

// -----

// tile.gather: the k -> -k mod n reversal of real-input FFT packing, a
// gather along the second axis of a 2-D tile, one along both, and two
// tiles through the same indices.
// CHECK-LABEL: tile.kernel @gather(
// CHECK: tile.gather %{{.*}}[%{{.*}}] axes [0] : tensor<64xf32> [tensor<64xi32>] -> tensor<64xf32>
// CHECK: tile.gather %{{.*}}[%{{.*}}] axes [1] : tensor<8x16xbf16> [tensor<8x4xi64>] -> tensor<8x4xbf16>
// CHECK: tile.gather %{{.*}}[%{{.*}}, %{{.*}}] axes [0, 1] : tensor<8x16xbf16> [tensor<8x16xi32>, tensor<8x16xi32>] -> tensor<8x16xbf16>
// CHECK: %{{.*}}:2 = tile.gather %{{.*}}, %{{.*}}[%{{.*}}] axes [0] : tensor<64xf32>, tensor<64xf32> [tensor<64xi32>] -> tensor<64xf32>, tensor<64xf32>
tile.kernel @gather(%x: !tile.view<?xf32>, %w: !tile.view<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %z = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<64xf32>
  %k = tile.iota : tensor<64xi32>
  %n = arith.constant dense<64> : tensor<64xi32>
  %m = arith.constant dense<63> : tensor<64xi32>
  %neg = arith.subi %n, %k : tensor<64xi32>
  %idx = arith.andi %neg, %m : tensor<64xi32>
  %r = tile.gather %z[%idx] axes [0] : tensor<64xf32> [tensor<64xi32>] -> tensor<64xf32>
  %t = tile.load %w[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<8x16xbf16>
  %i = arith.constant dense<3> : tensor<8x4xi64>
  %g = tile.gather %t[%i] axes [1] : tensor<8x16xbf16> [tensor<8x4xi64>] -> tensor<8x4xbf16>
  %rows = tile.iota : tensor<8x16xi32>
  %cols = tile.iota dim 1 : tensor<8x16xi32>
  %both = tile.gather %t[%rows, %cols] axes [0, 1] : tensor<8x16xbf16> [tensor<8x16xi32>, tensor<8x16xi32>] -> tensor<8x16xbf16>
  %re, %im = tile.gather %z, %r[%idx] axes [0] : tensor<64xf32>, tensor<64xf32> [tensor<64xi32>] -> tensor<64xf32>, tensor<64xf32>
  tile.return
}
