//===- RemoveLayoutConversions.cpp - drop conversions that move no data
//----===//

#include "passes/Passes.h"

#include "dialect/LinearLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

bool widensWhereConversionGoes(Operation *ext, Attribute layout);

/// convert(load) -> a load straight into the converted layout: the load
/// lowering handles any layout, and the shared-memory exchange goes away.
/// Not into mma operand fragments: their 4-byte pieces scattered over rows
/// load slower than coalesced 16-byte vectors through shared memory
/// (measured on the H200, bf16 GEMM 8192^3: 17.5 TFLOP/s loading straight
/// into fragments, 44.1 through shared memory).
/// `load` again, into `type` (another layout), at the insertion point.
Value reload(PatternRewriter &rewriter, LoadOp load, Type type) {
  return LoadOp::create(rewriter, load.getLoc(), type, load.getView(),
                        load.getIndices(), load.getPaddingAttr(),
                        load.getLatencyAttr(), load.getCacheAttr(),
                        load.getAllowTmaAttr(), load.getAtUseAttr())
      .getResult();
}

struct LoadIntoLayout : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto load = op.getSource().getDefiningOp<LoadOp>();
    if (!load || !load->hasOneUse() ||
        isa<DotOperandLayoutAttr>(op.getType().getEncoding()))
      return failure();
    // The new load reads where the conversion is only when nothing between
    // them may write memory (same block, no store or other write in
    // between); otherwise where the load was, so that it reads the same
    // values (a store after the load, or a loop around the conversion,
    // would change them).
    bool readAtConversion = load->getBlock() == op->getBlock();
    for (Operation *it = load->getNextNode(); readAtConversion && it != op;
         it = it->getNextNode())
      readAtConversion = isMemoryEffectFree(it) || isa<LoadOp>(it);
    OpBuilder::InsertionGuard guard(rewriter);
    if (!readAtConversion)
      rewriter.setInsertionPoint(load);
    Value newLoad = reload(rewriter, load, op.getType());
    rewriter.replaceOp(op, newLoad);
    rewriter.eraseOp(load);
    return success();
  }
};

/// Whether a warp storing a tile of `type` writes whole 32-byte sectors in
/// vectors of 8 bytes or more: a blocked layout whose threads along the
/// last dimension cover at least 32 contiguous bytes of each row.
bool storesWholeSectors(RankedTensorType type) {
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(type.getEncoding());
  if (!blocked)
    return false;
  const unsigned last = type.getRank() - 1;
  // A thread's first registers run along the last dimension when every
  // dimension before it in the order has one element a thread.
  for (unsigned d : blocked.getOrder()) {
    if (d == last)
      break;
    if (blocked.getSizePerThread()[d] != 1)
      return false;
  }
  const int64_t bytes = type.getElementTypeBitWidth() / 8,
                vector = blocked.getSizePerThread()[last] * bytes;
  return vector >= 8 && vector * blocked.getThreadsPerWarp()[last] >= 32 &&
         type.getDimSize(last) * bytes >= 32;
}

/// Whether a tile of `type` is stored as it is rather than exchanged
/// first: a wgmma accumulator, or a blocked layout that writes whole
/// sectors.
bool storesAsIs(RankedTensorType type) {
  return isWgmmaAccumulator(type) || storesWholeSectors(type);
}

/// store(convert(x)) -> store(x) where x is stored as it is (storesAsIs):
/// the store lowering writes any layout, and exchanging a 128 x 256 f32
/// accumulator through shared memory would need 128 KB next to the
/// operand rings.
struct StoreFromAccumulator : OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op,
                                PatternRewriter &rewriter) const override {
    auto convert = op.getValue().getDefiningOp<ConvertLayoutOp>();
    if (!convert || !storesAsIs(convert.getSource().getType()))
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getValueMutable().assign(convert.getSource()); });
    return success();
  }
};

/// Whether a narrowing cast of convert(x) may run on x before the
/// conversion (half the bytes to exchange) although x is no wgmma
/// accumulator: the conversion has no other user (else both layouts would
/// be converted), x is not a load (LoadIntoLayout loads it in the
/// converted layout instead, with no exchange), and the tile has no unit
/// dimension (ConvertVectorOperands moves conversions of vectors the other
/// way; the two would undo each other).
bool narrowsBeforeConvert(ConvertLayoutOp convert) {
  auto type = cast<RankedTensorType>(convert.getSource().getType());
  return convert->hasOneUse() && !convert.getSource().getDefiningOp<LoadOp>() &&
         llvm::none_of(type.getShape(), [](int64_t d) { return d == 1; });
}

/// cast(convert(x)) -> convert(cast(x)) for wgmma accumulators, so the
/// conversion reaches the store (StoreFromAccumulator) and the cast runs
/// on the registers the accumulator is already in; for narrowing casts
/// of other tiles where narrowsBeforeConvert says so. A widening cast
/// only where widensWhereConversionGoes says so.
template <typename CastOp> struct CastBeforeConvert : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    constexpr bool narrows = std::is_same_v<CastOp, arith::TruncFOp>;
    auto convert = op.getIn().template getDefiningOp<ConvertLayoutOp>();
    if (!convert)
      return failure();
    Type sourceType = convert.getSource().getType();
    const bool accumulator = isWgmmaAccumulator(sourceType);
    const bool widens =
        !narrows && widensWhereConversionGoes(
                        op, cast<RankedTensorType>(sourceType).getEncoding());
    if (!((accumulator && (narrows || widens)) ||
          (narrows && narrowsBeforeConvert(convert))))
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

RankedTensorType inLayout(Type t, Attribute layout) {
  auto tensor = cast<RankedTensorType>(t);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

/// Whether `v` is the same in every iteration of `loop`: defined outside
/// it, or by pure scalar ops of such values in its body (index arithmetic
/// the pipeline's hoisting clones along with the load: `indexSlice`).
bool isLoopInvariant(Value v, scf::ForOp loop, int depth = 8) {
  if (loop.isDefinedOutsideOfLoop(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0 || def->getNumRegions() != 0 || !isPure(def) ||
      def->getBlock() != loop.getBody() ||
      llvm::any_of(def->getResultTypes(),
                   [](Type t) { return isa<RankedTensorType>(t); }))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isLoopInvariant(operand, loop, depth - 1);
  });
}

/// A load directly in a loop's body that reads the same tile in every
/// iteration (its view and indices loop-invariant, the view not stored to
/// in the loop): tile-pipeline moves it before the loop (the same
/// conditions as its hoist-invariant-loads), so loading it in another layout
/// too costs one more load per program, not an exchange per iteration (with
/// that option off, one more load per iteration: from L1, or carried one
/// iteration ahead in registers by register-prefetch). An `at_use` load
/// qualifies too: the new load keeps `at_use` and stays in the loop, one
/// load an iteration from the cache instead of an exchange.
/// rematerialize makes that load next to this one.
bool isHoistableLoad(LoadOp load) {
  auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
  if (!loop || !loop.isDefinedOutsideOfLoop(load.getView()) ||
      !llvm::all_of(load.getIndices(),
                    [&](Value i) { return isLoopInvariant(i, loop); }))
    return false;
  return !storesTo(loop, load.getView());
}

/// Whether `reshape` only adds or drops unit dimensions in front of the
/// last two, which it keeps: the loaded (1, .., 1, m, n) row of a view
/// as an m x n tile. An mma layout then holds both (layoutThrough).
bool addsOrDropsLeadingUnits(ReshapeOp reshape) {
  ArrayRef<int64_t> src = reshape.getSource().getType().getShape(),
                    dst = reshape.getType().getShape();
  auto unit = [](ArrayRef<int64_t> dims) {
    return llvm::all_of(dims, [](int64_t d) { return d == 1; });
  };
  return src.size() >= 2 && dst.size() >= 2 &&
         src.take_back(2) == dst.take_back(2) && unit(src.drop_back(2)) &&
         unit(dst.drop_back(2));
}

/// Values that are cheap to produce in any layout: broadcasts, splats,
/// iotas, splat constants, conversions, with `withLoads` loads a loop reads
/// once (isHoistableLoad) and their reshapes to tiles of their last two
/// dimensions (only toward mma layouts, the one use of `withLoads`), and
/// elementwise ops of those (a few levels deep).
/// Their layout follows their consumer's instead of the other way round.
bool canRematerialize(Value v, int depth = 4, bool withLoads = false) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumResults() != 1 || !getLayout(v.getType()))
    return false;
  if (isa<BroadcastOp, SplatOp, ConvertLayoutOp, IotaOp>(def))
    return true;
  if (auto load = dyn_cast<LoadOp>(def))
    return withLoads && isHoistableLoad(load);
  if (auto reshape = dyn_cast<ReshapeOp>(def)) {
    auto load = reshape.getSource().getDefiningOp<LoadOp>();
    return withLoads && load && load->hasOneUse() && isHoistableLoad(load) &&
           addsOrDropsLeadingUnits(reshape);
  }
  if (auto cst = dyn_cast<arith::ConstantOp>(def))
    return isa<SplatElementsAttr>(cst.getValue());
  if (depth == 0 || !def->hasTrait<OpTrait::Elementwise>() ||
      def->getNumRegions() != 0)
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return !isa<RankedTensorType>(operand.getType()) ||
           canRematerialize(operand, depth - 1, withLoads);
  });
}

/// `v` (canRematerialize) produced in `layout`.
Value rematerialize(PatternRewriter &rewriter, Value v, Attribute layout) {
  Operation *def = v.getDefiningOp();
  Location loc = def->getLoc();
  RankedTensorType type = inLayout(v.getType(), layout);
  if (type == v.getType())
    return v;
  if (auto b = dyn_cast<BroadcastOp>(def))
    return BroadcastOp::create(rewriter, loc, type, b.getSource());
  if (auto s = dyn_cast<SplatOp>(def))
    return SplatOp::create(rewriter, loc, type, s.getValue());
  if (auto iota = dyn_cast<IotaOp>(def))
    return IotaOp::create(rewriter, loc, type, iota.getDimAttr());
  if (auto c = dyn_cast<ConvertLayoutOp>(def))
    return c.getSource().getType() == type
               ? c.getSource()
               : ConvertLayoutOp::create(rewriter, loc, type, c.getSource())
                     .getResult();
  if (auto cst = dyn_cast<arith::ConstantOp>(def))
    return arith::ConstantOp::create(
        rewriter, loc, type,
        cast<SplatElementsAttr>(cst.getValue()).resizeSplat(type));
  if (auto load = dyn_cast<LoadOp>(def)) {
    // Next to the original, in the loop body where the pipeline hoists it
    // (the consumer may sit in a nested region).
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfter(load);
    return reload(rewriter, load, type);
  }
  if (auto reshape = dyn_cast<ReshapeOp>(def)) {
    // The load in the mma layout over its own shape (unit dimensions in
    // front), so that the reshape moves no data. (canRematerialize admits
    // these only with `withLoads`, whose callers all target mma layouts.)
    assert(isa<MmaLayoutAttr>(layout) && "a reshaped load only into mma");
    auto load = reshape.getSource().getDefiningOp<LoadOp>();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfter(load);
    Value loaded = reload(rewriter, load, inLayout(load.getType(), layout));
    return ReshapeOp::create(rewriter, loc, type, loaded).getResult();
  }
  // Elementwise: the same op on rematerialized operands.
  OperationState state(loc, def->getName());
  for (Value operand : def->getOperands())
    state.addOperands(isa<RankedTensorType>(operand.getType())
                          ? rematerialize(rewriter, operand, layout)
                          : operand);
  state.addTypes(type);
  state.addAttributes(def->getAttrs());
  return rewriter.create(state)->getResult(0);
}

/// Whether ElementwiseInAccumulatorLayout moves `user` into `layout` once
/// hoistable loads count as cheap: elementwise, and every tensor operand a
/// conversion from `layout` or cheap to make in it.
bool movesIntoLayout(Operation *user, Attribute layout) {
  if (!user->hasTrait<OpTrait::Elementwise>() || user->getNumResults() != 1 ||
      user->getNumRegions() != 0)
    return false;
  return llvm::all_of(user->getOperands(), [&](Value operand) {
    if (!isa<RankedTensorType>(operand.getType()))
      return true;
    if (auto c = operand.getDefiningOp<ConvertLayoutOp>())
      if (c.getSource().getType().getEncoding() == layout)
        return true;
    return canRematerialize(operand, 4, /*withLoads=*/true);
  });
}

/// elementwise(convert(acc), others...) -> convert(elementwise(acc,
/// others in acc's layout)) when acc is a Tensor Core accumulator and the
/// other operands are cheap to produce in its layout: the accumulator is
/// used where it sits instead of going through shared memory (a 256 x 256
/// f32 score tile would need 256 KB of it). Applied repeatedly, the
/// conversion moves down the chain to the store or the next mma operand,
/// which take any layout.
struct ElementwiseInAccumulatorLayout : RewritePattern {
  ElementwiseInAccumulatorLayout(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
        op->getNumRegions() != 0 || !getLayout(op->getResult(0).getType()))
      return failure();
    Attribute layout;
    SmallVector<ConvertLayoutOp> fromAccumulator;
    for (Value operand : op->getOperands())
      if (auto convert = operand.getDefiningOp<ConvertLayoutOp>())
        if (isa_and_nonnull<MmaLayoutAttr>(
                convert.getSource().getType().getEncoding())) {
          layout = convert.getSource().getType().getEncoding();
          fromAccumulator.push_back(convert);
        }
    // Already in the accumulator's layout (an identity conversion): nothing
    // to move, and rewriting would replace the op by a conversion of itself.
    if (!layout || layout == getLayout(op->getResult(0).getType()))
      return failure();
    if (isa<arith::ExtFOp>(op) && !widensWhereConversionGoes(op, layout))
      return failure();
    // A second load of a tile only pays if the accumulator's conversion
    // goes away: when all its users are elementwise ops that move too. A
    // conversion another op (a transpose) still needs would stay, and the
    // result of this op would need one of its own.
    bool withLoads = llvm::all_of(fromAccumulator, [&](ConvertLayoutOp c) {
      return llvm::all_of(c->getUsers(), [&](Operation *user) {
        return movesIntoLayout(user, layout);
      });
    });
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()) &&
          !canRematerialize(operand, 4, withLoads))
        return failure();
    Value inAcc = rematerialize(rewriter, op->getResult(0), layout);
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op->getResult(0).getType(),
                                                 inAcc);
    return success();
  }
};

/// local_alloc(convert(x)) -> local_alloc(x): writing to shared memory
/// takes any layout.
struct AllocFromAnyLayout : OpRewritePattern<LocalAllocOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LocalAllocOp op,
                                PatternRewriter &rewriter) const override {
    auto convert =
        op.getInit() ? op.getInit().getDefiningOp<ConvertLayoutOp>() : nullptr;
    if (!convert || !getLayout(convert.getSource().getType()))
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getInitMutable().assign(convert.getSource()); });
    return success();
  }
};

/// gather(convert(x), i) -> gather(x, i): a gather writes its sources to
/// shared memory as they are and reads the results through the indices, so
/// the sources may be in any layout (an mma accumulator's partner rows of
/// the conv inner pass, gathered without converting them first), the same
/// for all of them.
struct GatherFromAnyLayout : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value, 2> unconverted;
    for (Value source : op.getSources()) {
      auto convert = source.getDefiningOp<ConvertLayoutOp>();
      if (!convert || !getLayout(convert.getSource().getType()) ||
          (!unconverted.empty() &&
           convert.getSource().getType() != unconverted.front().getType()))
        return failure();
      unconverted.push_back(convert.getSource());
    }
    rewriter.modifyOpInPlace(
        op, [&] { op.getSourcesMutable().assign(unconverted); });
    return success();
  }
};

/// The mma layout that the gathers ending in `v` read from: `v` a gather
/// (of a gather ...) of tiles in an mma layout.
Attribute gatheredMmaLayout(Value v) {
  while (auto gather = v.getDefiningOp<GatherOp>())
    v = gather.getSources().front();
  Attribute layout = cast<RankedTensorType>(v.getType()).getEncoding();
  return isa_and_nonnull<MmaLayoutAttr>(layout) ? layout : Attribute();
}

/// A branch result that every branch makes by gathering from tiles in the
/// same mma layout L, with indices cheap to make in any layout (iota
/// arithmetic): the last gather of each branch produces it in L, and the
/// branch yields it in L. The gather costs the same exchange into any
/// layout, and the partner of a row (gathered from the other row's
/// accumulator, in a branch uniform over the program) meets that
/// accumulator again in elementwise ops, which ElementwiseInAccumulatorLayout
/// then keeps in L: the conv inner pass's spectrum product without the
/// conversions of its accumulators. A gather of several sources yields
/// each of its results (at the same positions in every branch), and all of
/// them move to L together.
struct GatherBranchResultsInMmaLayout : OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::IfOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getElseRegion().empty())
      return failure();
    // Only where the partner meets tiles in elementwise ops (a result
    // that is only stored would gain a conversion before the store).
    auto movable = [&](unsigned i) {
      Value result = op.getResult(i);
      auto type = dyn_cast<RankedTensorType>(result.getType());
      return type && getLayout(type) &&
             !isa<MmaLayoutAttr>(type.getEncoding()) && !result.use_empty() &&
             llvm::all_of(result.getUsers(), [](Operation *user) {
               return user->hasTrait<OpTrait::Elementwise>();
             });
    };
    for (unsigned i = 0; i < op.getNumResults(); ++i) {
      if (!movable(i))
        continue;
      Attribute layout;
      SmallVector<GatherOp, 2> gathers;
      // The branch results each gather makes, in its results' order.
      SmallVector<unsigned, 2> positions;
      for (Region *region : {&op.getThenRegion(), &op.getElseRegion()}) {
        auto yield = cast<scf::YieldOp>(region->front().getTerminator());
        auto gather = yield.getOperand(i).getDefiningOp<GatherOp>();
        Attribute l =
            gather ? gatheredMmaLayout(yield.getOperand(i)) : Attribute();
        if (!l || (layout && l != layout) ||
            !llvm::all_of(gather.getIndices(),
                          [](Value i) { return canRematerialize(i); }))
          break;
        SmallVector<unsigned, 2> at;
        for (Value r : gather.getResults()) {
          if (!r.hasOneUse() || r.use_begin()->getOwner() != yield)
            break;
          at.push_back(r.use_begin()->getOperandNumber());
        }
        if (at.size() != gather.getNumResults() ||
            (!positions.empty() && at != positions) ||
            !llvm::all_of(at, movable))
          break;
        positions = at;
        layout = l;
        gathers.push_back(gather);
      }
      // An mma layout holds tiles of rank 2 and unit dimensions in front
      // only (a gather may widen a unit dimension of its source).
      auto type = cast<RankedTensorType>(op.getResult(i).getType());
      RankedTensorType inL =
          gathers.size() == 2 ? inLayout(type, layout) : RankedTensorType();
      if (!inL || !isTileType(inL))
        continue;
      for (GatherOp gather : gathers) {
        rewriter.setInsertionPoint(gather);
        SmallVector<Value, 2> indices;
        for (Value i : gather.getIndices())
          indices.push_back(rematerialize(rewriter, i, layout));
        rewriter.replaceOpWithNewOp<GatherOp>(
            gather, SmallVector<Type, 2>(gather.getNumResults(), inL),
            gather.getSources(), indices, gather.getAxes());
      }
      rewriter.setInsertionPointAfter(op);
      for (unsigned p : positions) {
        Value result = op.getResult(p);
        rewriter.modifyOpInPlace(op, [&] { result.setType(inL); });
        auto back =
            ConvertLayoutOp::create(rewriter, op.getLoc(), type, result);
        rewriter.replaceAllUsesExcept(result, back.getResult(), back);
      }
      return success();
    }
    return failure();
  }
};

/// local_load(local_alloc(x)) -> convert_layout(x) when every thread
/// already holds the elements it reads back (an mma accumulator feeding the
/// A fragments of the next mma with all warps along M): the conversion is
/// register moves, with no shared memory, barrier or ldmatrix.
struct FragmentsFromRegisters : OpRewritePattern<LocalLoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LocalLoadOp op,
                                PatternRewriter &rewriter) const override {
    auto alloc = op.getBuffer().getDefiningOp<LocalAllocOp>();
    if (!alloc || !alloc.getInit() || alloc.isWrittenAfterInit())
      return failure();
    Value tile = alloc.getInit();
    auto from = cast<RankedTensorType>(tile.getType());
    RankedTensorType to = op.getType();
    if (from.getShape() != to.getShape() || !getLayout(from) ||
        !getLayout(to) ||
        registerPermutation(LinearLayout::get(getLayout(from), from.getShape()),
                            LinearLayout::get(getLayout(to), to.getShape()))
            .empty())
      return failure();
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, to, tile);
    if (alloc->use_empty())
      rewriter.eraseOp(alloc);
    return success();
  }
};

/// warpgroup_mma(local_alloc(x), b) -> warpgroup_mma(convert_layout(x), b)
/// with A in registers when every thread already holds its A fragments
/// (an accumulator, or math on one, whose warps all lie along M): the
/// shared-memory write, its proxy fence and barrier go away.
struct WgmmaAFromRegisters : OpRewritePattern<WarpgroupMmaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WarpgroupMmaOp op,
                                PatternRewriter &rewriter) const override {
    auto alloc = op.getA().getDefiningOp<LocalAllocOp>();
    if (op.getTransA() || !alloc || !alloc.getInit() ||
        alloc.isWrittenAfterInit())
      return failure();
    Value tile = alloc.getInit();
    auto from = cast<RankedTensorType>(tile.getType());
    if (!isa<BFloat16Type, Float16Type>(from.getElementType()))
      return failure(); // tf32 wgmma reads A from shared memory only
    auto mma = cast<MmaLayoutAttr>(op.getAcc().getType().getEncoding());
    auto dot = DotOperandLayoutAttr::get(getContext(), 0, mma, 2);
    auto to =
        RankedTensorType::get(from.getShape(), from.getElementType(), dot);
    if (!getLayout(from) ||
        registerPermutation(LinearLayout::get(getLayout(from), from.getShape()),
                            LinearLayout::get(dot, to.getShape()))
            .empty())
      return failure();
    Value fragments = ConvertLayoutOp::create(rewriter, op.getLoc(), to, tile);
    rewriter.modifyOpInPlace(op, [&] { op.getAMutable().assign(fragments); });
    if (alloc->use_empty())
      rewriter.eraseOp(alloc);
    return success();
  }
};

/// A loop-carried tile converted to layout L at the top of each iteration
/// and converted back from L before the yield is carried in L instead:
/// one conversion before the loop and one after, none inside. A tile
/// yielded from a Tensor Core accumulator is carried in the accumulator's
/// layout whatever its other uses are: they get one conversion at the top,
/// which the other patterns move down to where it is free (a state updated
/// by mma each iteration stays in its registers).
struct CarryInLayout : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto fromL = yield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
      if (!fromL || !fromL->hasOneUse() ||
          fromL.getSource().getType() == arg.getType())
        continue;
      auto toL = arg.hasOneUse()
                     ? dyn_cast<ConvertLayoutOp>(*arg.getUsers().begin())
                     : ConvertLayoutOp();
      bool fromAccumulator = isa_and_nonnull<MmaLayoutAttr>(
          fromL.getSource().getType().getEncoding());
      if (!(toL && fromL.getSource().getType() == toL.getType()) &&
          !fromAccumulator)
        continue;
      Type original = arg.getType(), carried = fromL.getSource().getType();
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
      rewriter.eraseOp(fromL);
      if (toL && toL.getType() == carried) {
        rewriter.replaceOp(toL, arg);
      } else {
        rewriter.setInsertionPointToStart(loop.getBody());
        auto back =
            ConvertLayoutOp::create(rewriter, loop.getLoc(), original, arg);
        rewriter.replaceAllUsesExcept(arg, back.getResult(), back);
      }
      rewriter.setInsertionPointAfter(loop);
      auto back = ConvertLayoutOp::create(rewriter, loop.getLoc(), original,
                                          loop.getResult(i));
      rewriter.replaceAllUsesExcept(loop.getResult(i), back.getResult(), back);
      return success();
    }
    return failure();
  }
};

/// A shared-memory copy of a constant (a DFT matrix as a wgmma or ldmatrix
/// operand) inside a loop is written once, before it, from a copy of the
/// constant made there (a buffer with `init` and no TMA writes is only
/// read). A program that loops over rows then stores its DFT matrices once.
struct HoistConstantCopies : OpRewritePattern<LocalAllocOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LocalAllocOp op,
                                PatternRewriter &rewriter) const override {
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    auto cst = op.getInit() ? op.getInit().getDefiningOp<arith::ConstantOp>()
                            : arith::ConstantOp();
    if (!loop || !cst || op.isWrittenAfterInit())
      return failure();
    rewriter.setInsertionPoint(loop);
    auto outside = arith::ConstantOp::create(rewriter, cst.getLoc(),
                                             cst.getType(), cst.getValue());
    rewriter.modifyOpInPlace(op, [&] { op.getInitMutable().assign(outside); });
    rewriter.moveOpBefore(op, loop);
    return success();
  }
};

/// An iota is made in registers in any layout, so a reshape that only adds
/// or drops unit dimensions, a broadcast along other dimensions, or a
/// conversion of an iota is an iota of the result's type: the row and
/// column indices of a mask come straight in the accumulator's layout
/// instead of through shared memory.
struct IotaInAnyLayout : RewritePattern {
  IotaInAnyLayout(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<ReshapeOp, BroadcastOp, ConvertLayoutOp>(op))
      return failure();
    auto iota = op->getOperand(0).getDefiningOp<IotaOp>();
    if (!iota)
      return failure();
    ArrayRef<int64_t> from = iota.getType().getShape();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    ArrayRef<int64_t> to = type.getShape();
    int64_t dim = iota.getDim();
    if (isa<ReshapeOp>(op)) {
      // The iota's dimension, among the dimensions that are not 1.
      if (from[dim] == 1)
        return failure();
      SmallVector<int64_t> wide, wideTo;
      int64_t position = -1;
      for (auto [d, n] : llvm::enumerate(from))
        if (n != 1) {
          if (int64_t(d) == dim)
            position = wide.size();
          wide.push_back(n);
        }
      for (auto [d, n] : llvm::enumerate(to))
        if (n != 1) {
          if (int64_t(wideTo.size()) == position)
            dim = d;
          wideTo.push_back(n);
        }
      if (wide != wideTo)
        return failure();
    } else if (isa<BroadcastOp>(op) && from[dim] != to[dim]) {
      return failure();
    }
    rewriter.replaceOpWithNewOp<IotaOp>(op, type, dim);
    return success();
  }
};

/// broadcast(x) -> broadcast(convert(x)) into the result's layout over x's
/// shape, when the broadcast would move data between threads: the
/// broadcast becomes register copies, conversions of one vector into one
/// layout merge (CSE), and ConvertVectorOperands moves them up to where
/// the vector is made. For small sources only (a row or column).
struct BroadcastThroughConvert : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType src = op.getSource().getType(), dst = op.getType();
    Attribute layout = getLayout(dst);
    if (!getLayout(src) || !layout || src.getNumElements() > 256)
      return failure();
    RankedTensorType target = inLayout(src, layout);
    LinearLayout out = LinearLayout::get(layout, dst.getShape());
    if (target == src ||
        !broadcastRegisters(LinearLayout::get(getLayout(src), src.getShape()),
                            out)
             .empty() ||
        broadcastRegisters(LinearLayout::get(layout, src.getShape()), out)
            .empty())
      return failure();
    Value converted =
        ConvertLayoutOp::create(rewriter, op.getLoc(), target, op.getSource());
    rewriter.modifyOpInPlace(op,
                             [&] { op.getSourceMutable().assign(converted); });
    return success();
  }
};

/// convert(f(a, b...)) -> f(convert(a), b'...) for a vector (a tile with
/// a unit dimension) in a blocked layout, when every operand but one is
/// cheap to make in any layout (canRematerialize): the one conversion
/// moves up the chain, where conversions of the same vector merge. (From
/// blocked layouts only: ElementwiseInAccumulatorLayout moves conversions
/// from accumulators down.)
struct ConvertVectorOperands : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getSource().getDefiningOp();
    RankedTensorType type = op.getType();
    if (!def || !def->hasTrait<OpTrait::Elementwise>() ||
        def->getNumResults() != 1 || def->getNumRegions() != 0 ||
        !isa_and_nonnull<BlockedLayoutAttr>(
            op.getSource().getType().getEncoding()) ||
        !llvm::is_contained(type.getShape(), 1))
      return failure();
    Value moved;
    for (Value operand : def->getOperands()) {
      if (!isa<RankedTensorType>(operand.getType()) ||
          canRematerialize(operand))
        continue;
      if (moved)
        return failure();
      moved = operand;
    }
    Attribute layout = type.getEncoding();
    OperationState state(def->getLoc(), def->getName());
    for (Value operand : def->getOperands()) {
      if (!isa<RankedTensorType>(operand.getType()))
        state.addOperands(operand);
      else if (operand == moved)
        state.addOperands(ConvertLayoutOp::create(
                              rewriter, op.getLoc(),
                              inLayout(operand.getType(), layout), operand)
                              .getResult());
      else
        state.addOperands(rematerialize(rewriter, operand, layout));
    }
    state.addTypes(type);
    state.addAttributes(def->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResult(0));
    return success();
  }
};

/// reduce(convert(x)) -> convert(reduce(x)) with the reduce in x's layout
/// over its result's shape, where it combines in place there
/// (inPlaceReduction; 32-bit elements, as the lowering combines them):
/// registers, shuffles and one partial a warp, instead of x through shared
/// memory. Only for a conversion the reduce alone uses: one that stays
/// costs its exchange anyway, and the reduce may need fewer warps along the
/// axis in the converted layout. Not from mma operand fragments, whose
/// layout is an instruction input's, not one for other tiles. The row
/// maxima of an mma accumulator stay in its layout, where a broadcast of
/// them back is register copies.
struct ReduceInSourceLayout : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    auto convert = op.getSource().getDefiningOp<ConvertLayoutOp>();
    if (!convert || !convert->hasOneUse())
      return failure();
    RankedTensorType src = convert.getSource().getType();
    Attribute layout = getLayout(src);
    Type e = src.getElementType();
    if (!layout || isa<DotOperandLayoutAttr>(layout) ||
        !(e.isF32() || e.isInteger(32)))
      return failure();
    RankedTensorType type = inLayout(op.getType(), layout);
    if (!inPlaceReduction(LinearLayout::get(layout, src.getShape()),
                          LinearLayout::get(layout, type.getShape()),
                          op.getAxis()))
      return failure();
    Value reduced =
        ReduceOp::create(rewriter, op.getLoc(), type, convert.getSource(),
                         op.getKindAttr(), op.getAxisAttr());
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(), reduced);
    return success();
  }
};

/// `layout` (of `source`) seen through `op`, a reshape or a permute.
LinearLayout throughIndexMap(Operation *op, const LinearLayout &layout) {
  if (auto permute = dyn_cast<PermuteOp>(op))
    return permuteLayout(layout, permute.getPermutation());
  return reshapeLayout(
      layout, cast<RankedTensorType>(op->getResult(0).getType()).getShape());
}

/// The layout that keeps every element of a tile in `layout` (over
/// `shape`) with its thread through `op` (a reshape or permute), if there
/// is one: an accumulator's own layout for a reshape that only adds unit
/// dimensions in front, otherwise a blocked layout (blockedLayoutOf).
/// The accumulator's layout only for rows of at most 32 bytes, one sector,
/// which a warp's stores from the accumulator fill in two consecutive
/// instructions: the conv inner pass's 64 x 16 bf16 rows (H200, 16K: the
/// pass 1.989 -> 1.881 ms). Wider rows go through the exchange to 16-byte
/// vectors: the 64K forward outer pass's 64 x 128 tile stored from the
/// accumulator took 0.489 -> 0.825 ms (run39).
Attribute layoutThrough(Operation *op, Attribute layout,
                        ArrayRef<int64_t> shape) {
  auto dst = cast<RankedTensorType>(op->getResult(0).getType());
  auto reshape = dyn_cast<ReshapeOp>(op); // `shape` is its source's
  if (isa<MmaLayoutAttr>(layout) && reshape &&
      addsOrDropsLeadingUnits(reshape) &&
      dst.getShape().back() * dst.getElementTypeBitWidth() <= 32 * 8)
    return layout;
  return blockedLayoutOf(op->getContext(),
                         throughIndexMap(op, LinearLayout::get(layout, shape)));
}

/// Whether a reshape or permute moves no data between threads.
bool isRegisterIndexMap(Operation *op) {
  auto src = cast<RankedTensorType>(op->getOperand(0).getType());
  auto dst = cast<RankedTensorType>(op->getResult(0).getType());
  if (!src.getEncoding() || !dst.getEncoding())
    return false;
  return !registerPermutation(
              throughIndexMap(
                  op, LinearLayout::get(src.getEncoding(), src.getShape())),
              LinearLayout::get(dst.getEncoding(), dst.getShape()))
              .empty();
}

/// Whether `v`, given `layout`, reaches through single-use reshapes and
/// permutes that move no data in it (and casts) a consumer that takes any
/// layout: a shared-memory write, or a store that writes whole sectors.
bool reachesAnyLayoutConsumer(Value v, Attribute layout, int depth = 8) {
  auto type = cast<RankedTensorType>(v.getType());
  if (depth == 0 || !v.hasOneUse())
    return false;
  Operation *user = *v.getUsers().begin();
  if (isa<LocalAllocOp>(user))
    return true;
  if (isa<StoreOp>(user))
    return storesAsIs(inLayout(type, layout));
  if (isa<arith::TruncFOp, arith::ExtFOp>(user))
    return reachesAnyLayoutConsumer(user->getResult(0), layout, depth - 1);
  if (!isa<ReshapeOp, PermuteOp>(user))
    return false;
  Attribute next = layoutThrough(user, layout, type.getShape());
  return next && reachesAnyLayoutConsumer(user->getResult(0), next, depth - 1);
}

/// Whether the widening cast `ext` of a tile converted from `layout` may
/// run in `layout`, ahead of the conversion. For 16-bit sources only where
/// the conversion then goes away: every user moves into `layout` too, or
/// takes any layout (a store that writes it as it is, a shared-memory
/// write, a gather, a reduce, a reshape chain to one of those). Elsewhere
/// the conversion would exchange the wider elements: the conv's fused
/// kernels round the inverse to bf16 before the post gate, whose product
/// runs in a blocked layout, to exchange half the bytes (H200, 4K with
/// both gates: 0.764 -> 0.723 ms; bench/RESULTS.md session 36).
bool widensWhereConversionGoes(Operation *ext, Attribute layout) {
  auto source = cast<RankedTensorType>(ext->getOperand(0).getType());
  if (source.getElementType().getIntOrFloatBitWidth() > 16)
    return true;
  Value result = ext->getResult(0);
  if (reachesAnyLayoutConsumer(result, layout))
    return true;
  return llvm::all_of(ext->getUsers(), [&](Operation *user) {
    if (isa<StoreOp>(user))
      return storesAsIs(inLayout(result.getType(), layout));
    return isa<LocalAllocOp, GatherOp, ReduceOp>(user) ||
           movesIntoLayout(user, layout);
  });
}

/// reshape(convert(x)) -> convert(reshape(x)), and a reshape that moves
/// data -> convert(reshape), where the reshape keeps every element of x
/// with its thread (a blocked layout of the result holds them where x's
/// layout does): the exchange moves down, toward a store or a
/// shared-memory write that takes any layout, where the chain reaches one
/// (reachesAnyLayoutConsumer; elsewhere the exchange would only move). The
/// (re, im) interleave of the conv outer passes is a chain of reshapes and
/// permutes of an mma accumulator or of a load, three exchanges before
/// this. Permutes alike.
template <typename OpT> struct IndexMapInSourceLayout : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Value source = op.getSource();
    auto convert = source.template getDefiningOp<ConvertLayoutOp>();
    if (convert && convert->hasOneUse())
      source = convert.getSource();
    else if (isRegisterIndexMap(op))
      return failure();
    auto src = cast<RankedTensorType>(source.getType());
    RankedTensorType dst = op.getType();
    if (!src.getEncoding() || !dst.getEncoding() ||
        isa<DotOperandLayoutAttr>(src.getEncoding()))
      return failure();
    Attribute layout = layoutThrough(op, src.getEncoding(), src.getShape());
    if (!layout || !reachesAnyLayoutConsumer(op.getResult(), layout))
      return failure();
    Operation *moved = rewriter.clone(*op);
    rewriter.modifyOpInPlace(moved, [&] {
      moved->setOperand(0, source);
      moved->getResult(0).setType(
          RankedTensorType::get(dst.getShape(), dst.getElementType(), layout));
    });
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, dst, moved->getResult(0));
    if (convert && convert->use_empty())
      rewriter.eraseOp(convert);
    return success();
  }
};

/// convert(reshape(x)) -> reshape(x) into the conversion's layout: one
/// exchange instead of two (a column of one layout read as a row of
/// another). Not for a reshape that moves no data (IndexMapInSourceLayout
/// made it so).
struct ReshapeIntoLayout : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto reshape = op.getSource().getDefiningOp<ReshapeOp>();
    if (!reshape || !reshape->hasOneUse() || isRegisterIndexMap(reshape))
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(),
                                           reshape.getSource());
    rewriter.eraseOp(reshape);
    return success();
  }
};

struct RemoveLayoutConversionsPass
    : impl::TileRemoveLayoutConversionsBase<RemoveLayoutConversionsPass> {
  using TileRemoveLayoutConversionsBase::TileRemoveLayoutConversionsBase;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<
        LoadIntoLayout, CarryInLayout, StoreFromAccumulator,
        ElementwiseInAccumulatorLayout, AllocFromAnyLayout, GatherFromAnyLayout,
        GatherBranchResultsInMmaLayout, FragmentsFromRegisters,
        HoistConstantCopies, CastBeforeConvert<arith::TruncFOp>,
        CastBeforeConvert<arith::ExtFOp>, IotaInAnyLayout,
        BroadcastThroughConvert, ConvertVectorOperands, ReduceInSourceLayout,
        ReshapeIntoLayout, IndexMapInSourceLayout<ReshapeOp>,
        IndexMapInSourceLayout<PermuteOp>>(&getContext());
    if (wgmmaRegisterA)
      patterns.add<WgmmaAFromRegisters>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace tessera::tile
