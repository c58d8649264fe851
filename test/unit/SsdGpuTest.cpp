//===- SsdGpuTest.cpp - the SSD forward's GPU entry point -----------------===//
//
// ssd::validate on every kind of bad argument, the kernel library, and
// ssd::forward end to end against the fake driver (FakeCuda.cpp): the
// fused kernel compiled here, found in the library, launched once on the
// grid (headdim blocks, nheads, batch) with its arguments packed.
//
//===----------------------------------------------------------------------===//

#include "kernels-src/ssd/SsdGpu.h"
#include "kernels-src/ssd/Ssd.h"
#include "lowering/Compile.h"
#include "runtime/Ptx.h"
#include "test/unit/FakeDriver.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace tessera;

namespace {

#define EXPECT_CONTAINS(haystack, needle)                                      \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)             \
      << "  message: " << (haystack)                                           \
      << "\n  expected to contain: " << (needle)

ssd::Options layer() {
  ssd::Options o;
  o.hasD = o.hasDtBias = o.dtSoftplus = true;
  return o;
}

/// Well-formed arguments at fake, aligned addresses.
ssd::DeviceArgs goodArgs(const ssd::Shape &s, const ssd::Options &o,
                         rt::DevicePtr base = 0x100000) {
  const int64_t B = s.batch, L = s.seqlen, H = s.nheads, P = s.headdim,
                N = s.dstate, G = s.ngroups;
  rt::DevicePtr next = base;
  auto t = [&](std::vector<int64_t> shape) {
    ssd::DeviceTensor d{next, shape, {}};
    next += 0x1000000;
    return d;
  };
  ssd::DeviceArgs a;
  a.x = t({B, L, H, P});
  a.dt = t({B, L, H});
  a.A = t({H});
  a.B = t({B, L, G, N});
  a.C = t({B, L, G, N});
  a.y = t({B, L, H, P});
  if (o.hasD)
    a.D = o.dPerChannel ? t({H, P}) : t({H});
  if (o.hasZ)
    a.z = t({B, L, H, P});
  if (o.hasDtBias)
    a.dtBias = t({H});
  if (o.hasInitialStates)
    a.initialStates = t({B, H, P, N});
  if (o.hasSeqIdx)
    a.seqIdx = t({B, L});
  if (o.returnFinalStates)
    a.finalStates = t({B, H, P, N});
  return a;
}

const ssd::Shape kShape{2, 300, 4, 64, 128, 2};

TEST(SsdValidate, AcceptsWellFormedCalls) {
  EXPECT_EQ(ssd::validate(kShape, layer(), ssd::ElementType::bf16,
                          goodArgs(kShape, layer())),
            "");
  ssd::Options all = layer();
  all.dPerChannel = all.hasZ = all.hasSeqIdx = all.hasInitialStates =
      all.returnFinalStates = true;
  EXPECT_EQ(
      ssd::validate(kShape, all, ssd::ElementType::f32, goodArgs(kShape, all)),
      "");
}

TEST(SsdValidate, RejectsBadShapesAndOptions) {
  auto check = [](ssd::Shape s, ssd::Options o, const char *needle) {
    SCOPED_TRACE(needle);
    EXPECT_CONTAINS(ssd::validate(s, o, ssd::ElementType::bf16, goodArgs(s, o)),
                    needle);
  };
  ssd::Shape s = kShape;
  s.ngroups = 3;
  check(s, layer(), "ngroups (3) must divide nheads (4)");
  s = kShape;
  s.headdim = 512;
  check(s, layer(), "headdim and dstate up to 256");
  s = kShape;
  s.dstate = 0;
  check(s, layer(), "dstate must be >= 1, got 0");
  s = kShape;
  s.batch = 70000;
  check(s, layer(), "at most 65535 (grid y and z)");
  ssd::Options o = layer();
  o.dtMin = 1.0;
  o.dtMax = 0.5;
  check(kShape, o, "dt_min <= dt_max");
}

TEST(SsdValidate, RejectsBadTensors) {
  const ssd::Options o = layer();
  auto check = [&](auto edit, const char *needle) {
    SCOPED_TRACE(needle);
    ssd::DeviceArgs a = goodArgs(kShape, o);
    edit(a);
    EXPECT_CONTAINS(ssd::validate(kShape, o, ssd::ElementType::bf16, a),
                    needle);
  };
  check([](ssd::DeviceArgs &a) { a.x.ptr = 0; },
        "x is required (null pointer)");
  check([](ssd::DeviceArgs &a) { a.y.ptr += 1; },
        "y is misaligned: its address must be a multiple of 2 bytes");
  check([](ssd::DeviceArgs &a) { a.dt.ptr += 2; },
        "dt is misaligned: its address must be a multiple of 4 bytes");
  check([](ssd::DeviceArgs &a) { a.B.shape[3] = 64; },
        "B must have shape (2, 300, 2, 128), got (2, 300, 2, 64)");
  check([](ssd::DeviceArgs &a) { a.z = a.x; },
        "z was given but its option is off");
  check(
      [](ssd::DeviceArgs &a) {
        a.C.strides = {1, 1, 1};
      },
      "C has 3 strides for 4 dimensions");
  check(
      [](ssd::DeviceArgs &a) {
        a.C.strides = {-1, 1, 1, 1};
      },
      "C has a negative stride");
  check([](ssd::DeviceArgs &a) { a.D = ssd::DeviceTensor(); },
        "D is required (null pointer)");
  // A span that wraps 64-bit addressing (the kernels index in 64 bits).
  check(
      [](ssd::DeviceArgs &a) {
        a.x.strides = {1, int64_t(1) << 61, 64, 1};
      },
      "x spans more memory than 64-bit addressing reaches");
  check([](ssd::DeviceArgs &a) { a.dt.ptr = ~rt::DevicePtr(0) - 1023; },
        "dt spans more memory than 64-bit addressing reaches");
}

TEST(SsdValidate, AcceptsMoreThan2To31Elements) {
  // x, z and y of 2^32 elements each: sizes that overflow 32-bit indexing
  // are valid, the kernels index in 64 bits (sizes and strides are int64
  // kernel parameters). Guards the span check against rejecting them.
  const ssd::Shape big{8, int64_t(1) << 20, 8, 64, 128, 1};
  ssd::Options o = layer();
  o.hasZ = true;
  ssd::DeviceArgs a = goodArgs(big, o, 0x100000);
  // Apart by 64 GiB (x, the largest, is 8 GiB; validate does not check
  // overlap, but the addresses stay those of a real call).
  rt::DevicePtr next = 0x100000;
  for (ssd::DeviceTensor *t :
       {&a.x, &a.dt, &a.A, &a.B, &a.C, &a.y, &a.D, &a.z, &a.dtBias}) {
    t->ptr = next;
    next += rt::DevicePtr(1) << 36;
  }
  EXPECT_EQ(ssd::validate(big, o, ssd::ElementType::bf16, a), "");
}

TEST(SsdFusedVariant, BlocksAndWarpsPerDstate) {
  auto tile = [](int64_t dstate, int64_t headdim, const ssd::Options &o) {
    ssd::Variant v = ssd::fusedVariantFor(
        ssd::Shape{8, 4096, 80, headdim, dstate, 1}, o, ssd::ElementType::bf16);
    return std::make_pair(v.headdimTile,
                          ssd::fusedCompile(v, ssd::Module::Fused).warps);
  };
  using Tile = std::pair<int64_t, int64_t>;
  // Up to dstate 128 four warps (without state copies); above, eight
  // with headdim blocks of 64.
  EXPECT_EQ(tile(64, 64, layer()), Tile(64, 4));
  EXPECT_EQ(tile(128, 64, layer()), Tile(64, 4));
  EXPECT_EQ(tile(256, 64, layer()), Tile(64, 8));
  EXPECT_EQ(tile(256, 80, layer()), Tile(64, 8));
  EXPECT_EQ(tile(16, 16, layer()), Tile(16, 4));
  // Initial or final states at dstate 256 too (their state copy fits in
  // shared memory with the exchange scratch placed by lifetime).
  ssd::Options states = layer();
  states.hasInitialStates = true;
  EXPECT_EQ(tile(256, 64, states), Tile(64, 8));
  states = layer();
  states.returnFinalStates = true;
  EXPECT_EQ(tile(256, 64, states), Tile(64, 8));
  // At 128 the copies alone stay on four warps; with z or seq_idx too,
  // eight, the same headdim block (also for wider heads: a block of 128
  // spilled).
  EXPECT_EQ(tile(128, 64, states), Tile(64, 4));
  ssd::Options statesZ = states, statesSeq = states;
  statesZ.hasZ = true;
  statesSeq.hasSeqIdx = true;
  EXPECT_EQ(tile(128, 64, statesZ), Tile(64, 8));
  EXPECT_EQ(tile(128, 64, statesSeq), Tile(64, 8));
  EXPECT_EQ(tile(128, 128, statesZ), Tile(64, 8));
  EXPECT_EQ(tile(128, 80, statesSeq), Tile(64, 8));
  EXPECT_EQ(tile(64, 64, states), Tile(64, 4));
  ssd::Options statesDpc = states;
  statesDpc.dPerChannel = true;
  EXPECT_EQ(tile(128, 64, statesDpc), Tile(64, 8));
  // The split forward's kernels copying states at 128: eight.
  EXPECT_EQ(
      ssd::fusedWarps(ssd::fusedVariantFor(ssd::Shape{8, 4096, 80, 64, 128, 1},
                                           states, ssd::ElementType::bf16),
                      ssd::Module::Split),
      8);
  EXPECT_TRUE(ssd::copiesStates(ssd::fusedVariantFor(
      ssd::Shape{1, 64, 2, 64, 128, 1}, states, ssd::ElementType::bf16)));
  EXPECT_FALSE(ssd::copiesStates(ssd::fusedVariantFor(
      ssd::Shape{1, 64, 2, 64, 128, 1}, layer(), ssd::ElementType::bf16)));
}

TEST(SsdFusedVariant, CombineWarpsPerState) {
  // The split forward's combine kernel: at most 32 f32 registers a thread
  // for each state (dstate tile x headdim block), at least four warps.
  auto warps = [](int64_t dstate, int64_t headdim,
                  ssd::ElementType type = ssd::ElementType::bf16) {
    return ssd::combineWarps(ssd::fusedVariantFor(
        ssd::Shape{2, 16384, 80, headdim, dstate, 1}, layer(), type));
  };
  EXPECT_EQ(warps(64, 64), 4);
  EXPECT_EQ(warps(128, 64), 8);
  EXPECT_EQ(warps(128, 80), 8);
  EXPECT_EQ(warps(16, 16), 4);
  EXPECT_EQ(warps(64, 64, ssd::ElementType::f32), 4);
  ssd::Variant wide;
  wide.dstateTile = 256;
  wide.headdimTile = 256;
  EXPECT_EQ(ssd::combineWarps(wide), 32);
  wide.dstateTile = 1024;
  EXPECT_EQ(ssd::combineWarps(wide), 32);
}

TEST(SsdFusedVariant, CompileFlagsPerDstate) {
  auto flags = [](int64_t dstate, ssd::Options o = layer(),
                  ssd::Module module = ssd::Module::Fused,
                  ssd::ElementType type = ssd::ElementType::bf16) {
    ssd::Shape s{8, 4096, 80, 64, dstate, 1};
    return ssd::compileFlags(
        ssd::fusedCompile(ssd::fusedVariantFor(s, o, type), module));
  };
  // What the kernel library passes tile-compile, as measured on the H200.
  // LICM only in the 16-bit fused kernel at dstate 64 without state
  // copies.
  // The causal mask's two coordinates a register (no difference a thread)
  // in the fused walks at 64, with seq_idx, in f32 and in the split
  // forward at 128.
  const std::string twoCoordinates = " --no-coordinate-compares";
  // Back-to-back barriers merged in every module.
  const std::string merge = "--merge-barriers ";
  EXPECT_EQ(flags(64), merge + "--stages 3 --num-warps 4 "
                       "--scratch-lifetimes --early-refill "
                       "--pair-truncations --fma --step-descriptors" +
                           twoCoordinates);
  EXPECT_EQ(flags(64, layer(), ssd::Module::Fused, ssd::ElementType::f16),
            flags(64));
  // The split forward: no LICM, and at most 64 registers a thread
  // prefetched a chunk ahead.
  const std::string budget = " --register-prefetch-budget 64";
  EXPECT_EQ(flags(64, layer(), ssd::Module::Split),
            merge + "--stages 3 --num-warps 4 "
            "--scratch-lifetimes --no-hoist-invariants "
            "--early-refill --pair-truncations --fma "
            "--step-descriptors" +
                budget);
  const std::string split64 = flags(64, layer(), ssd::Module::Split);
  const std::string noBudget =
      split64.substr(0, split64.size() - budget.size());
  EXPECT_EQ(flags(64, layer(), ssd::Module::Fused, ssd::ElementType::f32),
            noBudget + twoCoordinates);
  // Nor with z or seq_idx (they spilled with LICM).
  ssd::Options withZ = layer(), withSeq = layer();
  withZ.hasZ = true;
  withSeq.hasSeqIdx = true;
  EXPECT_EQ(flags(64, withSeq), noBudget + twoCoordinates);
  // With z, late loads in their chunk (the fused and split forwards).
  EXPECT_EQ(flags(64, withZ),
            flags(64, withSeq) + " --late-loads-in-iteration");
  EXPECT_EQ(flags(128, withZ, ssd::Module::Split),
            flags(128) + twoCoordinates + " --late-loads-in-iteration" +
                budget);
  EXPECT_EQ(flags(128, layer(), ssd::Module::Split),
            flags(128) + twoCoordinates + budget);
  EXPECT_EQ(flags(128), merge + "--stages 2 --num-warps 4 "
                        "--scratch-lifetimes --no-hoist-invariants "
                        "--early-refill --pair-truncations --fma "
                        "--step-descriptors");
  EXPECT_EQ(flags(256), merge + "--stages 2 --num-warps 8 "
                        "--wgmma-along-n --scratch-lifetimes "
                        "--no-hoist-invariants --early-refill "
                        "--pair-truncations --fma --step-descriptors "
                        "--loop-misaligned-copies");
  // The misaligned-view copies as a loop at 16-bit dstate 256, and in the
  // 16-bit fused walk without options at 128.
  const std::string loop = " --loop-misaligned-copies";
  EXPECT_EQ(flags(256, layer(), ssd::Module::Fused, ssd::ElementType::f16),
            flags(256));
  EXPECT_EQ(flags(256, layer(), ssd::Module::Fused, ssd::ElementType::f32)
                .find(loop),
            std::string::npos);
  EXPECT_EQ(flags(128, ssd::Options()),
            merge + "--stages 2 --num-warps 4 --scratch-lifetimes "
            "--no-hoist-invariants --early-refill --pair-truncations --fma "
            "--step-descriptors" +
                loop);
  EXPECT_EQ(flags(128, ssd::Options(), ssd::Module::Fused,
                  ssd::ElementType::f16),
            flags(128, ssd::Options()));
  EXPECT_EQ(flags(128, ssd::Options(), ssd::Module::Split).find(loop),
            std::string::npos);
  EXPECT_EQ(flags(64, ssd::Options()).find(loop), std::string::npos);
  // Kernels that copy initial or final states: at dstate 128 with seq_idx
  // or z, or split, eight warps along N and stmatrix; no exchange swizzle
  // at 64 and 256.
  ssd::Options initial = layer(), finalOnly = layer();
  initial.hasInitialStates = true;
  finalOnly.returnFinalStates = true;
  EXPECT_EQ(flags(128, initial), flags(128));
  ssd::Options initialSeq = initial;
  initialSeq.hasSeqIdx = true;
  EXPECT_EQ(flags(128, initialSeq),
            merge + "--stages 2 --num-warps 8 --stmatrix --wgmma-along-n "
            "--scratch-lifetimes --no-hoist-invariants --early-refill "
            "--pair-truncations --fma --step-descriptors" +
                twoCoordinates);
  EXPECT_EQ(flags(128, initial, ssd::Module::Split),
            flags(128, initialSeq) + budget);
  EXPECT_EQ(flags(64, finalOnly),
            merge + "--stages 3 --no-swizzle --num-warps 4 --scratch-lifetimes "
            "--no-hoist-invariants --early-refill --pair-truncations --fma "
            "--step-descriptors" +
                twoCoordinates);
  EXPECT_EQ(flags(256, finalOnly),
            merge + "--stages 2 --no-swizzle --num-warps 8 --wgmma-along-n "
            "--scratch-lifetimes --no-hoist-invariants --early-refill "
            "--pair-truncations --fma --step-descriptors "
            "--loop-misaligned-copies");
}

TEST(SsdFusedVariant, EpilogueLoadsAtUsePerDstate) {
  auto atUse = [](int64_t dstate, ssd::Options o,
                  ssd::ElementType type = ssd::ElementType::bf16) {
    ssd::Shape s{8, 4096, 80, 64, dstate, 1};
    ssd::EpilogueLoadsAtUse a =
        ssd::epilogueLoadsAtUse(ssd::fusedVariantFor(s, o, type));
    return std::pair<bool, bool>{a.z, a.dRow};
  };
  ssd::Options zDpc = layer();
  zDpc.hasZ = true;
  zDpc.dPerChannel = true;
  // As timed on the H200: both at dstate 128 (f16 too), D's row alone at
  // 256, neither at 64.
  EXPECT_EQ(atUse(128, zDpc), std::make_pair(true, true));
  EXPECT_EQ(atUse(128, zDpc, ssd::ElementType::f16),
            std::make_pair(true, true));
  EXPECT_EQ(atUse(256, zDpc), std::make_pair(false, true));
  EXPECT_EQ(atUse(64, zDpc), std::make_pair(false, false));
  // Only the loads the variant has: D shared by the head has no row.
  EXPECT_EQ(atUse(128, layer()), std::make_pair(false, false));
  // Never in f32, with seq_idx or with state copies (slower there).
  EXPECT_EQ(atUse(128, zDpc, ssd::ElementType::f32),
            std::make_pair(false, false));
  ssd::Options seq = zDpc, h0 = zDpc, hT = zDpc;
  seq.hasSeqIdx = true;
  h0.hasInitialStates = true;
  hT.returnFinalStates = true;
  EXPECT_EQ(atUse(128, seq), std::make_pair(false, false));
  EXPECT_EQ(atUse(128, h0), std::make_pair(false, false));
  EXPECT_EQ(atUse(256, hT), std::make_pair(false, false));
}

TEST(SsdFusedVariant, CompileFlagsParseBackIntoOptions) {
  // The GPU cases compile the library's flags through the same parser as
  // tile-compile: every FusedCompile field comes back.
  ssd::Options states = layer(), every;
  states.hasInitialStates = states.returnFinalStates = true;
  ASSERT_TRUE(ssd::parseOptionList("all", every));
  for (int64_t dstate : {64, 128, 256}) {
    for (const ssd::Options &options : {layer(), states, every})
      for (ssd::Module module : {ssd::Module::Fused, ssd::Module::Split}) {
        if (module == ssd::Module::Split && dstate > 128) {
          // No split forward there.
          ssd::Shape s{8, 4096, 80, 64, dstate, 1};
          EXPECT_FALSE(ssd::splittable(
              ssd::fusedVariantFor(s, options, ssd::ElementType::bf16)));
          continue;
        }
        SCOPED_TRACE("dstate " + std::to_string(dstate) + " " +
                     ssd::optionList(options) +
                     (module == ssd::Module::Split ? " split" : " fused"));
        ssd::Shape s{8, 4096, 80, 64, dstate, 1};
        const ssd::FusedCompile c = ssd::fusedCompile(
            ssd::fusedVariantFor(s, options, ssd::ElementType::bf16), module);
        EXPECT_EQ(c.registerPrefetchBudget, module == ssd::Module::Split
                                                ? std::optional<int64_t>(64)
                                                : std::nullopt);
        lowering::CompileOptions o;
        EXPECT_EQ(lowering::applyCompileFlags(ssd::compileFlags(c), o), "");
        EXPECT_EQ(o.stages, unsigned(c.stages));
        EXPECT_EQ(o.numWarps, unsigned(c.warps));
        EXPECT_EQ(o.swizzleExchanges, c.exchangeSwizzle);
        EXPECT_EQ(o.storeMatrices, c.storeMatrices);
        EXPECT_EQ(o.warpgroupsAlongN, c.warpgroupsAlongN);
        EXPECT_EQ(o.wgmmaRegisterA, c.wgmmaRegisterA);
        EXPECT_EQ(o.scratchLifetimes, c.scratchLifetimes);
        EXPECT_EQ(o.hoistLoopInvariants, c.hoistLoopInvariants);
        EXPECT_EQ(o.earlyRefill, c.earlyRefill);
        EXPECT_EQ(o.pairTruncations, c.pairTruncations);
        EXPECT_EQ(o.fuseMultiplyAdd, c.fuseMultiplyAdd);
        EXPECT_EQ(o.stepDescriptors, c.stepDescriptors);
        EXPECT_EQ(o.lateLoadsInIteration, c.lateLoadsInIteration);
        EXPECT_EQ(o.loopMisalignedCopies, c.loopMisalignedCopies);
        EXPECT_EQ(o.mergeBarriers, c.mergeBarriers);
        EXPECT_EQ(c.loopMisalignedCopies,
                  module == ssd::Module::Fused && dstate == 256);
        EXPECT_EQ(o.coordinateCompares, c.coordinateCompares);
        // One difference a thread for the causal mask without seq_idx, in
        // the 16-bit fused walks at 128 and above and the split forward at
        // 64, where it timed faster.
        EXPECT_EQ(
            c.coordinateCompares,
            !options.hasSeqIdx &&
                (module == ssd::Module::Fused ? dstate >= 128 : dstate == 64));
        EXPECT_EQ(o.registerPrefetchBudget,
                  unsigned(c.registerPrefetchBudget.value_or(
                      lowering::CompileOptions().registerPrefetchBudget)));
      }
  }
}

TEST(CompileFlags, ErrorsNameTheFlag) {
  lowering::CompileOptions o;
  EXPECT_EQ(lowering::applyCompileFlags("--fma --bogus", o),
            "unknown compile flag '--bogus'");
  EXPECT_EQ(lowering::applyCompileFlags("--stages", o),
            "--stages needs a value");
  EXPECT_EQ(lowering::applyCompileFlags("--num-warps 99", o),
            "--num-warps takes a count from 1 to 32, got '99'");
  EXPECT_EQ(lowering::applyCompileFlags("--stages -1", o),
            "--stages takes a count from 2 to 6, got '-1'");
  EXPECT_EQ(lowering::applyCompileFlags("", o), "");
}

TEST(CompileFlags, PrefetchAndHoistingApart) {
  // tile-pipeline's two register-for-latency trades are on by default and
  // turn off one at a time (the gated 4K conv kernel drops only the
  // prefetch).
  lowering::CompileOptions o;
  EXPECT_TRUE(o.registerPrefetch);
  EXPECT_TRUE(o.hoistInvariantLoads);
  EXPECT_EQ(lowering::applyCompileFlags("--no-register-prefetch", o), "");
  EXPECT_FALSE(o.registerPrefetch);
  EXPECT_TRUE(o.hoistInvariantLoads);
  lowering::CompileOptions h;
  EXPECT_EQ(lowering::applyCompileFlags("--no-hoist-invariant-loads", h), "");
  EXPECT_TRUE(h.registerPrefetch);
  EXPECT_FALSE(h.hoistInvariantLoads);
  // Late loads in their own iteration: off until timed.
  EXPECT_FALSE(h.lateLoadsInIteration);
  EXPECT_EQ(lowering::applyCompileFlags("--late-loads-in-iteration", h), "");
  EXPECT_TRUE(h.lateLoadsInIteration);
  EXPECT_TRUE(h.registerPrefetch);
}

TEST(CompileFlags, RegisterPrefetchBudget) {
  // 96 registers a thread unless set; a count from 1 to 255.
  lowering::CompileOptions o;
  EXPECT_EQ(o.registerPrefetchBudget, 96u);
  EXPECT_EQ(lowering::applyCompileFlags("--register-prefetch-budget 64", o),
            "");
  EXPECT_EQ(o.registerPrefetchBudget, 64u);
  EXPECT_TRUE(o.registerPrefetch);
  EXPECT_EQ(lowering::applyCompileFlags("--register-prefetch-budget 255", o),
            "");
  EXPECT_EQ(o.registerPrefetchBudget, 255u);
  EXPECT_EQ(lowering::applyCompileFlags("--register-prefetch-budget 0", o),
            "--register-prefetch-budget takes a count from 1 to 255, got '0'");
  EXPECT_EQ(
      lowering::applyCompileFlags("--register-prefetch-budget 256", o),
      "--register-prefetch-budget takes a count from 1 to 255, got '256'");
  EXPECT_EQ(lowering::applyCompileFlags("--register-prefetch-budget", o),
            "--register-prefetch-budget needs a value");
}

TEST(SsdFusedVariant, SegmentsForSmallGrids) {
  auto segments = [](ssd::Shape s, int64_t programsPerSm = 2) {
    return ssd::segmentsFor(
        s, ssd::fusedVariantFor(s, layer(), ssd::ElementType::bf16), 132,
        programsPerSm);
  };
  // Batch 2 x 16K: 160 programs of 256 chunks for 264 slots. Split at
  // dstate 64; at 128, whose state walk costs more than a fused step, one
  // walk (H200: 1.143 ms unsplit, 1.190 in 8 segments, 1.261 in 4).
  EXPECT_EQ(segments({2, 16384, 80, 64, 128, 1}), 1);
  EXPECT_EQ(segments({2, 16384, 80, 64, 64, 1}), 8);
  EXPECT_EQ(segments({4, 8192, 80, 64, 128, 1}), 1);
  // 80 programs for 132 SMs split at both (H200: 1 x 32K 1.668 ms unsplit,
  // 1.203 in 16 segments; dstate 64 at 1 x 64K 2.746, 1.546).
  EXPECT_EQ(segments({1, 32768, 80, 64, 128, 1}), 16);
  EXPECT_EQ(segments({1, 16384, 80, 64, 128, 1}), 16);
  EXPECT_EQ(segments({1, 65536, 80, 64, 64, 1}), 16);
  // The benchmark shapes at batch 8 fill the GPU already.
  EXPECT_EQ(segments({8, 4096, 80, 64, 128, 1}), 1);
  EXPECT_EQ(segments({8, 4096, 80, 64, 64, 1}), 1);
  EXPECT_EQ(segments({8, 4096, 64, 64, 128, 8}), 1);
  // No split at dstate 256, nor without a GPU to size it for.
  EXPECT_EQ(segments({2, 16384, 80, 64, 256, 1}), 1);
  EXPECT_EQ(segments({2, 16384, 80, 64, 128, 1}, 0), 1);
  // Only whole chunks per segment, in powers of two: 192 positions (3
  // chunks) stay whole, 256 (4 chunks) split in 4.
  EXPECT_EQ(segments({1, 192, 4, 64, 128, 1}), 1);
  EXPECT_EQ(segments({1, 256, 4, 64, 128, 1}), 4);
}

TEST(SsdKernelLibrary, ExplainsWhatIsMissing) {
  rt::KernelLibrary lib;
  rt::Status st = lib.open("/nonexistent/ssd-kernels");
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "cannot open the kernel library folder");

  auto dir = std::filesystem::temp_directory_path() / "tessera-ssd-empty";
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(lib.open(dir.string()).ok);
  const std::string *ptx = nullptr;
  const rt::KernelInfo *info = nullptr;
  st = lib.find("ssd_fused_bf16_q64_p64_n128", ptx, info);
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "is not in the kernel library");
  EXPECT_CONTAINS(ssd::buildCommand(kShape, layer(), ssd::ElementType::bf16),
                  "tessera print ssd-fused --dtype bf16 --dstate 128 "
                  "--headdim 64 --options D,bias,softplus");
  // With the flags the library is built with.
  EXPECT_CONTAINS(ssd::buildCommand(kShape, layer(), ssd::ElementType::bf16),
                  "tile-compile - --target sm_90a --merge-barriers --stages 2 "
                  "--num-warps 4 --scratch-lifetimes "
                  "--no-hoist-invariants --early-refill "
                  "--pair-truncations --fma --step-descriptors -o "
                  "ssd_fused_bf16_q64_p64_n128");
  ssd::Shape wide = kShape;
  wide.dstate = 256;
  EXPECT_CONTAINS(ssd::buildCommand(wide, layer(), ssd::ElementType::bf16),
                  "--num-warps 8 --wgmma-along-n --scratch-lifetimes "
                  "--no-hoist-invariants --early-refill "
                  "--pair-truncations --fma --step-descriptors "
                  "--loop-misaligned-copies -o "
                  "ssd_fused_bf16_q64_p64_n256_bias_softplus_D.ptx");
}

using SsdFakeDriverTest = unit::FakeDriverTest;

TEST_F(SsdFakeDriverTest, ForwardLaunchesTheFusedKernelOnce) {
  // dstate 256: headdim blocks of 64 (eight warps), so headdim 80 takes
  // two.
  const ssd::Shape s{3, 500, 6, 80, 256, 3};
  const ssd::Options o = layer();
  dsl::KernelModule module;
  ssd::buildFused(module, s, o, dsl::bf16);
  std::string error;
  auto compiled = lowering::compileToPtx(module.module(),
                                         lowering::CompileOptions{}, &error);
  ASSERT_TRUE(mlir::succeeded(compiled)) << error;
  auto dir = std::filesystem::temp_directory_path() / "tessera-ssd-lib";
  std::filesystem::remove_all(dir); // a stale kernel from an earlier run
  std::filesystem::create_directories(dir);
  const rt::KernelInfo &info = compiled->kernels.front();
  std::ofstream(dir / (info.name + ".ptx")) << compiled->ptx;
  std::ofstream(dir / (info.name + ".json")) << rt::toJson(info);
  rt::KernelLibrary lib;
  ASSERT_TRUE(lib.open(dir.string()).ok);
  EXPECT_EQ(lib.size(), 1u);
  EXPECT_EQ(info.name, "ssd_fused_bf16_q64_p64_n256_bias_softplus_D");

  ASSERT_TRUE(rt::Runtime::create(runtime).ok);
  rt::Status st =
      ssd::forward(*runtime, lib, s, o, ssd::ElementType::bf16, goodArgs(s, o));
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(get("launches"), 1);
  EXPECT_EQ(get("grid_x"), 2); // ceil(80 / 64)
  EXPECT_EQ(get("grid_y"), 6);
  EXPECT_EQ(get("grid_z"), 3);
  // x, dt, A, B, C, dt_bias, D, y as views (pointer, 2 rank values each)
  // and dt_min, dt_max, heads per group: every PTX parameter passed.
  EXPECT_EQ(size_t(paramCount()), rt::detail::abiParamSizes(info).size());

  // Bad arguments never reach the driver.
  ssd::DeviceArgs bad = goodArgs(s, o);
  bad.A.ptr = 0;
  st = ssd::forward(*runtime, lib, s, o, ssd::ElementType::bf16, bad);
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "ssd: A is required (null pointer)");
  EXPECT_EQ(get("launches"), 1);

  // A variant the library lacks: the error says how to build it.
  ssd::Options withZ = o;
  withZ.hasZ = true;
  st = ssd::forward(*runtime, lib, s, withZ, ssd::ElementType::bf16,
                    goodArgs(s, withZ));
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "is not in the kernel library");
  EXPECT_CONTAINS(st.message, "--options D,z,bias,softplus");
}

/// Compiles `module` into a fresh library folder `dirName` and opens it.
void compileInto(dsl::KernelModule &module, const std::string &dirName,
                 rt::KernelLibrary &lib, bool fresh = true) {
  std::string error;
  auto compiled = lowering::compileToPtx(module.module(),
                                         lowering::CompileOptions{}, &error);
  ASSERT_TRUE(mlir::succeeded(compiled)) << error;
  auto dir = std::filesystem::temp_directory_path() / dirName;
  if (fresh)
    std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string name = compiled->kernels.front().name;
  std::ofstream(dir / (name + ".ptx")) << compiled->ptx;
  {
    std::ofstream json(dir / (name + ".json"));
    for (const rt::KernelInfo &k : compiled->kernels)
      json << rt::toJson(k) << "\n";
  }
  ASSERT_TRUE(lib.open(dir.string()).ok);
}

TEST_F(SsdFakeDriverTest, SplitForwardLaunchesThreeKernels) {
  // 8 programs (batch 2 x 4 heads) for 132 x 2 slots: the library splits
  // seqlen 2048 (32 chunks) into 16 segments of 2 chunks.
  const ssd::Shape s{2, 2048, 4, 64, 128, 1};
  ssd::Options o = layer();
  o.returnFinalStates = true;
  dsl::KernelModule fused, split;
  ssd::buildFused(fused, s, o, dsl::bf16);
  ssd::buildSplit(split, s, o, dsl::bf16);
  rt::KernelLibrary lib;
  compileInto(fused, "tessera-ssd-split-lib", lib);
  ASSERT_EQ(lib.size(), 1u);
  ssd::DeviceArgs args = goodArgs(s, o);

  // Without the split kernels, one walk.
  EXPECT_EQ(
      ssd::automaticSegments(*runtime, lib, s, o, ssd::ElementType::bf16, args),
      1);
  rt::Status st = ssd::forward(*runtime, lib, s, o, ssd::ElementType::bf16,
                               args, /*segments=*/4);
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "cannot split the sequence into 4 segments");
  EXPECT_CONTAINS(st.message, "tessera print ssd-split");

  compileInto(split, "tessera-ssd-split-lib", lib, /*fresh=*/false);
  ASSERT_EQ(lib.size(), 4u);
  EXPECT_EQ(
      ssd::automaticSegments(*runtime, lib, s, o, ssd::ElementType::bf16, args),
      16);
  // The occupancy question was asked with the fused kernel's block.
  EXPECT_EQ(get("occupancy_block_size"), 128);

  // An explicit split needs its workspace.
  st = ssd::forward(*runtime, lib, s, o, ssd::ElementType::bf16, args, 4);
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "the workspace must have");
  // Automatic without one: the single kernel.
  const long long before = get("launches");
  ASSERT_TRUE(
      ssd::forward(*runtime, lib, s, o, ssd::ElementType::bf16, args).ok);
  EXPECT_EQ(get("launches"), before + 1);
  EXPECT_EQ(get("grid_z"), 2);

  // With final states every segment's own state is computed: 4 of them.
  const size_t bytes = ssd::workspaceBytes(s, o, ssd::ElementType::bf16, 4);
  const size_t state = size_t(2 * 4 * 64 * 128) * 4;
  EXPECT_EQ(bytes, 4 * state + 256 + 4 * state);
  args.workspace = ssd::DeviceTensor{0x9000000, {int64_t(bytes)}, {}};
  st = ssd::forward(*runtime, lib, s, o, ssd::ElementType::bf16, args, 4);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(get("launches"), before + 4);
  EXPECT_EQ(get("grid_x"), 1);
  EXPECT_EQ(get("grid_y"), 4);
  EXPECT_EQ(get("grid_z"), 2 * 4); // the segment scan: batch x segments
  EXPECT_EQ(get("param_count"), paramCount());

  // seqlen must split evenly; a misaligned workspace is rejected.
  st = ssd::forward(*runtime, lib, s, o, ssd::ElementType::bf16, args, 3);
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "not a multiple of the segments");
  // More segments than the grid's z takes: a clear error before any size
  // of their workspace is computed.
  st = ssd::forward(*runtime, lib, s, o, ssd::ElementType::bf16, args, 32768);
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message,
                  "batch x segments must be at most 65535 (grid z), got 2 x "
                  "32768");
  ssd::DeviceArgs bad = args;
  bad.workspace.ptr += 8;
  EXPECT_CONTAINS(ssd::validate(s, o, ssd::ElementType::bf16, bad),
                  "workspace is misaligned");
  bad = args;
  bad.workspace.ptr = ~rt::DevicePtr(0) - 4095;
  EXPECT_CONTAINS(ssd::validate(s, o, ssd::ElementType::bf16, bad),
                  "workspace spans more memory than 64-bit addressing");
  // x whose batch stride is not seqlen times its sequence stride (a batch
  // slice of a longer tensor) cannot be cut into rows of segments.
  bad = args;
  bad.x.strides = {2 * 2048 * 4 * 64, 4 * 64, 64, 1};
  st = ssd::forward(*runtime, lib, s, o, ssd::ElementType::bf16, bad, 4);
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "x's batch stride is not seqlen times");
  EXPECT_EQ(
      ssd::automaticSegments(*runtime, lib, s, o, ssd::ElementType::bf16, bad),
      1);
  EXPECT_EQ(get("launches"), before + 4);
}

} // namespace
