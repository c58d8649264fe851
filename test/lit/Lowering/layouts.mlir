// The kernel that moves a tile through every distributed layout compiles to
// PTX (convert_layout through shared memory) that ptxas accepts; the same
// kernel runs on the GPU against the interpreter (tessera-gpu-cases).
// RUN: tile-compile %tessera_src_root/test/gpu/kernels/layouts.mlir --target sm_90a -o %t.ptx
// RUN: FileCheck %s --input-file %t.ptx
// CHECK-LABEL: .entry layouts(
// CHECK: st.shared
// CHECK: bar.sync 0;
// CHECK: ld.shared
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
