//===- CompileFlags.cpp - tile-compile's option flags -----------------===//
//
// One parser for the flags that set CompileOptions, shared by tile-compile
// and by whatever compiles a kernel the way a kernel library does (the GPU
// cases take ssd::compileFlags and conv::compileFlags strings as they are).
//
//===----------------------------------------------------------------------===//

#include "lowering/Compile.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdlib>
#include <optional>

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
    {"--pair-truncations", &CompileOptions::pairTruncations, true},
    {"--fma", &CompileOptions::fuseMultiplyAdd, true},
    {"--step-descriptors", &CompileOptions::stepDescriptors, true}};

/// A count in [lo, hi], or none.
std::optional<unsigned> count(const std::string &text, unsigned long lo,
                              unsigned long hi) {
  char *end = nullptr;
  unsigned long n = std::strtoul(text.c_str(), &end, 10);
  if (text.empty() || *end || n < lo || n > hi)
    return std::nullopt;
  return unsigned(n);
}
} // namespace

FlagResult applyCompileFlag(llvm::ArrayRef<std::string> args, size_t &i,
                            CompileOptions &options, std::string &error) {
  const std::string &flag = args[i];
  for (const Switch &s : kSwitches)
    if (flag == s.flag) {
      options.*(s.option) = s.value;
      return FlagResult::Applied;
    }
  // Flags with a value: the bounds they take.
  struct Valued {
    const char *flag;
    unsigned long lo, hi;
  };
  static const Valued kValued[] = {{"--target", 0, 0},
                                   {"--num-warps", 1, 32},
                                   {"--stages", 1, 16},
                                   {"--min-blocks-per-sm", 1, 32}};
  const Valued *valued = nullptr;
  for (const Valued &v : kValued)
    if (flag == v.flag)
      valued = &v;
  if (!valued)
    return FlagResult::NotAFlag;
  if (i + 1 >= args.size()) {
    error = flag + " needs a value";
    return FlagResult::Malformed;
  }
  const std::string &value = args[++i];
  if (flag == "--target") {
    options.target = value;
    return FlagResult::Applied;
  }
  std::optional<unsigned> n = count(value, valued->lo, valued->hi);
  if (!n) {
    error = flag + " takes a count from " + std::to_string(valued->lo) +
            " to " + std::to_string(valued->hi) + ", got '" + value + "'";
    return FlagResult::Malformed;
  }
  if (flag == "--num-warps")
    options.numWarps = *n;
  else if (flag == "--stages")
    options.stages = *n;
  else
    options.minBlocksPerSm = *n;
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
