//===- FinalizeLLVM.cpp - the scalar ops left after tile lowering
//----------===//

#include "lowering/LoweringPasses.h"
#include "lowering/Patterns.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"

namespace tessera::lowering {
#define GEN_PASS_DEF_TILEFINALIZELLVM
#include "lowering/Passes.h.inc"

using namespace mlir;

namespace {

struct TileFinalizeLLVMPass : impl::TileFinalizeLLVMBase<TileFinalizeLLVMPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    TileTypeConverter converter(ctx);
    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addLegalOp<ModuleOp>();
    RewritePatternSet patterns(ctx);
    // ceildivsi / floordivsi have no direct LLVM form.
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    populateMathToNVVMPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tessera::lowering
