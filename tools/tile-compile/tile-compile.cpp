//===- tile-compile.cpp - tile IR to PTX files
//-----------------------------===//
//
//   tile-compile kernel.mlir [--target sm_90a|sm_80] [--num-warps N]
//                [--latency-hints] [--no-pipeline] [--stages S]
//                [-o out.ptx] [--info out.json]
//
// --no-pipeline leaves out tile-pipeline (sm_90a: TMA prefetch of the wgmma
// operands); --stages sets its depth where the loads carry no latency hint.
//
// --latency-hints runs tile-insert-latency-hints, the cost model that fills
// in load/store hints (off by default until pipelining makes them pay;
// hints written in the kernel always apply).
//
// Writes the PTX of every kernel in the module (stdout without -o) and,
// with --info, the kernels' parameter descriptions (runtime/KernelInfo.h),
// one JSON object per line.
//
//===----------------------------------------------------------------------===//

#include "lowering/Compile.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>

int main(int argc, char **argv) {
  std::string input, output, info;
  tessera::lowering::CompileOptions options;
  options.target = "sm_90a";
  // Flags that set one option each: the flag, the option, its value.
  const struct {
    const char *flag;
    bool tessera::lowering::CompileOptions::*option;
    bool value;
  } switches[] = {
      {"--latency-hints", &tessera::lowering::CompileOptions::latencyHints,
       true},
      {"--no-pipeline", &tessera::lowering::CompileOptions::pipeline, false},
      {"--no-swizzle", &tessera::lowering::CompileOptions::swizzleExchanges,
       false},
      {"--stmatrix", &tessera::lowering::CompileOptions::storeMatrices, true},
      {"--wgmma-along-n", &tessera::lowering::CompileOptions::warpgroupsAlongN,
       true},
      {"--no-wgmma-register-a",
       &tessera::lowering::CompileOptions::wgmmaRegisterA, false},
      {"--wgmma-tf32", &tessera::lowering::CompileOptions::wgmmaTf32, true},
      {"--scratch-lifetimes",
       &tessera::lowering::CompileOptions::scratchLifetimes, true},
      {"--no-hoist-invariants",
       &tessera::lowering::CompileOptions::hoistLoopInvariants, false},
      {"--defer-mma-waits", &tessera::lowering::CompileOptions::deferMmaWaits,
       true},
      {"--no-defer-mma-waits",
       &tessera::lowering::CompileOptions::deferMmaWaits, false},
      {"--early-refill", &tessera::lowering::CompileOptions::earlyRefill, true},
      {"--pair-truncations",
       &tessera::lowering::CompileOptions::pairTruncations, true},
      {"--fma", &tessera::lowering::CompileOptions::fuseMultiplyAdd, true},
      {"--step-descriptors",
       &tessera::lowering::CompileOptions::stepDescriptors, true}};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "tile-compile: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    auto on = std::find_if(std::begin(switches), std::end(switches),
                           [&](const auto &s) { return a == s.flag; });
    if (on != std::end(switches))
      options.*(on->option) = on->value;
    else if (a == "--target")
      options.target = value();
    else if (a == "--num-warps")
      options.numWarps = unsigned(std::atoi(value().c_str()));
    else if (a == "-o")
      output = value();
    else if (a == "--info")
      info = value();
    else if (a == "--stages")
      options.stages = unsigned(std::atoi(value().c_str()));
    else if (a == "--min-blocks-per-sm") {
      std::string v = value();
      char *end = nullptr;
      unsigned long n = std::strtoul(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 1 || n > 32) {
        std::cerr << "tile-compile: --min-blocks-per-sm takes a count from 1 "
                     "to 32, got '"
                  << v << "'\n";
        return 2;
      }
      options.minBlocksPerSm = unsigned(n);
    } else if (a == "--help" || a == "-h") {
      std::cout << "usage: tile-compile FILE.mlir [--target sm_90a|sm_80] "
                   "[--num-warps N] [--latency-hints] [--no-pipeline] "
                   "[--stages S] [--no-swizzle] [--stmatrix] "
                   "[--wgmma-along-n] [--no-wgmma-register-a] [--wgmma-tf32] "
                   "[--scratch-lifetimes] [--no-hoist-invariants] "
                   "[--no-defer-mma-waits] [--early-refill] "
                   "[--pair-truncations] [--fma] [--step-descriptors] "
                   "[--min-blocks-per-sm N] [-o out.ptx] [--info out.json]\n";
      return 0;
    } else if (input.empty() && (a == "-" || a[0] != '-'))
      input = a;
    else {
      std::cerr << "tile-compile: unexpected argument '" << a << "'\n";
      return 2;
    }
  }
  if (input.empty()) {
    std::cerr << "usage: tile-compile FILE.mlir [--target sm_90a|sm_80] "
                 "[--num-warps N] [-o out.ptx] [--info out.json]\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  tessera::lowering::registerLoweringDialects(registry);
  mlir::MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(input, sourceMgr, &context);
  if (!module)
    return 1;
  std::string error;
  auto compiled = tessera::lowering::compileToPtx(*module, options, &error);
  if (mlir::failed(compiled)) {
    std::cerr << "tile-compile: " << error << "\n";
    return 1;
  }
  if (output.empty()) {
    std::cout << compiled->ptx;
  } else {
    std::ofstream out(output);
    out << compiled->ptx;
    if (!out) {
      std::cerr << "tile-compile: cannot write " << output << "\n";
      return 1;
    }
  }
  if (!info.empty()) {
    std::ofstream out(info);
    for (const auto &k : compiled->kernels)
      out << tessera::rt::toJson(k) << "\n";
    if (!out) {
      std::cerr << "tile-compile: cannot write " << info << "\n";
      return 1;
    }
  }
  return 0;
}
