// ptxas accepts the PTX of every shipped kernel, for both targets, and
// reports its registers and spills (in the test log).
// REQUIRES: ptxas
// RUN: tessera print gemm --dtype bf16 | tile-compile - --target sm_90a -o %t.gemm90.ptx
// RUN: %ptxas -arch=sm_90a -v %t.gemm90.ptx -o %t.gemm90.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: tessera print gemm --dtype f32 | tile-compile - --target sm_80 -o %t.gemm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.gemm80.ptx -o %t.gemm80.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: tessera print softmax --dtype f16 | tile-compile - --target sm_90a -o %t.softmax.ptx
// RUN: %ptxas -arch=sm_90a -v %t.softmax.ptx -o %t.softmax.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: tessera print conv --dtype bf16 | tile-compile - --target sm_90a -o %t.conv.ptx
// RUN: %ptxas -arch=sm_90a -v %t.conv.ptx -o %t.conv.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: tessera print ssd --dtype bf16 | tile-compile - --target sm_90a -o %t.ssd.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ssd.ptx -o %t.ssd.cubin 2>&1 | FileCheck %s --check-prefix=ACCEPTED

// NOSPILL-NOT: error
// NOSPILL: 0 bytes spill stores, 0 bytes spill loads
// NOSPILL-NOT: error
// The SSD kernels are accepted; the correct-first lowering still spills in
// one of them (registers: see the log), which the Hopper issues address.
// ACCEPTED-NOT: error
// ACCEPTED: Compiling entry function 'ssd_chunk_state
// ACCEPTED-NOT: error
