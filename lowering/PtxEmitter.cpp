//===- PtxEmitter.cpp - LLVM/NVVM dialect to PTX through NVPTX
//-------------===//

#include "lowering/Compile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace mlir;

namespace tessera::lowering {

static void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

FailureOr<std::string> emitPtx(ModuleOp module, const std::string &chip,
                               std::string *error, bool hoistLoopInvariants,
                               bool fuseMultiplyAdd) {
  initializeNVPTX();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);

  llvm::LLVMContext llvmContext;
  std::string diagnostics;
  std::unique_ptr<llvm::Module> llvmModule;
  {
    ScopedDiagnosticHandler handler(module->getContext(), [&](Diagnostic &d) {
      llvm::raw_string_ostream os(diagnostics);
      os << d.getLocation() << ": " << d.str() << "\n";
      return success();
    });
    llvmModule = translateModuleToLLVMIR(module, llvmContext, "tessera");
  }
  if (!llvmModule) {
    if (error)
      *error =
          "translation of the LLVM dialect to LLVM IR failed:\n" + diagnostics;
    return failure();
  }

  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!target) {
    if (error)
      *error = "NVPTX target not available: " + lookupError;
    return failure();
  }
  // PTX ISA 8.0: the oldest that has sm_90a, and what CUDA 12+ drivers JIT.
  llvm::TargetOptions targetOptions;
  // Standard fuses only llvm.fmuladd and operations marked `contract`,
  // which the lowering never emits.
  targetOptions.AllowFPOpFusion =
      fuseMultiplyAdd ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, chip, "+ptx80", targetOptions, std::nullopt, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!machine) {
    if (error)
      *error = "cannot create an NVPTX target machine for " + chip;
    return failure();
  }
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());

  // The O3 pipeline cleans up the per-register code (CSE of coordinates,
  // constant folding of layouts) before instruction selection.
  {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    // The instrumentation maps pass classes to their pipeline names.
    llvm::PassInstrumentationCallbacks instrumentation;
    llvm::PassBuilder pb(machine.get(), llvm::PipelineTuningOptions(),
                         std::nullopt, &instrumentation);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm =
        pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    if (!hoistLoopInvariants) {
      // The same pipeline with every LICM replaced by a no-op: LICM hoists
      // whatever it can, blind to registers, and in a loop body that fills
      // them (the fused SSD walk) the hoisted addresses are what spills.
      std::string text;
      llvm::raw_string_ostream os(text);
      mpm.printPipeline(os, [&](StringRef name) {
        return instrumentation.getPassNameForClassName(name);
      });
      static const llvm::Regex licm("licm<[^>]*>");
      std::string replaced = text, regexError;
      while (licm.match(replaced))
        replaced = licm.sub("no-op-loop", replaced, &regexError);
      // A LICM printed in another form would stay in silently.
      if (StringRef(replaced).contains("licm")) {
        if (error)
          *error = "cannot take LICM out of the pipeline: " + replaced;
        return failure();
      }
      llvm::ModulePassManager withoutLicm;
      if (llvm::Error e = pb.parsePassPipeline(withoutLicm, replaced)) {
        if (error)
          *error = "cannot build the pipeline without LICM: " +
                   llvm::toString(std::move(e));
        return failure();
      }
      mpm = std::move(withoutLicm);
    }
    mpm.run(*llvmModule, mam);
  }

  std::string ptx;
  {
    llvm::raw_string_ostream os(ptx);
    llvm::buffer_ostream bos(os);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, bos, nullptr,
                                     llvm::CodeGenFileType::AssemblyFile)) {
      if (error)
        *error = "NVPTX cannot emit assembly";
      return failure();
    }
    codegen.run(*llvmModule);
  }
  return ptx;
}

} // namespace tessera::lowering
