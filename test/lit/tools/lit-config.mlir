// The lit configuration: tools resolve to this build's bin directory (not to
// whatever else is on PATH), which is also %tessera_bin and first on PATH.
//
// RUN: test -x %tessera_bin/tile-opt
// RUN: echo tile-opt | FileCheck %s -DBIN=%tessera_bin --check-prefix=SUBST
// RUN: env | FileCheck %s -DBIN=%tessera_bin --check-prefix=PATH
// RUN: echo FileCheck | FileCheck %s --check-prefix=LLVM

// SUBST: [[BIN]]/tile-opt
// PATH: {{^}}PATH=[[BIN]]:
// LLVM: {{^/.*}}/FileCheck
