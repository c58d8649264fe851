//===- MemoryToLLVM.cpp - tile.load / tile.store to predicated PTX ---------===//
//
// Each thread loads or stores the elements its registers hold: the address
// is base + sum_d (index_d * tile_d + coord_d) * stride_d, and the access is
// predicated on every coordinate being inside the view (unsigned compare, so
// negative tile indices are out of bounds too). Loads read the padding
// value where the predicate is false; of several threads holding copies of
// an element only the owner stores it.
//
//===----------------------------------------------------------------------===//

#include "lowering/Patterns.h"

using namespace mlir;

namespace tessera::lowering {
namespace {

struct ViewFields {
  Value base;
  SmallVector<Value> sizes, strides;
};

ViewFields unpackView(OpBuilder &b, Location loc, Value view, int64_t rank) {
  ViewFields f;
  f.base = extract(b, loc, view, 0);
  for (int64_t d = 0; d < rank; ++d) {
    f.sizes.push_back(extract(b, loc, view, 1 + d));
    f.strides.push_back(extract(b, loc, view, 1 + rank + d));
  }
  return f;
}

/// The address of register `reg` and whether it lies inside the view.
std::pair<Value, Value> elementAddress(OpBuilder &b, Location loc,
                                       const ViewFields &view,
                                       ValueRange indices,
                                       const tile::LinearLayout &layout,
                                       Type memType, int64_t reg, Value lane,
                                       Value warp) {
  SmallVector<Value> coords = registerCoords(b, loc, layout, reg, lane, warp);
  Value inBounds;
  Value offset = i64Const(b, loc, 0);
  for (int64_t d = 0; d < layout.rank(); ++d) {
    Value start = LLVM::MulOp::create(b, loc, indices[d],
                                      i64Const(b, loc, layout.shape()[d]));
    Value g = LLVM::AddOp::create(b, loc, start, coords[d]);
    Value inside = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, g,
                                        view.sizes[d]);
    inBounds = inBounds ? Value(LLVM::AndOp::create(b, loc, inBounds, inside))
                        : inside;
    offset = LLVM::AddOp::create(
        b, loc, offset, LLVM::MulOp::create(b, loc, g, view.strides[d]));
  }
  Value ptr = LLVM::GEPOp::create(b, loc, view.base.getType(), memType,
                                  view.base, ValueRange{offset});
  return {ptr, inBounds};
}

/// Views of i1 hold one byte per element.
Type memoryType(OpBuilder &b, Type elementType) {
  return elementType.isInteger(1) ? b.getI8Type() : elementType;
}

struct LoadOpLowering : OpConversionPattern<tile::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    if (!tile::getLayout(type))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    tile::LinearLayout layout = layoutOf(type);
    Type element = TileTypeConverter::registerElementType(type.getElementType());
    ViewFields view = unpackView(rewriter, loc, adaptor.getView(),
                                 op.getView().getType().getRank());
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    double padding = op.getPadding() ? op.getPadding()->convertToDouble() : 0.0;
    Value other = scalarConst(rewriter, loc, element, padding);
    SmallVector<Value> values;
    for (int64_t r = 0; r < layout.numRegisters(); ++r) {
      auto [ptr, inBounds] = elementAddress(
          rewriter, loc, view, adaptor.getIndices(), layout,
          memoryType(rewriter, element), r, lane, warp);
      values.push_back(
          predicatedLoad(rewriter, loc, element, ptr, inBounds, other));
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc,
                                      getTypeConverter()->convertType(type),
                                      values));
    return success();
  }
};

struct StoreOpLowering : OpConversionPattern<tile::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getValue().getType();
    if (!tile::getLayout(type))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    tile::LinearLayout layout = layoutOf(type);
    Type element = TileTypeConverter::registerElementType(type.getElementType());
    ViewFields view = unpackView(rewriter, loc, adaptor.getView(),
                                 op.getView().getType().getRank());
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    Value owner = isOwner(rewriter, loc, layout, lane, warp);
    for (int64_t r = 0; r < layout.numRegisters(); ++r) {
      if (layout.isDuplicateRegister(r))
        continue;
      auto [ptr, inBounds] = elementAddress(
          rewriter, loc, view, adaptor.getIndices(), layout,
          memoryType(rewriter, element), r, lane, warp);
      Value pred = LLVM::AndOp::create(rewriter, loc, inBounds, owner);
      predicatedStore(rewriter, loc, ptr,
                      extract(rewriter, loc, adaptor.getValue(), r), pred);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateMemoryToLLVMPatterns(TileTypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns.add<LoadOpLowering, StoreOpLowering>(converter,
                                                patterns.getContext());
}

} // namespace tessera::lowering
