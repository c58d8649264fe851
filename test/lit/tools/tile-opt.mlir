// The tile-opt driver: it registers the tile dialect and the dialects a
// kernel uses, the generic passes, and exits non-zero on invalid input.
//
// RUN: tile-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS
// RUN: tile-opt --help | FileCheck %s --check-prefix=HELP
// RUN: not tile-opt %s --split-input-file 2>/dev/null | FileCheck %s --check-prefix=PARSE
// RUN: not tile-opt %s --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=ERROR

// DIALECTS: Available Dialects:
// DIALECTS-SAME: arith
// DIALECTS-SAME: math
// DIALECTS-SAME: scf
// DIALECTS-SAME: tile

// HELP: OVERVIEW: Tessera tile compiler driver
// HELP: Available Dialects: {{.*}}tile
// HELP-DAG: --canonicalize
// HELP-DAG: --cse
// HELP-DAG: --split-input-file
// HELP-DAG: --verify-diagnostics

// Chunks are processed independently: the valid one is printed, the invalid
// one is reported on stderr and makes the exit status non-zero.
// PARSE: tile.kernel @ok
// PARSE-NOT: tile.kernel @bad
tile.kernel @ok() {
  tile.return
}

// -----

// ERROR-NOT: @ok
// ERROR: tile-opt.mlir:[[@LINE+2]]:8: error: 'tile.load' op latency hint must be in 1..10, got 42
tile.kernel @bad(%x: !tile.view<?xf32>, %i: index) {
  %t = tile.load %x[%i] latency(42) : !tile.view<?xf32> -> tensor<64xf32>
  tile.return
}
