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

#include <cstdlib>
#include <fstream>
#include <iostream>

int main(int argc, char **argv) {
  std::string input, output, info;
  tessera::lowering::CompileOptions options;
  options.target = "sm_90a";
  const std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    std::string error;
    switch (tessera::lowering::applyCompileFlag(args, i, options, error)) {
    case tessera::lowering::FlagResult::Applied:
      continue;
    case tessera::lowering::FlagResult::Malformed:
      std::cerr << "tile-compile: " << error << "\n";
      return 2;
    case tessera::lowering::FlagResult::NotAFlag:
      break;
    }
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) {
        std::cerr << "tile-compile: " << a << " needs a value\n";
        std::exit(2);
      }
      return args[++i];
    };
    if (a == "-o")
      output = value();
    else if (a == "--info")
      info = value();
    else if (a == "--help" || a == "-h") {
      std::cout << "usage: tile-compile FILE.mlir [--target sm_90a|sm_80] "
                   "[--num-warps N] [--latency-hints] [--no-pipeline] "
                   "[--stages S] [--no-swizzle] [--stmatrix] "
                   "[--wgmma-along-n] [--no-wgmma-register-a] [--wgmma-tf32] "
                   "[--scratch-lifetimes] [--no-hoist-invariants] "
                   "[--no-defer-mma-waits] [--early-refill] "
                   "[--no-register-prefetch] [--register-prefetch-budget N] "
                   "[--late-loads-in-iteration] "
                   "[--no-hoist-invariant-loads] "
                   "[--pair-truncations] [--fma] [--step-descriptors] "
                   "[--loop-misaligned-copies] [--no-coordinate-compares] "
                   "[--merge-barriers] "
                   "[--min-blocks-per-sm N] "
                   "[-o out.ptx] [--info out.json]\n";
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
