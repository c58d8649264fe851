// An op of an unregistered dialect has no dialect at all; the kernel body rule
// still rejects it.
//
// RUN: tile-opt %s -allow-unregistered-dialect -split-input-file -verify-diagnostics

tile.kernel @unregistered_op() {
  // expected-error @+1 {{'foo.bar' op is not supported inside a tile kernel (only tile, arith, math and scf.for/if/while/execute_region operations are)}}
  "foo.bar"() : () -> ()
  tile.return
}

// -----

// Outside a kernel the rule does not apply.
func.func @outside_kernel() {
  "foo.bar"() : () -> ()
  return
}
