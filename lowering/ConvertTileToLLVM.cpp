//===- ConvertTileToLLVM.cpp - level-2 tile IR to LLVM/NVVM
//----------------===//

#include "lowering/LoweringPasses.h"
#include "lowering/LoweringUtils.h"
#include "lowering/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/BuiltinOps.h"

namespace tessera::lowering {
#define GEN_PASS_DEF_CONVERTTILETOLLVM
#include "lowering/Passes.h.inc"

using namespace mlir;

namespace {

bool hasTileTypes(Operation *op) {
  auto isTile = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTile) ||
         llvm::any_of(op->getResultTypes(), isTile);
}

struct ConvertTileToLLVMPass
    : impl::ConvertTileToLLVMBase<ConvertTileToLLVMPass> {
  using ConvertTileToLLVMBase::ConvertTileToLLVMBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    // Every tile must have a layout by now.
    WalkResult missing = module.walk([](Operation *op) {
      for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                             op->getResultTypes()))
        if (isa<RankedTensorType>(t) && !tile::getLayout(t)) {
          op->emitOpError("has a tile without a layout; run "
                          "tile-assign-layouts first");
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (missing.wasInterrupted())
      return signalPassFailure();

    // Loads of a view their kernel stores to stay where they are
    // (LoweringUtils.h). An asynchronous copy from such a view is refused:
    // tile-order-global-memory orders tile.load and tile.store only, and a
    // bulk copy reads through the async proxy, which its bar.sync would not
    // order anyway. tile-pipeline never makes one.
    WalkResult unordered = module.walk([](tile::KernelOp kernel) {
      llvm::SmallPtrSet<Value, 4> written;
      kernel.walk(
          [&](tile::StoreOp store) { written.insert(store.getView()); });
      kernel.walk([&](tile::LoadOp load) {
        if (written.contains(load.getView()))
          load->setAttr(kReadsWrittenViewAttr,
                        UnitAttr::get(load->getContext()));
      });
      WalkResult copies = kernel.walk([&](tile::AsyncLoadOp copy) {
        if (!written.contains(copy.getView()))
          return WalkResult::advance();
        copy.emitOpError("copies from a view its kernel stores to, and "
                         "nothing orders the copy with those stores (load "
                         "it with tile.load)");
        return WalkResult::interrupt();
      });
      return copies.wasInterrupted() ? WalkResult::interrupt()
                                     : WalkResult::advance();
    });
    if (unordered.wasInterrupted())
      return signalPassFailure();

    // The option bounds every kernel without a bound of its own; the
    // blocks must fit an SM's 64 warps.
    if (minBlocksPerSm > 32) {
      module.emitError("min-blocks-per-sm takes 1 to 32 blocks, got ")
          << unsigned(minBlocksPerSm);
      return signalPassFailure();
    }
    WalkResult crowded = module.walk([&](tile::KernelOp kernel) {
      const int64_t numWarps = tile::numWarpsOf(kernel);
      if (!kernel.getMinBlocksPerSm() && minBlocksPerSm)
        kernel.setMinBlocksPerSm(uint32_t(minBlocksPerSm));
      const int64_t blocks = kernel.getMinBlocksPerSm().value_or(0);
      if (blocks * numWarps <= 64)
        return WalkResult::advance();
      kernel.emitOpError("min_blocks_per_sm ")
          << blocks << " of " << numWarps
          << " warps each cannot share an SM, which holds at most 64 warps";
      return WalkResult::interrupt();
    });
    if (crowded.wasInterrupted())
      return signalPassFailure();

    module.walk([&](tile::KernelOp kernel) {
      assignSharedMemory(kernel, scratchLifetimes);
    });

    TileTypeConverter converter(ctx);
    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect>();
    target.addIllegalDialect<tile::TileDialect>();
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [](Operation *op) { return !hasTileTypes(op); });
    target.addLegalOp<ModuleOp, UnrealizedConversionCastOp>();

    RewritePatternSet patterns(ctx);
    populateKernelToLLVMPatterns(converter, patterns);
    populateMemoryToLLVMPatterns(converter, patterns);
    populateElementwiseToLLVMPatterns(converter, patterns, coordinateCompares);
    populateExchangeToLLVMPatterns(converter, patterns, swizzleExchanges);
    populateAsyncToLLVMPatterns(converter, patterns, storeMatrices,
                                stepDescriptors, loopMisalignedCopies);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tessera::lowering
