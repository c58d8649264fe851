// The fused SSD walk loads z and the per-channel D row where they are used
// (`at_use`) in the 16-bit kernels without seq_idx or state copies at
// dstate 128, the D row alone at 256 (ssd::epilogueLoadsAtUse, as timed on
// the H200); elsewhere a chunk ahead like every other load.
// RUN: tessera print ssd-fused --dtype bf16 --dstate 128 --options D,z,bias,softplus | FileCheck %s --check-prefix=Z128
// RUN: tessera print ssd-fused --dtype f16 --dstate 128 --options Dpc,z | FileCheck %s --check-prefix=BOTH
// RUN: tessera print ssd-fused --dtype bf16 --dstate 256 --options Dpc,z | FileCheck %s --check-prefix=D256
// RUN: tessera print ssd-fused --dtype bf16 --dstate 64 --options Dpc,z | FileCheck %s --check-prefix=NONE
// RUN: tessera print ssd-fused --dtype bf16 --dstate 128 --options Dpc,z,seq | FileCheck %s --check-prefix=NONE
// RUN: tessera print ssd-fused --dtype bf16 --dstate 128 --options Dpc,z,h0 | FileCheck %s --check-prefix=NONE
// RUN: tessera print ssd-fused --dtype f32 --dstate 128 --options Dpc,z | FileCheck %s --check-prefix=NONE
// The split forward's segment scan reads initial states: none (not timed).
// RUN: tessera print ssd-split --dtype bf16 --dstate 128 --options Dpc,z | FileCheck %s --check-prefix=NONESPLIT

// Z128-LABEL: tile.kernel @ssd_fused_bf16_q64_p64_n128_bias_softplus_D_z
// Z128-NOT:     at_use
// Z128:         tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] at_use : !tile.view<?x?x?x?xbf16> -> tensor<1x64x1x64xbf16>
// Z128-NOT:     at_use

// BOTH-LABEL: tile.kernel @ssd_fused_f16_q64_p64_n128_Dpc_z
// BOTH:         tile.load %{{.*}}[%{{.*}}, %{{.*}}] at_use : !tile.view<?x?xf32> -> tensor<1x64xf32>
// BOTH:         tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] at_use : !tile.view<?x?x?x?xf16> -> tensor<1x64x1x64xf16>

// D256-LABEL: tile.kernel @ssd_fused_bf16_q64_p64_n256_Dpc_z
// D256:         tile.load %{{.*}}[%{{.*}}, %{{.*}}] at_use : !tile.view<?x?xf32> -> tensor<1x64xf32>
// D256-NOT:     at_use

// NONE-LABEL: tile.kernel @ssd_fused_
// NONE-NOT:     at_use

// NONESPLIT-LABEL: tile.kernel @ssd_segment_scan_
// NONESPLIT-NOT:     at_use
