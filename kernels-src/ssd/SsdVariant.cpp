//===- SsdVariant.cpp - Mamba-2 SSD kernel variants and names -------------===//

#include "kernels-src/ssd/SsdVariant.h"

#include <algorithm>
#include <sstream>

namespace tessera::ssd {

const char *name(ElementType type) {
  switch (type) {
  case ElementType::f32:
    return "f32";
  case ElementType::bf16:
    return "bf16";
  case ElementType::f16:
    return "f16";
  }
  return "?";
}

bool parseOptionList(const std::string &list, Options &o) {
  const std::string names = list == "layer" ? "D,bias,softplus"
                            : list == "all" ? "Dpc,z,bias,softplus,seq,h0,hT"
                                            : list;
  std::stringstream s(names == "none" ? "" : names);
  for (std::string n; std::getline(s, n, ',');) {
    if (n == "D")
      o.hasD = true;
    else if (n == "Dpc")
      o.hasD = o.dPerChannel = true;
    else if (n == "z")
      o.hasZ = true;
    else if (n == "bias")
      o.hasDtBias = true;
    else if (n == "softplus")
      o.dtSoftplus = true;
    else if (n == "seq")
      o.hasSeqIdx = true;
    else if (n == "h0")
      o.hasInitialStates = true;
    else if (n == "hT")
      o.returnFinalStates = true;
    else
      return false;
  }
  return true;
}

std::string optionList(const Options &o) {
  std::string s;
  auto add = [&](bool on, const char *name) {
    if (on)
      s += (s.empty() ? "" : ",") + std::string(name);
  };
  add(o.hasD && !o.dPerChannel, "D");
  add(o.hasD && o.dPerChannel, "Dpc");
  add(o.hasZ, "z");
  add(o.hasDtBias, "bias");
  add(o.dtSoftplus, "softplus");
  add(o.hasSeqIdx, "seq");
  add(o.hasInitialStates, "h0");
  add(o.returnFinalStates, "hT");
  return s.empty() ? "none" : s;
}

std::string Variant::suffix() const {
  std::ostringstream s;
  s << name(dtype) << "_q" << chunk << "_p" << headdimTile << "_n" << dstateTile
    << (dtBias ? "_bias" : "") << (softplus ? "_softplus" : "")
    << (seqIdx ? "_seq" : "") << (D ? (dPerChannel ? "_Dpc" : "_D") : "")
    << (z ? "_z" : "") << (initialStates ? "_h0" : "")
    << (finalStates ? "_hT" : "");
  return s.str();
}

bool Variant::hasOptions() const {
  return dtBias || softplus || seqIdx || D || dPerChannel || z ||
         initialStates || finalStates;
}

static int64_t pow2AtLeast(int64_t n) {
  int64_t p = 1;
  while (p < n)
    p *= 2;
  return p;
}

Variant variantFor(const Shape &s, const Options &o, ElementType dtype,
                   int64_t chunk) {
  Variant v;
  v.dtype = dtype;
  v.chunk = chunk;
  v.headdimTile = pow2AtLeast(s.headdim);
  v.dstateTile = pow2AtLeast(s.dstate);
  v.dtBias = o.hasDtBias;
  v.softplus = o.dtSoftplus;
  v.seqIdx = o.hasSeqIdx;
  v.D = o.hasD;
  v.dPerChannel = o.dPerChannel;
  v.z = o.hasZ;
  v.initialStates = o.hasInitialStates;
  v.finalStates = o.returnFinalStates;
  return v;
}

Variant fusedVariantFor(const Shape &s, const Options &o, ElementType dtype) {
  Variant v = variantFor(s, o, dtype, fusedChunk(dtype));
  // wgmma tiles are at least 16 wide.
  v.dstateTile = std::max<int64_t>(v.dstateTile, 16);
  // 64 registers a thread of state: 2048 f32 elements per warp. Initial
  // and final states' transposing copy of a 256 x 64 block fits beside the
  // rest only with the exchange scratch placed by lifetime (213,008 bytes
  // in bf16, 229,392 in f32, against 246,784 without; the H200 allows
  // 232,448 a block).
  // Sized for the layer kernel's warps: the state-copying kernels that
  // run on eight at dstate 128 keep the same block (a block of 128 there
  // spilled 492 bytes).
  int64_t stateElements = 2048 * (v.dstateTile > 128 ? 8 : 4);
  v.headdimTile = std::clamp<int64_t>(stateElements / v.dstateTile, 16,
                                      std::max<int64_t>(v.headdimTile, 16));
  return v;
}

int64_t fusedWarps(const Variant &v, Module module) {
  // Above dstate 128, eight warps (warpgroups along N for the 64-row
  // products) and headdim blocks of 64: H200, dstate 256, 4.62 ms on four
  // warps with blocks of 32, 3.79 on eight, 2.59 on eight with blocks of
  // 64 (bench/RESULTS.md, 2026-12-01).
  if (v.dstateTile > 128)
    return 8;
  // At 128, eight where the kernel copies initial or final states and also
  // takes z or seq_idx: every option, 8 x 4096 x 80 heads, 2.24 ms on four
  // warps (416 bytes spilled), 1.84 on eight (session 18); with late loads
  // 1.84 on four, 1.82 on eight (session 21). The split forward's kernels
  // with copies too (spill-free on eight instead of 372 / 168 / 12). With
  // the copies alone (D, bias, softplus, h0, hT), four: 1.074 -> 0.651 ms,
  // two CTAs an SM instead of one (session 21).
  // D per channel with the copies spills on four warps (64-76 bytes) and
  // is not timed there: eight.
  if (v.dstateTile == 128 && copiesStates(v) &&
      (v.z || v.seqIdx || v.dPerChannel || module == Module::Split))
    return 8;
  return 4;
}

bool copiesStates(const Variant &v) { return v.initialStates || v.finalStates; }

EpilogueLoadsAtUse epilogueLoadsAtUse(const Variant &v) {
  // D's row is otherwise hoisted out of the walk and z issued at the top of
  // its chunk (late loads); both stay live across the chunk's products. At
  // their use instead (H200, 8 x 4096 x 80 heads; two runs for z and for D
  // per channel at 128, one elsewhere; session 22, bench/RESULTS.md runs 32
  // and 34):
  // - dstate 128, bf16: z 1.34 -> 1.04 ms (36 -> 0 bytes spilled), D per
  //   channel 0.83 -> 0.65 (16 -> 0), both 1.36 -> 1.07 (60 -> 0); f16 z
  //   1.15 -> 1.05.
  // - dstate 256: D per channel 1.49 -> 1.34, but z 1.74 -> 1.87.
  // - dstate 64: z 0.928 -> 0.930, D per channel 0.506 -> 0.536.
  // - With seq_idx or state copies, slower at every dstate timed (every
  //   option at 128 1.84 -> 1.94, at 256 2.33 -> 2.65; seq_idx and z 1.697
  //   -> 1.707; D per channel with h0 and hT 1.067 -> 1.115); in f32 (2 x
  //   4096, dstate 64) z 0.76 -> 1.14.
  // f16 follows bf16 (the same kernel; f16 z at 128 1.15 -> 1.05). The split
  // forward's segment scan reads initial states, so it takes neither (not
  // timed there).
  if (v.dtype == ElementType::f32 || v.seqIdx || copiesStates(v))
    return {};
  const bool dRow = v.D && v.dPerChannel;
  if (v.dstateTile == 128)
    return {.z = v.z, .dRow = dRow};
  if (v.dstateTile > 128)
    return {.z = false, .dRow = dRow};
  return {};
}

FusedCompile fusedCompile(const Variant &v, Module module) {
  FusedCompile c;
  // Prefetch stages: two (two CTAs of the dstate-128 kernel fit one SM;
  // 2.71 ms with four), three at dstate 64 (1.08 ms, 1.20 with two).
  c.stages = v.dstateTile <= 64 ? 3 : 2;
  const bool states = copiesStates(v);
  c.warps = fusedWarps(v, module);
  c.warpgroupsAlongN = c.warps > 4;
  // The exchange swizzle, except in kernels that copy initial or final
  // states on four warps (dstate 64) or at 256. stmatrix only where those
  // copies run on eight warps at 128 (as timed there). H200, bf16, 8 x
  // 4096 x 80 heads unless said, second of two runs (session 18,
  // bench/RESULTS.md):
  // - dstate 64: 0.651 -> 0.546 ms with the swizzle (0.557 with stmatrix
  //   too); 2 x 16K split in 8, 0.752 -> 0.701.
  // - dstate 128: 0.758 -> 0.616 (0.623 with stmatrix); 64 heads in 8
  //   groups 0.510 -> 0.460; 2 x 16K 1.014 -> 0.918. Every option on
  //   eight warps: 1.968 -> 1.841.
  // - dstate 256: 1.407 -> 1.345. f32, dstate 64 (2 x 4096 x 16 heads):
  //   0.473 -> 0.443.
  // - Every option at 256 (255 registers, spilling): the swizzle's address
  //   registers cost more than its bank conflicts (2 x 2000 x 8 heads,
  //   0.272 vs 0.294 ms; f32 at 1 x 1000 x 8, headdim 80, 0.638 vs 0.678)
  //   and spill more (52 -> 300 bytes), as at every dstate before session
  //   16's register savings (1.884 vs 1.936 ms at 128, 2026-12-01). At 64
  //   with states (f32 in the library) it was not timed.
  c.exchangeSwizzle = !states || v.dstateTile == 128;
  c.storeMatrices = states && v.dstateTile == 128 && c.warps == 8;
  // The scores as wgmma's A straight from registers: faster at dstate 128
  // (1.44 -> 1.40 ms). At 64 it was slower before stepped descriptors and
  // early refill (0.824 -> 0.933, 2026-12-01); with them, 8 x 4K 0.654 ->
  // 0.655 ms and 2 x 16K 0.784 -> 0.757 (session 17). H200,
  // bench/RESULTS.md.
  c.wgmmaRegisterA = true;
  // Exchange scratch placed by lifetime: the initial- and final-state
  // copies around the chunk loop leave the loop's buffers alone (dstate 128
  // with both on four warps: 132 -> 112 KB, two CTAs per SM instead of one;
  // at 256 the copy fits only so; never more shared memory on any
  // variant). docs/decisions.md.
  c.scratchLifetimes = true;
  // No LICM: the addresses and wgmma descriptors it hoists out of the chunk
  // loop are what spills (dstate 128: 300 -> 40 bytes, 256: 432 -> 84),
  // and at 128 it is slower spill-free too (2.7B 0.618 -> 1.121 ms).
  // Except in the 16-bit fused kernel at dstate 64 with headdim blocks of
  // 64, without z, seq_idx or state copies: 198 -> 254 registers,
  // spill-free, 0.550 -> 0.526 ms at 8 x 4096 x 80 heads with the layer
  // options (H200, bf16, two runs each; session 19, bench/RESULTS.md);
  // every subset of D, Dpc, bias and softplus spill-free too (ptxas). With
  // z it spills 104 bytes, with seq_idx 8, with blocks of 128 552. Not in
  // the split kernels (0.705 -> 0.712 ms at 2 x 16K in 8 segments, and 4
  // bytes spilled).
  c.hoistLoopInvariants = module == Module::Fused && v.dstateTile == 64 &&
                          v.headdimTile == 64 && v.dtype != ElementType::f32 &&
                          !states && !v.z && !v.seqIdx;
  // Early refill: each copy is requested a chunk sooner for the same
  // shared memory (with two stages, a whole chunk ahead instead of none).
  // H200, bf16: 2.7B 0.862 -> 0.841 ms, dstate 256 2.016 -> 1.972, 64
  // heads in 8 groups 0.647 -> 0.575, dstate 64 and 2 x 16K unchanged
  // (bench/RESULTS.md, 2026-12-02).
  c.earlyRefill = true;
  // Paired f32 -> 16-bit conversions, fma, and wgmma descriptors stepped
  // from a base: fewer conversion, multiply and uniform-datapath
  // instructions, and at dstate 256 fewer spills (116 -> 8 bytes). H200,
  // bf16, all three: 2.7B 0.841 -> 0.762 ms, dstate 64 0.701 -> 0.653,
  // dstate 256 1.977 -> 1.413, 64 heads in 8 groups 0.575 -> 0.514
  // (bench/RESULTS.md, session 16).
  c.pairTruncations = true;
  c.fuseMultiplyAdd = true;
  c.stepDescriptors = true;
  // z, the only load first used after the products, loaded at the top of
  // its own chunk: one copy of it live instead of two. H200, 8 x 4096 x 80
  // heads (session 21, bench/RESULTS.md): bf16 dstate 128 with z 1.588 ->
  // 1.320 ms, with Dpc, seq_idx and z 1.946 -> 1.740, every option at 256
  // 2.612 -> 2.291; f32 every option (batch 2) at 64 1.204 -> 0.880, at
  // 256 4.714 -> 3.550, split at 64 0.909 -> 0.852. Every option at 128
  // (eight warps) 1.821 -> 1.829 in bf16, 1.824 -> 1.839 in f16, but
  // spill-free instead of 60 bytes. Where z is loaded at its use
  // (epilogueLoadsAtUse), that supersedes this for z.
  c.lateLoadsInIteration = v.z;
  // The split forward's segment-state walk prefetches a chunk ahead only
  // the tiles that fit in 64 registers a thread, the others loaded at
  // their use. H200, bf16, 80 heads (session 26, bench/RESULTS.md): at
  // dstate 64 (255 -> 168 registers) the walk 0.193 -> 0.151 ms and the
  // forward 0.705 -> 0.665 at 2 x 16K; at 16-bit dstate 128 it no longer
  // spills (54 and 12 -> 0 bytes), the walk 0.264 -> 0.231 ms and the
  // forward 1.012 -> 0.977 at 1 x 32K (and at 2 x 16K forced into 8
  // segments). The f32 and every-option split modules compile as before.
  if (module == Module::Split)
    c.registerPrefetchBudget = 64;
  // The copies' path for views whose rows are not 16-byte pieces (not
  // taken at the benchmark shapes; B and C at an odd dstate take it) as a
  // loop rather than unrolled, which keeps its per-element rows out of the
  // chunk loop (about 130 instructions a chunk at dstate 64, ncu). At
  // 16-bit dstate 256 the walk then spills nothing (8 and 28 bytes
  // before). H200, bf16, 8 x 4096 x 80 heads (session 27,
  // bench/RESULTS.md): 1.351 -> 1.231 ms, every option 2.31 -> 2.14. At
  // dstate 64 and 128 (two programs an SM) the grids ran slower (2.7B
  // 0.620 -> 0.674 ms, dstate 64 0.525 -> 0.557), and f32 at 256 spills
  // more (every option 880 -> 1100 bytes). The 16-bit walk without any
  // option at 128 takes it too: 255 registers and 16 bytes spilled -> 232
  // and none, 0.725 -> 0.636 ms at 8 x 4096 x 80 heads (bf16, session 29;
  // f16 follows, untimed).
  c.loopMisalignedCopies =
      module == Module::Fused && v.dtype != ElementType::f32 &&
      (v.dstateTile > 128 || (v.dstateTile == 128 && !v.hasOptions()));
  // The causal mask compared as one coordinate difference a thread against
  // a constant a register instead of two coordinates a register (LLVM
  // held those in 64-bit registers across the chunk loop). H200, bf16, 8 x
  // 4096 x 80 heads (session 28, bench/RESULTS.md): 2.7B 0.619 -> 0.612
  // ms, dstate 256 1.231 -> 1.222, 2 x 16K at dstate 64 (split) 0.663 ->
  // 0.655; the fused walk at dstate 64 0.524 -> 0.552 (fewer
  // instructions, yet slower, as in session 27). Where it made ptxas spill
  // more (the every-option kernels at 128, 0 -> 28 bytes, which the
  // seq_idx test excludes; f32 every option at 256; the split scans at
  // 128) or is untimed (f32, seq_idx), the two coordinates.
  const bool sixteenBit = v.dtype != ElementType::f32;
  c.coordinateCompares =
      sixteenBit && !v.seqIdx &&
      (module == Module::Fused ? v.dstateTile >= 128 : v.dstateTile == 64);
  // One barrier where two back-to-back exchanges left two (the walk at
  // dstate 64 keeps 20 of 22 a chunk). H200, bf16, 8 x 4096 x 80 heads,
  // the same in two runs but for the last digit (session 30,
  // bench/RESULTS.md): 2.7B 0.614 -> 0.610 ms, dstate 64 0.524 -> 0.516,
  // 256 1.229 -> 1.210, 2 x 16K at 64 (split) 0.657 -> 0.650. Everywhere:
  // it only removes barriers that order nothing.
  c.mergeBarriers = true;
  return c;
}

std::string compileFlags(const FusedCompile &c) {
  std::string flags = c.mergeBarriers ? "--merge-barriers " : "";
  flags += "--stages " + std::to_string(c.stages);
  if (!c.exchangeSwizzle)
    flags += " --no-swizzle";
  flags += " --num-warps " + std::to_string(c.warps);
  if (c.storeMatrices)
    flags += " --stmatrix";
  if (c.warpgroupsAlongN)
    flags += " --wgmma-along-n";
  if (!c.wgmmaRegisterA)
    flags += " --no-wgmma-register-a";
  if (c.scratchLifetimes)
    flags += " --scratch-lifetimes";
  if (!c.hoistLoopInvariants)
    flags += " --no-hoist-invariants";
  if (c.earlyRefill)
    flags += " --early-refill";
  if (c.pairTruncations)
    flags += " --pair-truncations";
  if (c.fuseMultiplyAdd)
    flags += " --fma";
  if (c.stepDescriptors)
    flags += " --step-descriptors";
  if (!c.coordinateCompares)
    flags += " --no-coordinate-compares";
  if (c.lateLoadsInIteration)
    flags += " --late-loads-in-iteration";
  if (c.registerPrefetchBudget)
    flags += " --register-prefetch-budget " +
             std::to_string(*c.registerPrefetchBudget);
  if (c.loopMisalignedCopies)
    flags += " --loop-misaligned-copies";
  return flags;
}

int64_t fusedChunk(ElementType dtype) {
  // f32 tiles take twice the registers and shared memory of 16-bit ones.
  return dtype == ElementType::f32 ? 32 : 64;
}

std::string fusedKernelName(const Variant &v) {
  return "ssd_fused_" + v.suffix();
}

std::string segmentStatesName(const Variant &v) {
  return "ssd_segment_states_" + v.suffix();
}
std::string combineStatesName(const Variant &v) {
  return "ssd_combine_states_" + v.suffix();
}
std::string segmentScanName(const Variant &v) {
  return "ssd_segment_scan_" + v.suffix();
}

int64_t combineWarps(const Variant &v) {
  // One state is dstateTile x headdimTile f32 over 32 lanes a warp.
  int64_t warps = 4;
  while (warps < 32 && v.dstateTile * v.headdimTile > 32 * 32 * warps)
    warps *= 2;
  return warps;
}

Variant segmentScanVariant(const Variant &fused) {
  Variant v = fused;
  v.initialStates = true;
  v.finalStates = false;
  return v;
}

bool splittable(const Variant &fused) { return fused.dstateTile <= 128; }

int64_t segmentsFor(const Shape &s, const Variant &v, int64_t sms,
                    int64_t programsPerSm) {
  if (!splittable(v) || sms < 1 || programsPerSm < 1)
    return 1;
  const int64_t programs =
      ((s.headdim + v.headdimTile - 1) / v.headdimTile) * s.nheads * s.batch;
  const int64_t slots = sms * programsPerSm;
  const int64_t chunks = (s.seqlen + v.chunk - 1) / v.chunk;
  // Time in chunk steps of the fused walk. Each program walks its chunks
  // at a steady pace however many share an SM (latency-bound: H200, 7.4 us
  // a chunk at dstate 128 with one or two per SM), so a grid takes
  // ceil(programs / slots) times the chunks of one program. The split adds
  // the segment-state walk over all but the last segment, whose steps
  // (two chunks each) cost stateStep of a fused one, and the combine walk
  // (small). H200, bf16, 80 heads: 0.6 at dstate 64 (2 x 16K: 0.5 to
  // 0.77). At dstate 128 early refill made the fused walk faster (2.7B:
  // 4.4 us a chunk step) than the state walk it left, 1.1 to 1.5 (2 x
  // 16K, 4 x 8K, 1 x 16K and 32K, 1 to 16 segments; bench/RESULTS.md,
  // 2026-12-02): there 2 x 16K now runs unsplit (1.143 ms against 1.190).
  const double stateStep = v.dstateTile <= 64 ? 0.6 : 1.35;
  auto waves = [&](int64_t n) { return double((n + slots - 1) / slots); };
  auto cost = [&](int64_t S) {
    double steps = waves(programs * S) * double(chunks / S);
    if (S > 1)
      steps += stateStep * waves(programs * (S - 1)) * double(chunks / S) / 2;
    return steps;
  };
  // Split only for a clear gain (the model leaves out the combine walk
  // and the launches): 2.7B shape, 2 segments, 1.51 ms against 1.42.
  int64_t best = 1;
  double bestCost = 0.9 * cost(1);
  for (int64_t S = 2; S <= 16; S *= 2)
    if (s.seqlen % (S * v.chunk) == 0 && cost(S) < bestCost) {
      best = S;
      bestCost = cost(S);
    }
  return best;
}

} // namespace tessera::ssd
