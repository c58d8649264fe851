// ptxas accepts the PTX of every shipped kernel, for both targets, and
// reports its registers and spills (in the test log).
// REQUIRES: ptxas
// RUN: tessera print gemm --dtype bf16 | tile-compile - --target sm_90a -o %t.gemm90.ptx
// RUN: %ptxas -arch=sm_90a -v %t.gemm90.ptx -o %t.gemm90.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// The Hopper GEMM tile (wgmma + TMA): no spills, and no wgmma serialized
// by ptxas (accumulators touched while a group is in flight).
// RUN: tessera print gemm --dtype bf16 --tile 128x256x64 | tile-compile - --target sm_90a --num-warps 8 -o %t.gemm90w.ptx
// RUN: %ptxas -arch=sm_90a -v %t.gemm90w.ptx -o %t.gemm90w.cubin 2>&1 | FileCheck %s --check-prefixes=NOSPILL,NOSERIAL
// RUN: tessera print gemm --dtype f16 --tile 128x256x64 | tile-compile - --target sm_90a --num-warps 8 -o %t.gemm90wh.ptx
// RUN: %ptxas -arch=sm_90a -v %t.gemm90wh.ptx -o %t.gemm90wh.cubin 2>&1 | FileCheck %s --check-prefixes=NOSPILL,NOSERIAL
// wgmma with A from registers in a pipelined loop (wgmma-register-a.mlir).
// RUN: tile-compile %S/wgmma-register-a.mlir --target sm_90a -o %t.rega.ptx
// RUN: %ptxas -arch=sm_90a -v %t.rega.ptx -o %t.rega.cubin 2>&1 | FileCheck %s --check-prefixes=NOSPILL,NOSERIAL
// RUN: tessera print gemm --dtype bf16 | tile-compile - --target sm_80 -o %t.gemm80b.ptx
// RUN: %ptxas -arch=sm_80 -v %t.gemm80b.ptx -o %t.gemm80b.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: tessera print gemm --dtype f32 | tile-compile - --target sm_90a --wgmma-tf32 -o %t.gemm90f.ptx
// RUN: %ptxas -arch=sm_90a -v %t.gemm90f.ptx -o %t.gemm90f.cubin 2>&1 | FileCheck %s --check-prefixes=NOSPILL,NOSERIAL
// RUN: tessera print gemm --dtype f32 | tile-compile - --target sm_80 -o %t.gemm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.gemm80.ptx -o %t.gemm80.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: tessera print softmax --dtype f16 | tile-compile - --target sm_90a -o %t.softmax.ptx
// RUN: %ptxas -arch=sm_90a -v %t.softmax.ptx -o %t.softmax.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// The three passes at 16K as the library builds them (`tessera conv-flags`,
// checked by tools/conv-flags.mlir): the inner pass's rows arrive by
// cp.async (copied ahead), and the inner pass spills nothing (the outer
// passes, held to six CTAs an SM, spill what test/gpu/ptxas-ledger.txt
// records, which the library-ptxas-audit test checks).
// RUN: tessera print conv --dtype bf16 --seqlen 16384 --gates none | tile-compile - --target sm_90a --num-warps 4 --no-hoist-invariants --pair-truncations --fma --step-descriptors --merge-barriers -o %t.conv16kl.ptx
// RUN: FileCheck %s --input-file %t.conv16kl.ptx --check-prefix=CPASYNC
// RUN: %ptxas -arch=sm_90a -v %t.conv16kl.ptx -o %t.conv16kl.cubin 2>&1 | FileCheck %s --check-prefixes=INNER,NOINJECT
// The passes of 8K (outer 8, inner 1024; its forward on seven CTAs an SM
// spills a few bytes) and gated 32K with the library's flags: the inner
// pass spills nothing, and at 32K in f16 no pass does (the bf16 32K
// forward on four CTAs spills a few bytes, in the ledger).
// RUN: tessera print conv --dtype bf16 --seqlen 8192 --gates pre,post | tile-compile - --target sm_90a --num-warps 4 --no-hoist-invariants --pair-truncations --fma --step-descriptors --merge-barriers -o %t.conv8k.ptx
// RUN: %ptxas -arch=sm_90a -v %t.conv8k.ptx -o %t.conv8k.cubin 2>&1 | FileCheck %s --check-prefixes=INNER,NOINJECT
// RUN: tessera print conv --dtype f16 --seqlen 32768 --gates pre,post | tile-compile - --target sm_90a --num-warps 4 --no-hoist-invariants --pair-truncations --fma --step-descriptors --merge-barriers -o %t.conv32k.ptx
// RUN: %ptxas -arch=sm_90a -v %t.conv32k.ptx -o %t.conv32k.cubin 2>&1 | FileCheck %s --check-prefixes=PASSES,NOINJECT
// Without deferred waits, the same.
// RUN: tessera print conv --dtype bf16 --seqlen 16384 --gates none | tile-compile - --target sm_90a --num-warps 4 --no-hoist-invariants --no-defer-mma-waits -o %t.conv16k.ptx
// RUN: FileCheck %s --input-file %t.conv16k.ptx --check-prefix=CPASYNC
// RUN: %ptxas -arch=sm_90a -v %t.conv16k.ptx -o %t.conv16k.cubin 2>&1 | FileCheck %s --check-prefixes=INNER,NOINJECT
// With tile-defer-mma-waits (the default) the inner pass issues the eight
// wgmma groups of both rows' first products before it waits for any, and
// ptxas finds no register of a group in flight touched (nothing injected).
// RUN: tessera print conv --dtype bf16 --seqlen 16384 --gates none | tile-compile - --target sm_90a --num-warps 4 --no-hoist-invariants -o %t.conv16kd.ptx
// RUN: FileCheck %s --input-file %t.conv16kd.ptx --check-prefix=INFLIGHT
// RUN: %ptxas -arch=sm_90a -v %t.conv16kd.ptx -o %t.conv16kd.cubin 2>&1 | FileCheck %s --check-prefixes=INNER,NOINJECT
// CPASYNC-LABEL: .entry conv_inner_bf16_M16384
// CPASYNC: cp.async.cg.shared.global
// INFLIGHT-LABEL: .entry conv_inner_bf16_M16384
// INFLIGHT: wgmma.commit_group
// INFLIGHT-NOT: wgmma.wait_group
// INFLIGHT: wgmma.commit_group
// INFLIGHT-NOT: wgmma.wait_group
// INFLIGHT: wgmma.commit_group
// INFLIGHT-NOT: wgmma.wait_group
// INFLIGHT: wgmma.commit_group
// INFLIGHT-NOT: wgmma.wait_group
// INFLIGHT: wgmma.commit_group
// INFLIGHT-NOT: wgmma.wait_group
// INFLIGHT: wgmma.commit_group
// INFLIGHT-NOT: wgmma.wait_group
// INFLIGHT: wgmma.commit_group
// INFLIGHT-NOT: wgmma.wait_group
// INFLIGHT: wgmma.commit_group
// INFLIGHT: wgmma.wait_group
// NOINJECT-NOT: injected
// CPASYNC-LABEL: .entry conv_outer_inv_bf16_M16384
// PASSES-NOT: error
// PASSES-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PASSES-NOT: error
// INNER-NOT: error
// INNER: Function properties for conv_inner_
// INNER-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// INNER-NOT: error
// The gated 1K kernel (16 rows per program, pre and post gates) with
// tile-compile's defaults: accepted.
// RUN: tessera print conv --dtype bf16 | tile-compile - --target sm_90a -o %t.conv.ptx
// RUN: %ptxas -arch=sm_90a %t.conv.ptx -o %t.conv.cubin
// The conv library's fused kernels at 512, 1K and 2K (row-column plans),
// with the flags `tessera conv-flags` gives them: Tensor Core mma, no
// spills. The 1K kernel without gates held to three CTAs an SM (168
// registers; .minnctapersm 3), the gated one without that flag, as the
// library builds them.
// RUN: tessera print conv --dtype bf16 --seqlen 512 --gates pre,post | tile-compile - --target sm_90a --num-warps 2 --no-hoist-invariants --pair-truncations --fma --step-descriptors --merge-barriers -o %t.conv512.ptx
// RUN: FileCheck %s --input-file %t.conv512.ptx --check-prefix=MMASYNC
// RUN: %ptxas -arch=sm_90a -v %t.conv512.ptx -o %t.conv512.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: tessera print conv --dtype f16 --seqlen 1024 --gates none | tile-compile - --target sm_90a --num-warps 4 --min-blocks-per-sm 3 --pair-truncations --fma --step-descriptors --merge-barriers -o %t.conv1k.ptx
// RUN: FileCheck %s --input-file %t.conv1k.ptx --check-prefixes=MMASYNC,MINCTA3
// RUN: %ptxas -arch=sm_90a -v %t.conv1k.ptx -o %t.conv1k.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: tessera print conv --dtype bf16 --seqlen 1024 --gates pre,post | tile-compile - --target sm_90a --num-warps 4 --late-loads-in-iteration --stmatrix --pair-truncations --fma --step-descriptors --merge-barriers -o %t.conv1kg.ptx
// RUN: %ptxas -arch=sm_90a -v %t.conv1kg.ptx -o %t.conv1kg.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: tessera print conv --dtype bf16 --seqlen 2048 --gates none | tile-compile - --target sm_90a --num-warps 4 --no-hoist-invariants --stmatrix --pair-truncations --fma --step-descriptors --merge-barriers -o %t.conv2k.ptx
// RUN: FileCheck %s --input-file %t.conv2k.ptx --check-prefix=MMASYNC
// RUN: %ptxas -arch=sm_90a -v %t.conv2k.ptx -o %t.conv2k.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// The gated 4K kernel (128 x 32) as the library builds it: Tensor Core
// mma, accepted by ptxas. It spills (88 bytes in f16; every spill-free
// setting tried ran slower, test/gpu/ptxas-ledger.txt, which the
// library-ptxas-audit test holds every library kernel to).
// RUN: tessera print conv --dtype f16 --seqlen 4096 --gates pre,post | tile-compile - --target sm_90a --num-warps 8 --no-hoist-invariants --late-loads-in-iteration --stmatrix --pair-truncations --fma --step-descriptors --merge-barriers -o %t.conv4kg.ptx
// RUN: FileCheck %s --input-file %t.conv4kg.ptx --check-prefix=MMASYNC
// RUN: %ptxas -arch=sm_90a -v %t.conv4kg.ptx -o %t.conv4kg.cubin 2>&1 | FileCheck %s --check-prefix=CONV4K
// The every-option SSD kernel at dstate 128 with its library flags spills
// 60 bytes (test/gpu/ptxas-ledger.txt); with --late-loads-in-iteration
// the z gate, used after the chunk's products, is issued in its own
// iteration and nothing spills (with the causal mask's two coordinates a
// register, --no-coordinate-compares: one difference a thread spills 28).
// RUN: tessera print ssd-fused --dtype bf16 --dstate 128 --options all | tile-compile - --target sm_90a --merge-barriers --stages 2 --num-warps 8 --stmatrix --wgmma-along-n --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares --late-loads-in-iteration -o %t.ssdall.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ssdall.ptx -o %t.ssdall.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// MINCTA3: .minnctapersm 3
// MMASYNC: mma.sync.aligned.m16n8k16.row.col.f32
// RUN: tessera print ssd --dtype bf16 | tile-compile - --target sm_90a -o %t.ssd.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ssd.ptx -o %t.ssd.cubin 2>&1 | FileCheck %s --check-prefix=ACCEPTED
// The fused SSD forward the GPU runs, as the kernel library builds it: on
// Tensor Cores (wgmma), accepted, no wgmma serialized.
// RUN: tessera print ssd-fused --dtype bf16 --dstate 128 | tile-compile - --target sm_90a --stages 2 --no-defer-mma-waits -o %t.ssdf.ptx
// RUN: FileCheck %s --input-file %t.ssdf.ptx --check-prefix=WGMMA
// RUN: %ptxas -arch=sm_90a -v %t.ssdf.ptx -o %t.ssdf.cubin 2>&1 | FileCheck %s --check-prefixes=FUSED,NOSERIAL
// With tile-defer-mma-waits (the default): nothing injected by ptxas (the
// decayed state, carried across the loop by a wgmma, is not touched with a
// group in flight).
// RUN: tessera print ssd-fused --dtype bf16 --dstate 128 | tile-compile - --target sm_90a --stages 2 -o %t.ssdfd.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ssdfd.ptx -o %t.ssdfd.cubin 2>&1 | FileCheck %s --check-prefixes=NOSERIAL,NOINJECT
// At dstate 64 (three stages, no swizzle) it is spill-free, and at dstate
// 64 and 128 with the kernel library's flags (`tessera ssd-flags`, whose
// output tools/ssd-flags.mlir checks) too.
// RUN: tessera print ssd-fused --dtype bf16 --dstate 128 | tile-compile - --target sm_90a --merge-barriers --stages 2 --num-warps 4 --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors -o %t.ssdlib128.ptx
// RUN: FileCheck %s --input-file %t.ssdlib128.ptx --check-prefix=WGMMA
// RUN: %ptxas -arch=sm_90a -v %t.ssdlib128.ptx -o %t.ssdlib128.cubin 2>&1 | FileCheck %s --check-prefixes=NOSPILL,NOSERIAL
// At 64 the fused kernel with LICM, the split one without.
// RUN: tessera print ssd-fused --dtype bf16 --dstate 64 | tile-compile - --target sm_90a --merge-barriers --stages 3 --num-warps 4 --scratch-lifetimes --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares -o %t.ssdlib64.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ssdlib64.ptx -o %t.ssdlib64.cubin 2>&1 | FileCheck %s --check-prefixes=NOSPILL,NOSERIAL
// With z the fused kernel keeps --no-hoist-invariants (with LICM it spilled
// 104 bytes): spill-free with the library's flags.
// RUN: tessera print ssd-fused --dtype bf16 --dstate 64 --options D,z,bias,softplus | tile-compile - --target sm_90a --merge-barriers --stages 3 --num-warps 4 --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares --late-loads-in-iteration -o %t.ssdlib64z.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ssdlib64z.ptx -o %t.ssdlib64z.cubin 2>&1 | FileCheck %s --check-prefixes=NOSPILL,NOSERIAL
// RUN: tessera print ssd-split --dtype bf16 --dstate 64 --options layer | tile-compile - --target sm_90a --merge-barriers --stages 3 --num-warps 4 --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --register-prefetch-budget 64 -o %t.split64.ptx
// RUN: FileCheck %s --input-file %t.split64.ptx --check-prefix=WGMMA
// RUN: %ptxas -arch=sm_90a -v %t.split64.ptx -o %t.split64.cubin > %t.split64.txt 2>&1
// RUN: FileCheck %s --input-file %t.split64.txt --check-prefixes=SPLIT,NOSERIAL
// RUN: FileCheck %s --input-file %t.split64.txt --check-prefix=SPILLFREE
// RUN: tessera print ssd-fused --dtype bf16 --dstate 64 | tile-compile - --target sm_90a --stages 3 --no-swizzle -o %t.ssdf64l.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ssdf64l.ptx -o %t.ssdf64l.cubin 2>&1 | FileCheck %s --check-prefixes=NOSPILL,NOSERIAL
// The split forward's three kernels (segment states, combine, segment
// scan), as the kernel library builds them: accepted, on wgmma, none
// serialized.
// RUN: tessera print ssd-split --dtype bf16 --dstate 128 --options layer | tile-compile - --target sm_90a --merge-barriers --stages 2 --num-warps 4 --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares --register-prefetch-budget 64 -o %t.split.ptx
// RUN: FileCheck %s --input-file %t.split.ptx --check-prefix=WGMMA
// The combine kernel on eight warps (ssd::combineWarps), the others on
// the module's four.
// RUN: FileCheck %s --input-file %t.split.ptx --check-prefix=COMBINE8
// RUN: %ptxas -arch=sm_90a -v %t.split.ptx -o %t.split.cubin > %t.split.txt 2>&1
// RUN: FileCheck %s --input-file %t.split.txt --check-prefixes=SPLIT,NOSERIAL
// RUN: FileCheck %s --input-file %t.split.txt --check-prefix=COMBINEFREE
// With every option (states copied: eight warps along N) all three are
// spill-free.
// RUN: tessera print ssd-split --dtype bf16 --dstate 128 --options all | tile-compile - --target sm_90a --merge-barriers --stages 2 --num-warps 8 --stmatrix --wgmma-along-n --scratch-lifetimes --no-hoist-invariants --early-refill --pair-truncations --fma --step-descriptors --no-coordinate-compares --late-loads-in-iteration --register-prefetch-budget 64 -o %t.splitall.ptx
// RUN: %ptxas -arch=sm_90a -v %t.splitall.ptx -o %t.splitall.cubin > %t.splitall.txt 2>&1
// RUN: FileCheck %s --input-file %t.splitall.txt --check-prefixes=SPLIT,NOSERIAL
// RUN: FileCheck %s --input-file %t.splitall.txt --check-prefix=SPILLFREE
// RUN: tessera print ssd-fused --dtype f16 --dstate 64 --options all | tile-compile - --target sm_90a --stages 2 -o %t.ssdf64.ptx
// RUN: FileCheck %s --input-file %t.ssdf64.ptx --check-prefix=WGMMA
// RUN: %ptxas -arch=sm_90a -v %t.ssdf64.ptx -o %t.ssdf64.cubin 2>&1 | FileCheck %s --check-prefixes=FUSED,NOSERIAL

// COMBINEFREE-LABEL: Compiling entry function 'ssd_combine_states_
// COMBINEFREE-NEXT: Function properties for ssd_combine_states_
// COMBINEFREE-NEXT: {{, }}0 bytes spill stores
// COMBINE8-LABEL: .entry ssd_segment_states_
// COMBINE8: .maxntid 128, 1, 1
// COMBINE8-LABEL: .entry ssd_combine_states_
// COMBINE8: .maxntid 256, 1, 1
// COMBINE8-LABEL: .entry ssd_segment_scan_
// COMBINE8: .maxntid 128, 1, 1
// NOSERIAL-NOT: serialized
// SPILLFREE: Compiling entry function
// SPILLFREE-NOT: {{[1-9][0-9]* bytes spill}}
// NOSPILL-NOT: error
// NOSPILL: 0 bytes spill stores, 0 bytes spill loads
// NOSPILL-NOT: error
// NOSERIAL-NOT: serialized
// CONV4K-NOT: error
// CONV4K: Compiling entry function 'conv_fused_f16_M4096_128_32_rc_pre_post'
// CONV4K: Used {{[0-9]+}} registers
// The SSD kernels are accepted; the correct-first lowering still spills in
// one of them (registers: see the log), which the Hopper issues address.
// ACCEPTED-NOT: error
// ACCEPTED: Compiling entry function 'ssd_chunk_state
// ACCEPTED-NOT: error
// WGMMA: wgmma.mma_async.sync.aligned.m64n64k16.f32
// The fused kernel still spills a few hundred bytes at dstate 128 (255
// registers; bench/RESULTS.md): accepted, not yet spill-free.
// FUSED-NOT: error
// FUSED: Compiling entry function 'ssd_fused_
// FUSED: Used {{[0-9]+}} registers
// FUSED-NOT: error
// SPLIT-NOT: error
// SPLIT-DAG: Compiling entry function 'ssd_segment_states_
// SPLIT-DAG: Compiling entry function 'ssd_combine_states_
// SPLIT-DAG: Compiling entry function 'ssd_segment_scan_
// SPLIT-NOT: error
