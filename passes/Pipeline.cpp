//===- Pipeline.cpp - multi-stage TMA prefetch of wgmma operands ----------===//
//
// Before:                          After (S stages):
//   for i:                           ring_a, ring_b = local_alloc S x ...
//     a = load A[f(i)]               full = barrier_alloc (S mbarriers)
//     sa = local_alloc a             async_load stages 0..S-2 (if in range)
//     sb = local_alloc (load B)      for i:
//     d = warpgroup_mma sa, sb, acc    barrier_wait full[i % S], (i / S) & 1
//     acc = warpgroup_mma_wait d, 0    d = warpgroup_mma ring_a[i % S], ...
//                                      acc = warpgroup_mma_wait d, 1
//                                      sync_threads
//                                      async_load iteration i + S - 1
//                                    acc = warpgroup_mma_wait acc, 0
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tessera::tile {
#define GEN_PASS_DEF_TILEPIPELINE
#include "passes/Passes.h.inc"

using namespace mlir;

namespace {

/// A tile.load whose only use is writing it to shared memory for wgmma
/// (directly, or reshaped from 1 x .. x R x .. x 1 x C to R x C).
struct Prefetch {
  LoadOp load;
  LocalAllocOp alloc;
  std::optional<int64_t> rowsDim; // for views of rank > 2
};

/// Ops of `loop`'s body that `values` depend on, in body order, or failure
/// when one of them is not pure or reads a loop-carried value (the copy
/// issued S - 1 iterations ahead recomputes them from the induction
/// variable alone). `inRangeOnly`: the clones run only for iterations the
/// loop runs (the pipeline's copies are guarded by iv < ub), where the
/// original ops would run with the same operands, so an op free of memory
/// effects that is not speculatable (an integer division by a value that is
/// nonzero whenever the loop runs) may be part of it too.
FailureOr<SmallVector<Operation *>>
indexSlice(scf::ForOp loop, ValueRange values, bool inRangeOnly = false) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work(values.begin(), values.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == loop.getBody() && arg != loop.getInductionVar())
        return failure();
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (def->getBlock() != loop.getBody() || slice.contains(def))
      continue;
    const bool clonable = inRangeOnly ? isMemoryEffectFree(def) : isPure(def);
    if (!clonable || def->getNumRegions() != 0)
      return failure();
    slice.insert(def);
    work.append(def->operand_begin(), def->operand_end());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// The prefetchable operand of a warpgroup_mma, or nullopt.
std::optional<Prefetch> prefetchOf(scf::ForOp loop, Value operand) {
  auto alloc = operand.getDefiningOp<LocalAllocOp>();
  if (!alloc || !alloc.getInit() || alloc->getBlock() != loop.getBody())
    return std::nullopt;
  Value tile = alloc.getInit();
  std::optional<int64_t> rowsDim;
  if (auto reshape = tile.getDefiningOp<ReshapeOp>()) {
    if (!reshape->hasOneUse())
      return std::nullopt;
    // 1 x .. x R x .. x 1 x C -> R x C: the copy reads rows along the one
    // dimension of size R.
    ArrayRef<int64_t> from = reshape.getSource().getType().getShape(),
                      to = reshape.getType().getShape();
    if (from.size() < 3 || to.size() != 2 || from.back() != to[1])
      return std::nullopt;
    for (int64_t d = 0; d + 1 < int64_t(from.size()); ++d) {
      if (from[d] == 1)
        continue;
      if (rowsDim || from[d] != to[0])
        return std::nullopt;
      rowsDim = d;
    }
    if (!rowsDim)
      rowsDim = int64_t(from.size()) - 2;
    tile = reshape.getSource();
  }
  auto load = tile.getDefiningOp<LoadOp>();
  if (!load || !load->hasOneUse() || load->getBlock() != loop.getBody() ||
      load.getAtUse())
    return std::nullopt;
  // Copies fill out-of-bounds elements with zeros only.
  if (auto padding = load.getPaddingAttr())
    if (padding.getValueAsDouble() != 0.0)
      return std::nullopt;
  auto arg = dyn_cast<BlockArgument>(load.getView());
  if (!arg || !isa<KernelOp>(arg.getOwner()->getParentOp()))
    return std::nullopt;
  // A copy issued stages ahead would read before this iteration's stores
  // to the same view (an in-place update); distinct views do not overlap.
  // Nor a view the kernel writes anywhere: a bulk copy reads through the
  // async proxy, which tile-order-global-memory's bar.sync does not order
  // after the kernel's own stores.
  if (storesTo(arg.getOwner()->getParentOp(), load.getView()))
    return std::nullopt;
  for (Operation *user : alloc->getUsers())
    if (!isa<WarpgroupMmaOp, LocalLoadOp>(user))
      return std::nullopt;
  return Prefetch{load, alloc, rowsDim};
}

/// A loaded tile written to shared memory for wgmma (local_alloc of the
/// load, or of a reshape of it) is written right after the load, and its
/// other users read it back from the buffer just before they need it: the
/// tile does not stay in registers between the load and its last use (a
/// 64 x 128 bf16 tile is 64 registers a thread on 4 warps).
void readBackFromSharedMemory(Operation *root) {
  SmallVector<LocalAllocOp> allocs;
  root->walk([&](LocalAllocOp alloc) {
    if (alloc.getInit() && llvm::any_of(alloc->getUsers(), [](Operation *u) {
          return isa<WarpgroupMmaOp>(u);
        }))
      allocs.push_back(alloc);
  });
  for (LocalAllocOp alloc : allocs) {
    Value tile = alloc.getInit();
    Operation *def = tile.getDefiningOp();
    if (auto reshape = dyn_cast_or_null<ReshapeOp>(def))
      def = reshape.getSource().getDefiningOp();
    auto type = cast<RankedTensorType>(tile.getType());
    if (!isa_and_nonnull<LoadOp>(def) || type.getRank() != 2 ||
        tile.getParentBlock() != alloc->getBlock())
      continue;
    alloc->moveAfter(tile.getDefiningOp());
    for (OpOperand &use : llvm::make_early_inc_range(tile.getUses())) {
      Operation *user = use.getOwner();
      if (isa<LocalAllocOp>(user))
        continue;
      OpBuilder b(user);
      Value back = LocalLoadOp::create(b, user->getLoc(), type, alloc);
      use.set(back);
    }
  }
}

struct PipelinePass : impl::TilePipelineBase<PipelinePass> {
  using TilePipelineBase::TilePipelineBase;

  /// Loads of the same tile in every iteration (indices that do not depend
  /// on the induction variable, view not stored to in the loop) move before
  /// the loop: read once, not prefetched again each iteration. Distinct views
  /// do not overlap (as for register prefetch).
  void hoistLoadsOutOf(scf::ForOp loop) {
    Value iv = loop.getInductionVar();
    for (LoadOp load :
         llvm::make_early_inc_range(loop.getBody()->getOps<LoadOp>())) {
      if (load.getAtUse())
        continue;
      FailureOr<SmallVector<Operation *>> slice =
          indexSlice(loop, load.getIndices());
      if (failed(slice) || !loop.isDefinedOutsideOfLoop(load.getView()) ||
          llvm::is_contained(load.getIndices(), iv) ||
          llvm::any_of(*slice, [&](Operation *op) {
            return llvm::is_contained(op->getOperands(), iv);
          }))
        continue;
      if (storesTo(loop, load.getView()))
        continue;
      OpBuilder b(loop);
      IRMapping map;
      for (Operation *op : *slice)
        b.clone(*op, map);
      Operation *hoisted = b.clone(*load, map);
      load.getResult().replaceAllUsesWith(hoisted->getResult(0));
      load.erase();
    }
  }

  /// Whether a Tensor Core product comes before `load`'s first use in the
  /// loop body: its latency then overlaps that work within the iteration.
  static bool usedAfterProduct(scf::ForOp loop, LoadOp load) {
    Block *body = loop.getBody();
    Operation *first = nullptr;
    for (Operation *user : load->getUsers()) {
      Operation *inBody = body->findAncestorOpInBlock(*user);
      if (inBody && (!first || inBody->isBeforeInBlock(first)))
        first = inBody;
    }
    if (!first)
      return false;
    for (Operation &op : *body) {
      if (&op == first)
        return false;
      bool product = false;
      op.walk([&](Operation *inner) {
        if (isa<MmaOp, WarpgroupMmaOp>(inner))
          product = true;
      });
      if (product)
        return true;
    }
    return false;
  }

  /// Loads issued one iteration ahead into loop-carried registers. With
  /// late-loads-in-iteration, a load first used after a Tensor Core product
  /// moves to the top of its own iteration instead: one copy of its tile
  /// live through the body rather than two (this iteration's and the
  /// next's), its latency still hidden by the products before its use.
  void prefetchToRegisters(scf::ForOp loop) {
    const unsigned threads = 32 * numWarpsOf(loop);
    SmallVector<LoadOp> loads, late;
    int64_t registers = 0;
    for (LoadOp load : loop.getBody()->getOps<LoadOp>()) {
      auto type = cast<RankedTensorType>(load.getType());
      if (load.getAtUse() || !getLayout(type) ||
          failed(indexSlice(loop, load.getIndices())))
        continue;
      const bool written = storesTo(loop, load.getView());
      // A tile bound for shared memory would hold its registers for a whole
      // iteration; it is better copied asynchronously (or not prefetched).
      if (llvm::any_of(load->getUsers(), [](Operation *user) {
            if (auto reshape = dyn_cast<ReshapeOp>(user))
              return llvm::any_of(reshape->getUsers(), [](Operation *u) {
                return isa<LocalAllocOp>(u);
              });
            return isa<LocalAllocOp>(user);
          }))
        continue;
      int64_t regs = type.getNumElements() *
                     std::max(1u, type.getElementTypeBitWidth() / 32) / threads;
      if (written || registers + regs > int64_t(registerPrefetchBudget))
        continue;
      registers += regs;
      loads.push_back(load);
    }
    // Of the loads chosen above (the budget as without the option: a load
    // over it stays next to its use), the late ones move instead of being
    // carried.
    if (lateLoadsInIteration) {
      SmallVector<LoadOp> carried;
      for (LoadOp load : loads)
        (usedAfterProduct(loop, load) ? late : carried).push_back(load);
      loads = std::move(carried);
    }
    for (LoadOp load : late) {
      // Its index ops (pure, from the induction variable and values
      // defined outside the loop) move with it, in their order.
      SmallVector<Operation *> moved = *indexSlice(loop, load.getIndices());
      moved.push_back(load);
      Operation *after = nullptr;
      for (Operation *op : moved) {
        if (!after) {
          if (op != &loop.getBody()->front())
            op->moveBefore(&loop.getBody()->front());
        } else {
          op->moveAfter(after);
        }
        after = op;
      }
    }
    if (loads.empty())
      return;
    SmallVector<Value> indices;
    for (LoadOp load : loads)
      indices.append(load.getIndices().begin(), load.getIndices().end());
    SmallVector<Operation *> slice = *indexSlice(loop, indices);
    // The loads of the iteration whose induction variable is `iv` (`from`
    // is the loop's induction variable, which moves with the body).
    auto loadAt = [&](OpBuilder &b, Value from, Value iv) {
      IRMapping map;
      map.map(from, iv);
      for (Operation *op : slice)
        b.clone(*op, map);
      SmallVector<Value> values;
      for (LoadOp load : loads)
        values.push_back(b.clone(*load, map)->getResult(0));
      return values;
    };
    IRRewriter rewriter(loop.getContext());
    rewriter.setInsertionPoint(loop);
    Value step = loop.getStep();
    Location loc = loop.getLoc();
    SmallVector<Value> first =
        loadAt(rewriter, loop.getInductionVar(), loop.getLowerBound());
    auto grown = loop.replaceWithAdditionalYields(
        rewriter, first, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &b, Location, ArrayRef<BlockArgument>) {
          // Issued first thing in the body: the latency overlaps the
          // whole iteration.
          Block *body = b.getInsertionBlock();
          b.setInsertionPointToStart(body);
          Value iv = body->getArgument(0);
          Value next = arith::AddIOp::create(b, loc, iv, step);
          return loadAt(b, iv, next);
        });
    if (failed(grown))
      return;
    auto newLoop = cast<scf::ForOp>(grown->getOperation());
    auto args = newLoop.getRegionIterArgs().take_back(loads.size());
    for (auto [load, arg] : llvm::zip(loads, args)) {
      rewriter.replaceAllUsesWith(load.getResult(), arg);
      rewriter.eraseOp(load);
    }
  }

  void runOnOperation() override {
    if (target != "sm_80" && target != "sm_90a") {
      getOperation().emitError("tile-pipeline: unknown target '")
          << target << "' (expected sm_80 or sm_90a)";
      return signalPassFailure();
    }
    readBackFromSharedMemory(getOperation());
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      pipeline(loop);
    if (!registerPrefetch && !hoistInvariantLoads)
      return;
    loops.clear();
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      // Hoisted first: an invariant load is read once, not prefetched again
      // in every iteration.
      if (hoistInvariantLoads)
        hoistLoadsOutOf(loop);
      if (registerPrefetch)
        prefetchToRegisters(loop);
    }
  }

  void pipeline(scf::ForOp loop) {
    SmallVector<WarpgroupMmaOp> mmas(loop.getBody()->getOps<WarpgroupMmaOp>());
    SmallVector<LocalLoadOp> reads(loop.getBody()->getOps<LocalLoadOp>());
    if (mmas.empty() && reads.empty())
      return;
    // The shared-memory operands read in the loop that come straight from a
    // load; the others (computed in the loop) stay as they are.
    SmallVector<Value> operands;
    for (WarpgroupMmaOp mma : mmas)
      operands.append({mma.getA(), mma.getB()});
    for (LocalLoadOp read : reads)
      operands.push_back(read.getBuffer());
    SmallVector<Prefetch> prefetches;
    for (Value operand : operands) {
      std::optional<Prefetch> p = prefetchOf(loop, operand);
      if (p && !llvm::any_of(prefetches,
                             [&](Prefetch q) { return q.alloc == p->alloc; }))
        prefetches.push_back(*p);
    }
    if (prefetches.empty())
      return;
    if (target == "sm_80" && !mmas.empty())
      return; // wgmma needs sm_90a
    // TMA takes 2-D views here; cp.async any rank.
    const bool cpAsync =
        target == "sm_80" || llvm::any_of(prefetches, [](Prefetch p) {
          return p.load.getView().getType().getRank() != 2;
        });
    SmallVector<Value> indices;
    SmallVector<SmallVector<Value>> loadIndices;
    for (Prefetch p : prefetches) {
      indices.append(p.load.getIndices().begin(), p.load.getIndices().end());
      loadIndices.emplace_back(p.load.getIndices());
    }
    FailureOr<SmallVector<Operation *>> slice =
        indexSlice(loop, indices, /*inRangeOnly=*/true);
    if (failed(slice))
      return;

    // Stages: the deepest latency hint, bounded by shared memory.
    int64_t stageBytes = 0, latency = 0;
    for (Prefetch p : prefetches) {
      stageBytes += p.alloc.getResult().getType().getSizeInBytes();
      if (auto l = p.load.getLatency())
        latency = std::max<int64_t>(latency, *l);
    }
    int64_t stagesWanted = latency ? latency : int64_t(stages);
    stagesWanted = std::clamp<int64_t>(stagesWanted, 2, maxStages);
    // Keep 8 KB for exchanges and mbarriers, and room for every other
    // buffer of the kernel (an upper bound: the lowering may let some
    // share memory).
    int64_t otherBytes = 0;
    getOperation().walk([&](LocalAllocOp alloc) {
      if (alloc->getParentOfType<KernelOp>() !=
              loop->getParentOfType<KernelOp>() ||
          llvm::any_of(prefetches,
                       [&](const Prefetch &p) { return p.alloc == alloc; }))
        return;
      otherBytes += alloc.getResult().getType().getSizeInBytes();
    });
    int64_t fit = (int64_t(sharedBytes) - 8192 - otherBytes) /
                  std::max<int64_t>(stageBytes, 1);
    const int64_t numStages = std::min(stagesWanted, fit);
    if (numStages < 2)
      return;

    MLIRContext *ctx = loop.getContext();
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    auto cst = [&](OpBuilder &bb, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(bb, loc, v);
    };
    SmallVector<Value> rings;
    SmallVector<SharedMemType> stageTypes;
    SmallVector<Value> views;
    SmallVector<CachePolicyAttr> caches;
    for (Prefetch p : prefetches) {
      SharedMemType stage = p.alloc.getResult().getType();
      stageTypes.push_back(stage);
      views.push_back(p.load.getView());
      caches.push_back(p.load.getCacheAttr());
      SmallVector<int64_t> shape = {numStages};
      shape.append(stage.getShape().begin(), stage.getShape().end());
      rings.push_back(LocalAllocOp::create(
          b, loc,
          SharedMemType::get(ctx, shape, stage.getElementType(),
                             stage.getEncoding()),
          Value()));
    }
    // TMA: one arrival (with its byte count) per copy; cp.async: one per
    // thread and copy.
    const int64_t threads = 32 * int64_t(numWarpsOf(loop));
    Value full = BarrierAllocOp::create(
        b, loc, SharedMemType::get(ctx, {numStages}, b.getI64Type(), {}),
        int64_t(prefetches.size()) * (cpAsync ? threads : 1));

    // The copies of the iteration whose induction variable is `iv`, into
    // `stage`.
    auto issue = [&](OpBuilder &bb, Value iv, Value stage) {
      IRMapping map;
      map.map(loop.getInductionVar(), iv);
      for (Operation *op : *slice)
        bb.clone(*op, map);
      for (auto [j, ring] : llvm::enumerate(rings)) {
        Value dest = LocalIndexOp::create(bb, loc, stageTypes[j], ring, stage);
        SmallVector<Value> idx;
        for (Value v : loadIndices[j])
          idx.push_back(map.lookupOrDefault(v));
        std::optional<int64_t> rowsDim = prefetches[j].rowsDim;
        AsyncLoadOp::create(
            bb, loc, views[j], idx, dest, full, stage, caches[j],
            rowsDim ? bb.getI64IntegerAttr(*rowsDim) : IntegerAttr(),
            cpAsync ? bb.getUnitAttr() : UnitAttr());
      }
    };
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
          step = loop.getStep();
    // The loop's own comparison: an unsigned loop from a "negative" lower
    // bound runs no iteration, and its copies must not either.
    const arith::CmpIPredicate below = loop.getUnsignedCmp()
                                           ? arith::CmpIPredicate::ult
                                           : arith::CmpIPredicate::slt;
    auto inRange = [&](OpBuilder &bb, Value iv) {
      return arith::CmpIOp::create(bb, loc, below, iv, ub);
    };
    // Prologue: iterations 0 .. S-2.
    for (int64_t s = 0; s + 1 < numStages; ++s) {
      Value iv = arith::AddIOp::create(
          b, loc, lb, arith::MulIOp::create(b, loc, step, cst(b, s)));
      auto guard = scf::IfOp::create(b, loc, inRange(b, iv), false);
      OpBuilder then = guard.getThenBodyBuilder();
      issue(then, iv, cst(then, s));
    }

    // Top of the body: wait for this iteration's stage.
    OpBuilder top = OpBuilder::atBlockBegin(loop.getBody());
    Value iter = arith::DivUIOp::create(
        top, loc, arith::SubIOp::create(top, loc, loop.getInductionVar(), lb),
        step);
    Value stage = arith::RemUIOp::create(top, loc, iter, cst(top, numStages));
    Value round = arith::DivUIOp::create(top, loc, iter, cst(top, numStages));
    Value phase = arith::TruncIOp::create(
        top, loc, top.getI1Type(),
        arith::IndexCastUIOp::create(top, loc, top.getI64Type(), round));
    auto waitStage = BarrierWaitOp::create(top, loc, full, stage, phase);
    for (auto [p, ring] : llvm::zip(prefetches, rings)) {
      OpBuilder at(p.alloc);
      Value view = LocalIndexOp::create(at, loc, p.alloc.getResult().getType(),
                                        ring, stage);
      p.alloc.getResult().replaceAllUsesWith(view);
      Operation *reshape = p.alloc.getInit().getDefiningOp();
      p.alloc.erase();
      if (reshape != p.load)
        reshape->erase();
      p.load.erase();
    }

    // Keep the last wgmma group in flight where its result only feeds the
    // next iteration; wait for it after the loop.
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    SmallVector<std::pair<WarpgroupMmaWaitOp, unsigned>> relaxed;
    for (WarpgroupMmaOp mma : mmas) {
      // A register A must not be rewritten while its wgmma runs.
      if (!mma->hasOneUse() || mma.getRegisterA())
        continue;
      auto wait = dyn_cast<WarpgroupMmaWaitOp>(*mma->getUsers().begin());
      if (!wait || !wait->hasOneUse() || *wait->getUsers().begin() != yield)
        continue;
      OpOperand &use = *wait->getUses().begin();
      auto arg = dyn_cast<BlockArgument>(mma.getAcc());
      // The accumulator must not be read in the loop but by the mma.
      if (!arg || arg != loop.getRegionIterArg(use.getOperandNumber()) ||
          !arg.hasOneUse())
        continue;
      relaxed.push_back({wait, use.getOperandNumber()});
    }
    for (auto [wait, i] : relaxed)
      wait.setPending(1);

    // Bottom: every warpgroup is done with iteration i - 1's stage (and,
    // with no group kept in flight, with iteration i's); refill it with
    // iteration i + S - 1 there, or, with `earlyRefill` and no group in
    // flight across iterations, at the top of the next iteration, before
    // its wait: the stage iteration i released behind this barrier then
    // refills an iteration earlier (S - 1 iterations of lead, not S - 2).
    OpBuilder bottom(yield);
    SyncThreadsOp::create(bottom, loc);
    OpBuilder refill =
        earlyRefill && relaxed.empty() ? OpBuilder(waitStage) : bottom;
    Value ahead = arith::AddIOp::create(
        refill, loc, loop.getInductionVar(),
        arith::MulIOp::create(refill, loc, step, cst(refill, numStages - 1)));
    Value nextStage = arith::RemUIOp::create(
        refill, loc,
        arith::AddIOp::create(refill, loc, iter, cst(refill, numStages - 1)),
        cst(refill, numStages));
    auto guard = scf::IfOp::create(refill, loc, inRange(refill, ahead), false);
    OpBuilder then = guard.getThenBodyBuilder();
    issue(then, ahead, nextStage);

    OpBuilder after(loop->getBlock(), std::next(loop->getIterator()));
    for (auto [wait, i] : relaxed) {
      Value result = loop.getResult(i);
      auto done = WarpgroupMmaWaitOp::create(after, loc, result, 0);
      result.replaceAllUsesExcept(done.getResult(), done);
    }
  }
};

} // namespace
} // namespace tessera::tile
