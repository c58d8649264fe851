//===- CompileFlags.cpp - tile-compile's option flags ---------------------===//
//
// One parser for the flags that set CompileOptions, shared by tile-compile
// and by whatever compiles a kernel the way a kernel library does (the GPU
// cases take ssd::compileFlags and conv::compileFlags strings as they are).
//
//===----------------------------------------------------------------------===//

#include "lowering/Compile.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <cassert>
#include <vector>

namespace tessera::lowering {

namespace {
/// Flags that set one option each: the flag, the option, its value.
struct Switch {
  const char *flag;
  bool CompileOptions::*option;
  bool value;
};
constexpr Switch kSwitches[] = {
    {"--latency-hints", &CompileOptions::latencyHints, true},
    {"--no-pipeline", &CompileOptions::pipeline, false},
    {"--no-swizzle", &CompileOptions::swizzleExchanges, false},
    {"--stmatrix", &CompileOptions::storeMatrices, true},
    {"--wgmma-along-n", &CompileOptions::warpgroupsAlongN, true},
    {"--no-wgmma-register-a", &CompileOptions::wgmmaRegisterA, false},
    {"--wgmma-tf32", &CompileOptions::wgmmaTf32, true},
    {"--scratch-lifetimes", &CompileOptions::scratchLifetimes, true},
    {"--no-hoist-invariants", &CompileOptions::hoistLoopInvariants, false},
    {"--defer-mma-waits", &CompileOptions::deferMmaWaits, true},
    {"--no-defer-mma-waits", &CompileOptions::deferMmaWaits, false},
    {"--early-refill", &CompileOptions::earlyRefill, true},
    {"--no-register-prefetch", &CompileOptions::registerPrefetch, false},
    {"--late-loads-in-iteration", &CompileOptions::lateLoadsInIteration, true},
    {"--no-hoist-invariant-loads", &CompileOptions::hoistInvariantLoads, false},
    {"--pair-truncations", &CompileOptions::pairTruncations, true},
    {"--fma", &CompileOptions::fuseMultiplyAdd, true},
    {"--step-descriptors", &CompileOptions::stepDescriptors, true},
    {"--loop-misaligned-copies", &CompileOptions::loopMisalignedCopies, true},
    {"--no-coordinate-compares", &CompileOptions::coordinateCompares, false},
    {"--merge-barriers", &CompileOptions::mergeBarriers, true}};

/// Flags that take a count: the flag, the option, the counts allowed.
/// tile-pipeline keeps 2 to 6 stages (its max-stages), so other stage
/// counts are refused rather than clamped.
struct Counted {
  const char *flag;
  unsigned CompileOptions::*option;
  unsigned lo, hi;
};
constexpr Counted kCounted[] = {
    {"--num-warps", &CompileOptions::numWarps, 1, 32},
    {"--stages", &CompileOptions::stages, 2, 6},
    {"--min-blocks-per-sm", &CompileOptions::minBlocksPerSm, 1, 32},
    {"--register-prefetch-budget", &CompileOptions::registerPrefetchBudget, 1,
     255}};
} // namespace

FlagResult applyCompileFlag(llvm::ArrayRef<std::string> args, size_t &i,
                            CompileOptions &options, std::string &error) {
  assert(i < args.size() && "no flag at i");
  const std::string &flag = args[i];
  for (const Switch &s : kSwitches)
    if (flag == s.flag) {
      options.*(s.option) = s.value;
      return FlagResult::Applied;
    }
  const Counted *counted = nullptr;
  for (const Counted &c : kCounted)
    if (flag == c.flag)
      counted = &c;
  if (!counted && flag != "--target")
    return FlagResult::NotAFlag;
  if (i + 1 >= args.size()) {
    error = flag + " needs a value";
    return FlagResult::Malformed;
  }
  const std::string &value = args[++i];
  if (!counted) {
    options.target = value;
    return FlagResult::Applied;
  }
  unsigned n = 0;
  if (!llvm::to_integer(value, n, 10) || n < counted->lo || n > counted->hi) {
    error = flag + " takes a count from " + std::to_string(counted->lo) +
            " to " + std::to_string(counted->hi) + ", got '" + value + "'";
    return FlagResult::Malformed;
  }
  options.*(counted->option) = n;
  return FlagResult::Applied;
}

std::string applyCompileFlags(llvm::StringRef flags, CompileOptions &options) {
  llvm::SmallVector<llvm::StringRef> words;
  llvm::SplitString(flags, words);
  std::vector<std::string> args(words.begin(), words.end());
  for (size_t i = 0; i < args.size(); ++i) {
    std::string error;
    switch (applyCompileFlag(args, i, options, error)) {
    case FlagResult::Applied:
      break;
    case FlagResult::NotAFlag:
      return "unknown compile flag '" + args[i] + "'";
    case FlagResult::Malformed:
      return error;
    }
  }
  return "";
}

} // namespace tessera::lowering
