//===- RemoveLayoutConversions.cpp - drop conversions that move no data
//----===//

#include "passes/Passes.h"

#include "dialect/LinearLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tessera::tile {
#define GEN_PASS_DEF_TILEREMOVELAYOUTCONVERSIONS
#include "passes/Passes.h.inc"

using namespace mlir;

namespace {

bool isWgmmaAccumulator(Type type) {
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(
      cast<RankedTensorType>(type).getEncoding());
  return mma && mma.getVersion() == 3;
}

/// convert(load) -> a load straight into the converted layout: the load
/// lowering handles any layout, and the shared-memory exchange goes away.
/// Not into mma operand fragments: their 4-byte pieces scattered over rows
/// load slower than coalesced 16-byte vectors through shared memory
/// (measured on the H200, bf16 GEMM 8192^3: 17.5 TFLOP/s loading straight
/// into fragments, 44.1 through shared memory).
struct LoadIntoLayout : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto load = op.getSource().getDefiningOp<LoadOp>();
    if (!load || !load->hasOneUse() ||
        isa<DotOperandLayoutAttr>(op.getType().getEncoding()))
      return failure();
    auto newLoad = LoadOp::create(rewriter, load.getLoc(), op.getType(),
                                  load.getView(), load.getIndices(),
                                  load.getPaddingAttr(), load.getLatencyAttr(),
                                  load.getCacheAttr(), load.getAllowTmaAttr());
    rewriter.replaceOp(op, newLoad.getResult());
    rewriter.eraseOp(load);
    return success();
  }
};

/// store(convert(x)) -> store(x) for wgmma accumulators: the store
/// lowering writes any layout, and exchanging a 128 x 256 f32 accumulator
/// through shared memory would need 128 KB next to the operand rings.
struct StoreFromAccumulator : OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op,
                                PatternRewriter &rewriter) const override {
    auto convert = op.getValue().getDefiningOp<ConvertLayoutOp>();
    if (!convert || !isWgmmaAccumulator(convert.getSource().getType()))
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getValueMutable().assign(convert.getSource()); });
    return success();
  }
};

/// cast(convert(x)) -> convert(cast(x)) for wgmma accumulators, so the
/// conversion reaches the store (StoreFromAccumulator) and the cast runs
/// on the registers the accumulator is already in.
template <typename CastOp> struct CastBeforeConvert : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto convert = op.getIn().template getDefiningOp<ConvertLayoutOp>();
    if (!convert || !isWgmmaAccumulator(convert.getSource().getType()))
      return failure();
    auto source = cast<RankedTensorType>(convert.getSource().getType());
    auto result = cast<RankedTensorType>(op.getType());
    auto castType = RankedTensorType::get(
        result.getShape(), result.getElementType(), source.getEncoding());
    Value c =
        CastOp::create(rewriter, op.getLoc(), castType, convert.getSource());
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, result, c);
    return success();
  }
};

/// A loop-carried tile converted to layout L at the top of each iteration
/// and converted back from L before the yield is carried in L instead:
/// one conversion before the loop and one after, none inside.
struct CarryInLayout : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (!arg.hasOneUse())
        continue;
      auto toL = dyn_cast<ConvertLayoutOp>(*arg.getUsers().begin());
      auto fromL = yield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
      if (!toL || !fromL || fromL.getSource().getType() != toL.getType() ||
          !fromL->hasOneUse())
        continue;
      Type original = arg.getType(), carried = toL.getType();
      // Before the loop: the init in L; inside: L throughout; after: back.
      rewriter.setInsertionPoint(loop);
      Value init = ConvertLayoutOp::create(rewriter, loop.getLoc(), carried,
                                           loop.getInitArgs()[i]);
      rewriter.modifyOpInPlace(loop, [&] {
        loop.getInitArgsMutable()[i].assign(init);
        arg.setType(carried);
        loop.getResult(i).setType(carried);
        yield.setOperand(i, fromL.getSource());
      });
      rewriter.replaceOp(toL, arg);
      rewriter.eraseOp(fromL);
      rewriter.setInsertionPointAfter(loop);
      auto back = ConvertLayoutOp::create(rewriter, loop.getLoc(), original,
                                          loop.getResult(i));
      rewriter.replaceAllUsesExcept(loop.getResult(i), back.getResult(), back);
      return success();
    }
    return failure();
  }
};

struct RemoveLayoutConversionsPass
    : impl::TileRemoveLayoutConversionsBase<RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LoadIntoLayout, CarryInLayout, StoreFromAccumulator,
                 CastBeforeConvert<arith::TruncFOp>,
                 CastBeforeConvert<arith::ExtFOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace tessera::tile
