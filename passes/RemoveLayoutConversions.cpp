//===- RemoveLayoutConversions.cpp - drop conversions that move no data ----===//

#include "passes/Passes.h"

#include "dialect/LinearLayout.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tessera::tile {
#define GEN_PASS_DEF_TILEREMOVELAYOUTCONVERSIONS
#include "passes/Passes.h.inc"

using namespace mlir;

namespace {

/// convert(x) where both layouts put every element in the same register of
/// the same thread: users can take x directly when they accept any layout
/// of that shape (conversions, stores, reductions...), and a conversion
/// into the converted type of x's producer is dropped.
struct DropConvertOfConvert : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSource().getDefiningOp<ConvertLayoutOp>();
    if (!inner)
      return failure();
    if (inner.getSource().getType() == op.getType()) {
      rewriter.replaceOp(op, inner.getSource());
      return success();
    }
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(),
                                                 inner.getSource());
    return success();
  }
};

struct RemoveLayoutConversionsPass
    : impl::TileRemoveLayoutConversionsBase<RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DropConvertOfConvert>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace tessera::tile
