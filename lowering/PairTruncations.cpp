//===- PairTruncations.cpp - two f32 -> 16-bit truncations as one ---------===//
//
// Tiles of bf16 or f16 live in registers as packed pairs: the lowering
// truncates each f32 on its own and packs the two halves with zext, shl
// and or. PTX then converts one value at a time (cvt.rn.bf16.f32, an F2F
// on the conversion pipe, plus a PRMT to pack), where sm_80 and later
// convert and pack both in one cvt.rn.bf16x2.f32 (F2FP). This pass
// rewrites
//   or(zext(bitcast(fptrunc a)), shl(zext(bitcast(fptrunc b)), 16))
// into bitcast(fptrunc <a, b> : vector<2xf32>) : i32, which the NVPTX
// backend selects as the paired conversion.
//
//===----------------------------------------------------------------------===//

#include "lowering/LoweringPasses.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tessera::lowering {
#define GEN_PASS_DEF_TILEPAIRTRUNCATIONS
#include "lowering/Passes.h.inc"

using namespace mlir;

namespace {

/// The truncation fptrunc x : f32 to bf16|f16 that `v`, an i32, is the
/// zero extension of: zext(bitcast(fptrunc x) : i16) : i32.
LLVM::FPTruncOp truncationOf(Value v) {
  auto zext = v.getDefiningOp<LLVM::ZExtOp>();
  if (!zext || !zext.getType().isInteger(32))
    return {};
  auto cast = zext.getArg().getDefiningOp<LLVM::BitcastOp>();
  if (!cast || !cast.getType().isInteger(16))
    return {};
  auto trunc = cast.getArg().getDefiningOp<LLVM::FPTruncOp>();
  if (!trunc || !trunc.getArg().getType().isF32() ||
      !isa<BFloat16Type, Float16Type>(trunc.getType()))
    return {};
  return trunc;
}

/// `v` = shl(x, 16): returns x.
Value shiftedBy16(Value v) {
  auto shl = v.getDefiningOp<LLVM::ShlOp>();
  APInt amount;
  if (!shl || !matchPattern(shl.getRhs(), m_ConstantInt(&amount)) ||
      amount != 16)
    return {};
  return shl.getLhs();
}

struct PairedTruncation : OpRewritePattern<LLVM::OrOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LLVM::OrOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isInteger(32))
      return failure();
    for (int loOperand : {0, 1}) {
      Value high = shiftedBy16(op->getOperand(1 - loOperand));
      if (!high)
        continue;
      LLVM::FPTruncOp lo = truncationOf(op->getOperand(loOperand));
      LLVM::FPTruncOp hi = truncationOf(high);
      if (!lo || !hi || lo.getType() != hi.getType())
        continue;
      // Convert where the later half is made, not where the pair is used:
      // one packed register then stays live instead of two f32 (the
      // packing may sit far down, at an mma or a store).
      OpBuilder::InsertionGuard guard(rewriter);
      if (lo->getBlock() == hi->getBlock())
        rewriter.setInsertionPointAfter(
            lo->isBeforeInBlock(hi) ? hi.getOperation() : lo.getOperation());
      Type halfType = lo.getType();
      Location loc = op.getLoc();
      auto i32 = rewriter.getI32Type();
      auto pair = VectorType::get({2}, rewriter.getF32Type());
      Value v = LLVM::PoisonOp::create(rewriter, loc, pair);
      v = LLVM::InsertElementOp::create(
          rewriter, loc, v, lo.getArg(),
          LLVM::ConstantOp::create(rewriter, loc, i32, 0));
      v = LLVM::InsertElementOp::create(
          rewriter, loc, v, hi.getArg(),
          LLVM::ConstantOp::create(rewriter, loc, i32, 1));
      Value halves = LLVM::FPTruncOp::create(rewriter, loc,
                                             VectorType::get({2}, halfType), v);
      Value word = LLVM::BitcastOp::create(rewriter, loc, i32, halves);
      rewriter.replaceOp(op, word);
      return success();
    }
    return failure();
  }
};

struct TilePairTruncationsPass
    : impl::TilePairTruncationsBase<TilePairTruncationsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PairedTruncation>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tessera::lowering
