//===- KernelToLLVM.cpp - tile.kernel and the grid to LLVM/NVVM
//------------===//

#include "lowering/Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace tessera::lowering {
namespace {

/// tile.kernel -> llvm.func with the flat parameter ABI of
/// runtime/KernelInfo.h (a view is ptr, sizes..., strides...) and the
/// nvvm.kernel attribute; the body sees each view as one struct.
struct KernelOpLowering : OpConversionPattern<tile::KernelOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::KernelOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    const int64_t numWarps = tile::numWarpsOf(op);

    Type i64 = rewriter.getI64Type();
    Type gptr = LLVM::LLVMPointerType::get(ctx, kGlobalSpace);
    SmallVector<Type> params;
    for (Type t : op.getFunctionType().getInputs()) {
      if (auto view = dyn_cast<tile::ViewType>(t)) {
        params.push_back(gptr);
        params.append(2 * view.getRank(), i64);
      } else {
        params.push_back(getTypeConverter()->convertType(t));
      }
    }
    // Tensor maps of the TMA copies, after the regular parameters.
    auto maps = op->getAttrOfType<ArrayAttr>(kTmaAttrName);
    if (maps)
      params.append(maps.size(), i64);
    auto fnType =
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), params);
    auto fn = LLVM::LLVMFuncOp::create(rewriter, loc, op.getSymName(), fnType);
    fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                rewriter.getUnitAttr());
    fn->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                rewriter.getDenseI32ArrayAttr({int32_t(numWarps * 32), 1, 1}));
    // The body's ops are lowered after it moved here: they find the
    // kernel's warps on the function (tile::numWarpsOf).
    fn->setAttr(tile::kNumWarpsAttrName,
                rewriter.getI32IntegerAttr(int32_t(numWarps)));
    // Checked against the warps by the pass, which also gives kernels
    // without a bound the pass option's.
    if (std::optional<uint32_t> blocks = op.getMinBlocksPerSm())
      fn->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  rewriter.getI32IntegerAttr(int32_t(*blocks)));
    if (auto bytes = op->getAttrOfType<IntegerAttr>("tile.shared_bytes"))
      fn->setAttr("tile.shared_bytes", bytes);
    if (maps)
      fn->setAttr(kTmaAttrName, maps);

    Block *entry = fn.addEntryBlock(rewriter);
    rewriter.setInsertionPointToStart(entry);
    SmallVector<Value> replacements;
    unsigned next = 0;
    for (Type t : op.getFunctionType().getInputs()) {
      if (auto view = dyn_cast<tile::ViewType>(t)) {
        SmallVector<Value> fields;
        for (int64_t i = 0; i < 1 + 2 * view.getRank(); ++i)
          fields.push_back(entry->getArgument(next++));
        Type structType = getTypeConverter()->convertType(t);
        Value s = packStruct(rewriter, loc, structType, fields);
        replacements.push_back(
            UnrealizedConversionCastOp::create(rewriter, loc, t, s)
                .getResult(0));
      } else {
        Value arg = entry->getArgument(next++);
        replacements.push_back(
            arg.getType() == t
                ? arg
                : UnrealizedConversionCastOp::create(rewriter, loc, t, arg)
                      .getResult(0));
      }
    }
    rewriter.inlineBlockBefore(&op.getBody().front(), entry, entry->end(),
                               replacements);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReturnOpLowering : OpConversionPattern<tile::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ReturnOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange{});
    return success();
  }
};

template <typename OpT, typename X, typename Y, typename Z>
struct GridQueryLowering : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value v;
    switch (op.getDim()) {
    case tile::GridDim::x:
      v = X::create(rewriter, loc, i32);
      break;
    case tile::GridDim::y:
      v = Y::create(rewriter, loc, i32);
      break;
    case tile::GridDim::z:
      v = Z::create(rewriter, loc, i32);
      break;
    }
    rewriter.replaceOpWithNewOp<LLVM::ZExtOp>(op, rewriter.getI64Type(), v);
    return success();
  }
};

struct DimOpLowering : OpConversionPattern<tile::DimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::DimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, extract(rewriter, op.getLoc(), adaptor.getView(),
                                   1 + int64_t(op.getAxis())));
    return success();
  }
};

} // namespace

void populateKernelToLLVMPatterns(TileTypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns.add<KernelOpLowering, ReturnOpLowering, DimOpLowering,
               GridQueryLowering<tile::ProgramIdOp, NVVM::BlockIdXOp,
                                 NVVM::BlockIdYOp, NVVM::BlockIdZOp>,
               GridQueryLowering<tile::NumProgramsOp, NVVM::GridDimXOp,
                                 NVVM::GridDimYOp, NVVM::GridDimZOp>>(
      converter, patterns.getContext());
}

} // namespace tessera::lowering
