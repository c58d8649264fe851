//===- Compile.cpp - the tile -> PTX pipeline
//------------------------------===//

#include "lowering/Compile.h"

#include "dialect/TileOps.h"
#include "lowering/LoweringPasses.h"
#include "lowering/LoweringUtils.h"
#include "passes/Passes.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace tessera::lowering {

void registerLoweringDialects(DialectRegistry &registry) {
  tile::registerTileKernelDialects(registry);
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect, cf::ControlFlowDialect,
                  index::IndexDialect, ub::UBDialect>();
}

void buildLoweringPipeline(OpPassManager &pm, const CompileOptions &options) {
  tile::TileAssignLayoutsOptions layouts;
  layouts.numWarps = options.numWarps;
  if (options.latencyHints)
    pm.addPass(tile::createTileInsertLatencyHints());
  pm.addPass(tile::createTileAssignLayouts(layouts));
  tile::TileAccelerateMmaOptions mma;
  mma.target = options.target;
  mma.warpgroupsAlongN = options.warpgroupsAlongN;
  mma.wgmmaTf32 = options.wgmmaTf32;
  pm.addPass(tile::createTileAccelerateMma(mma));
  pm.addPass(createCanonicalizerPass());
  tile::TileRemoveLayoutConversionsOptions conversions;
  conversions.wgmmaRegisterA = options.wgmmaRegisterA;
  pm.addPass(tile::createTileRemoveLayoutConversions(conversions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // With the layouts final (an in-place update of a tile each thread owns
  // needs no barrier) and before tile-pipeline moves loads.
  pm.addPass(tile::createTileOrderGlobalMemory());
  if (options.pipeline) {
    tile::TilePipelineOptions pipeline;
    pipeline.stages = options.stages;
    pipeline.earlyRefill = options.earlyRefill;
    pipeline.registerPrefetch = options.registerPrefetch;
    pipeline.registerPrefetchBudget = options.registerPrefetchBudget;
    pipeline.lateLoadsInIteration = options.lateLoadsInIteration;
    pipeline.hoistInvariantLoads = options.hoistInvariantLoads;
    pipeline.target = options.target;
    // sm_80 parts have at most 163 KB of shared memory per CTA (A100).
    if (options.target == "sm_80")
      pipeline.sharedBytes = 166912;
    pm.addPass(tile::createTilePipeline(pipeline));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  if (options.deferMmaWaits)
    pm.addPass(tile::createTileDeferMmaWaits());
  ConvertTileToLLVMOptions lowering;
  lowering.swizzleExchanges = options.swizzleExchanges;
  lowering.storeMatrices = options.storeMatrices;
  lowering.scratchLifetimes = options.scratchLifetimes;
  lowering.minBlocksPerSm = options.minBlocksPerSm;
  lowering.stepDescriptors = options.stepDescriptors;
  lowering.loopMisalignedCopies = options.loopMisalignedCopies;
  lowering.coordinateCompares = options.coordinateCompares;
  pm.addPass(createConvertTileToLLVM(lowering));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createTileFinalizeLLVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.pairTruncations)
    pm.addPass(createTilePairTruncations());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.mergeBarriers)
    pm.addPass(createTileMergeBarriers());
}

static std::optional<rt::ScalarType> scalarTypeOf(Type t) {
  if (t.isF16())
    return rt::ScalarType::f16;
  if (t.isBF16())
    return rt::ScalarType::bf16;
  if (t.isF32())
    return rt::ScalarType::f32;
  if (t.isF64())
    return rt::ScalarType::f64;
  if (t.isIndex())
    return rt::ScalarType::index;
  if (t.isInteger(1))
    return rt::ScalarType::i1;
  if (t.isInteger(8))
    return rt::ScalarType::i8;
  if (t.isInteger(16))
    return rt::ScalarType::i16;
  if (t.isInteger(32))
    return rt::ScalarType::i32;
  if (t.isInteger(64))
    return rt::ScalarType::i64;
  return std::nullopt;
}

FailureOr<CompiledModule> compileToPtx(ModuleOp module,
                                       const CompileOptions &options,
                                       std::string *error) {
  if (options.target != "sm_90a" && options.target != "sm_80") {
    if (error)
      *error = "unsupported target '" + options.target +
               "' (expected sm_90a or sm_80)";
    return failure();
  }
  MLIRContext *ctx = module.getContext();
  DialectRegistry registry;
  registerLoweringDialects(registry);
  ctx->appendDialectRegistry(registry);
  ctx->loadAllAvailableDialects();

  CompiledModule out;
  // The kernels' parameter descriptions come from the tile signatures.
  for (auto kernel : module.getOps<tile::KernelOp>()) {
    rt::KernelInfo info;
    info.name = kernel.getSymName().str();
    info.target = options.target;
    info.numWarps = kernel.getNumWarps().value_or(options.numWarps);
    for (auto [i, t] : llvm::enumerate(kernel.getFunctionType().getInputs())) {
      rt::ArgInfo arg;
      arg.name = "arg" + std::to_string(i);
      if (auto view = dyn_cast<tile::ViewType>(t)) {
        arg.kind = rt::ArgInfo::Kind::View;
        arg.rank = view.getRank();
        arg.type = *scalarTypeOf(view.getElementType());
        arg.align = rt::scalarTypeSize(arg.type);
        // The runtime refuses a launch where a view the kernel writes
        // overlaps another argument (the compiler reorders and prefetches
        // loads assuming distinct views do not alias).
        arg.written =
            tile::storesTo(kernel, kernel.getBody().front().getArgument(i));
      } else {
        arg.kind = rt::ArgInfo::Kind::Scalar;
        arg.type = *scalarTypeOf(t);
      }
      info.args.push_back(arg);
    }
    out.kernels.push_back(info);
  }

  OwningOpRef<ModuleOp> lowered(cast<ModuleOp>(module->clone()));
  // The lowering picks target-specific instructions (mbarrier waits, copies).
  (*lowered)->setAttr(kTargetAttrName, StringAttr::get(ctx, options.target));
  std::string diagnostics;
  {
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      llvm::raw_string_ostream os(diagnostics);
      os << diag.getLocation() << ": " << diag.str() << "\n";
      return success();
    });
    PassManager pm(ctx);
    buildLoweringPipeline(pm, options);
    if (failed(pm.run(*lowered))) {
      if (error)
        *error = "lowering failed:\n" + diagnostics;
      return failure();
    }
  }
  for (rt::KernelInfo &info : out.kernels) {
    auto fn = lowered->lookupSymbol<LLVM::LLVMFuncOp>(info.name);
    if (!fn)
      continue;
    if (auto bytes = fn->getAttrOfType<IntegerAttr>("tile.shared_bytes"))
      info.sharedBytes = int(bytes.getInt());
    // The most dynamic shared memory a block may have: H100/H200 (sm_90a)
    // and A100 (sm_80). A kernel over it would only fail at launch.
    const int limit = options.target == "sm_80" ? 166912 : 232448;
    if (info.sharedBytes > limit) {
      if (error)
        *error = "kernel '" + info.name + "' needs " +
                 std::to_string(info.sharedBytes) +
                 " bytes of shared memory; " + options.target + " allows " +
                 std::to_string(limit) + " a block";
      return failure();
    }
    if (auto maps = fn->getAttrOfType<ArrayAttr>(kTmaAttrName))
      for (Attribute map : maps) {
        ArrayRef<int64_t> e = cast<DenseI64ArrayAttr>(map).asArrayRef();
        info.tma.push_back({int(e[0]), {e[1], e[2]}, int(e[3])});
      }
  }
  FailureOr<std::string> ptx =
      emitPtx(*lowered, options.target, error, options.hoistLoopInvariants,
              options.fuseMultiplyAdd);
  if (failed(ptx))
    return failure();
  out.ptx = *ptx;
  return out;
}

} // namespace tessera::lowering
