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
// backend selects as the paired conversion, and a vector of bf16 built
// lane by lane from truncations (a 16-bit tile's store) into the
// truncation of the vector of f32.
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

/// `v` = shl(x, amount) for a constant amount: returns x.
Value shiftedBy(Value v, int64_t amount) {
  auto shl = v.getDefiningOp<LLVM::ShlOp>();
  APInt value;
  if (!shl || !matchPattern(shl.getRhs(), m_ConstantInt(&value)) ||
      value != amount)
    return {};
  return shl.getLhs();
}

/// The truncation fptrunc x : f32 to bf16|f16 that `v`, an i32, is the
/// zero extension of: zext(bitcast(fptrunc x) : i16) : i32 (shifted by 0
/// where a packing loop shifts every element).
LLVM::FPTruncOp truncationOf(Value v) {
  if (Value unshifted = shiftedBy(v, 0))
    v = unshifted;
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

/// fptrunc of the f32 vector <sources[0], sources[1], ...> to `half`
/// lanes: N / 2 paired conversions in PTX.
Value truncateLanes(PatternRewriter &rewriter, Location loc,
                    ArrayRef<Value> sources, Type half) {
  auto i32 = rewriter.getI32Type();
  const int64_t n = sources.size();
  Value wide = LLVM::PoisonOp::create(
      rewriter, loc, VectorType::get({n}, rewriter.getF32Type()));
  for (int64_t i = 0; i < n; ++i)
    wide = LLVM::InsertElementOp::create(
        rewriter, loc, wide, sources[i],
        LLVM::ConstantOp::create(rewriter, loc, i32, i));
  return LLVM::FPTruncOp::create(rewriter, loc, VectorType::get({n}, half),
                                 wide);
}

struct PairedTruncation : OpRewritePattern<LLVM::OrOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LLVM::OrOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isInteger(32))
      return failure();
    for (int loOperand : {0, 1}) {
      Value high = shiftedBy(op->getOperand(1 - loOperand), 16);
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
      Location loc = op.getLoc();
      Value halves = truncateLanes(rewriter, loc, {lo.getArg(), hi.getArg()},
                                   lo.getType());
      rewriter.replaceOp(op, LLVM::BitcastOp::create(
                                 rewriter, loc, rewriter.getI32Type(), halves));
      return success();
    }
    return failure();
  }
};

/// A whole vector of bf16 (or f16) built element by element from f32
/// truncations, as the stores of 16-bit tiles build theirs:
///   insertelement(...insertelement(undef, fptrunc a0, 0)..., fptrunc aN, N)
/// becomes fptrunc of the vector of the f32 values (N / 2 paired
/// conversions).
struct VectorOfTruncations : OpRewritePattern<LLVM::InsertElementOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LLVM::InsertElementOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(op.getType());
    if (!type || type.getRank() != 1 || type.isScalable() ||
        type.getNumElements() % 2 != 0 ||
        !isa<BFloat16Type, Float16Type>(type.getElementType()))
      return failure();
    const int64_t n = type.getNumElements();
    SmallVector<Value> sources(n);
    Value vector = op;
    int64_t found = 0;
    while (auto insert = vector.getDefiningOp<LLVM::InsertElementOp>()) {
      APInt position;
      if (!matchPattern(insert.getPosition(), m_ConstantInt(&position)) ||
          position.getZExtValue() >= uint64_t(n))
        return failure();
      Value &source = sources[position.getZExtValue()];
      auto trunc = insert.getValue().getDefiningOp<LLVM::FPTruncOp>();
      // A lane written twice keeps its last value: the one seen first.
      if (!source) {
        if (!trunc || !trunc.getArg().getType().isF32())
          return failure();
        source = trunc.getArg();
        ++found;
      }
      vector = insert.getVector();
    }
    if (found != n ||
        !isa_and_nonnull<LLVM::UndefOp, LLVM::PoisonOp>(vector.getDefiningOp()))
      return failure();
    rewriter.replaceOp(op, truncateLanes(rewriter, op.getLoc(), sources,
                                         type.getElementType()));
    return success();
  }
};

struct TilePairTruncationsPass
    : impl::TilePairTruncationsBase<TilePairTruncationsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PairedTruncation, VectorOfTruncations>(&getContext());
    // A peephole: leave the blocks as they are.
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
} // namespace tessera::lowering
