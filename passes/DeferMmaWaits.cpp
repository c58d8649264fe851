//===- DeferMmaWaits.cpp - independent wgmma groups in flight together ----===//
//
// tile-accelerate-mma waits for every wgmma right after issuing it, so the
// four real products of a complex product run one after the other, each
// paying the Tensor Core's whole latency. This pass lets them overlap:
//
//   - a product that accumulates onto another one of the same shape takes
//     the other's in-flight result (wgmma orders accumulator accesses
//     between instructions of one shape: PTX ISA, wgmma.fence), and the
//     wait between them goes away;
//   - every other pending-0 wait moves down to just before the first op
//     that reads its result, so the products issued in between run while
//     it waits.
//
// Waits stay pending 0 (the first one reached waits for every group issued
// so far), so the lifetimes of the shared-memory operands end at the wait
// that follows them. A wait does not move past an op with regions, a
// terminator, a CTA barrier (tile-pipeline's `wait; sync_threads` tells the
// other warps that a ring stage may be overwritten), an asynchronous copy
// into shared memory (which could overwrite an operand still being read),
// a new buffer (whose memory could otherwise not be shared with the
// operands': shared memory decides how many CTAs fit an SM), a group
// tile-pipeline keeps in flight with a pending-1 wait (a wait 0 below it
// would drain that group), or an op reading a value a wgmma carried across
// the loop's back edge (ptxas would insert a wait there). Products are
// chained only where the wait between them could have moved that far.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace tessera::tile {
#define GEN_PASS_DEF_TILEDEFERMMAWAITS
#include "passes/Passes.h.inc"

using namespace mlir;

namespace {

/// The wgmma a pending-0 wait waits for, when both lie in one block.
WarpgroupMmaOp waitedMma(WarpgroupMmaWaitOp wait) {
  auto mma = wait.getAcc().getDefiningOp<WarpgroupMmaOp>();
  if (!mma || wait.getPending() != 0 || mma->getBlock() != wait->getBlock())
    return {};
  return mma;
}

/// Whether `v` is a loop-carried value that a wgmma wrote in the previous
/// iteration. ptxas does not follow the back edge: registers such a value
/// sits in count as written by a Tensor Core instruction, so touching them
/// while another group is in flight makes it insert a wait there.
bool carriedFromMma(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  auto loop =
      arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()) : scf::ForOp();
  if (!loop || arg.getArgNumber() == 0)
    return false;
  Value yielded =
      loop.getBody()->getTerminator()->getOperand(arg.getArgNumber() - 1);
  return isa_and_nonnull<WarpgroupMmaOp, WarpgroupMmaWaitOp>(
      yielded.getDefiningOp());
}

/// Whether `op` lets a wait move below it: not when it needs the
/// products done (an op with regions or a terminator, a CTA barrier that
/// tells other warps the operands were read, a copy or a new buffer that
/// may reuse their memory), when it reads a value a wgmma carried across
/// the loop's back edge (ptxas would wait there anyway), nor when it issues
/// or waits for a group that tile-pipeline keeps in flight (a wait 0 below
/// it would drain that group).
bool canSinkPast(Operation *op, WarpgroupMmaWaitOp wait) {
  if (op->hasTrait<OpTrait::IsTerminator>() || op->getNumRegions() != 0 ||
      isa<AsyncLoadOp, LocalAllocOp, SyncThreadsOp>(op) ||
      llvm::any_of(op->getOperands(), carriedFromMma))
    return false;
  if (auto other = dyn_cast<WarpgroupMmaWaitOp>(op); other && other != wait)
    if (other.getPending() != 0)
      return false;
  if (auto mma = dyn_cast<WarpgroupMmaOp>(op))
    for (Operation *user : mma->getUsers())
      if (auto w = dyn_cast<WarpgroupMmaWaitOp>(user); w && w.getPending())
        return false;
  return llvm::none_of(wait->getUsers(),
                       [&](Operation *user) { return op->isAncestor(user); });
}

/// mma(acc = wait(prev)) with nothing else reading prev or the wait, prev
/// and mma of one instruction shape, and nothing between the wait and mma
/// that a wait may not move past: mma accumulates onto prev's in-flight
/// result and the wait goes (the one for mma completes both).
void chainAccumulators(ModuleOp module) {
  SmallVector<WarpgroupMmaOp> mmas;
  module.walk([&](WarpgroupMmaOp mma) { mmas.push_back(mma); });
  for (WarpgroupMmaOp mma : mmas) {
    auto wait = mma.getAcc().getDefiningOp<WarpgroupMmaWaitOp>();
    if (!wait || !wait->hasOneUse() || wait->getBlock() != mma->getBlock())
      continue;
    WarpgroupMmaOp prev = waitedMma(wait);
    // The accumulator type fixes M, N and the layout; the A type fixes K.
    if (!prev || !prev->hasOneUse() || prev.getType() != mma.getType() ||
        prev.getAElementType() != mma.getAElementType())
      continue;
    bool clear = true;
    for (Operation *op = wait->getNextNode(); clear && op != mma;
         op = op->getNextNode())
      clear = canSinkPast(op, wait);
    if (!clear)
      continue;
    mma.getAccMutable().assign(prev.getResult());
    wait->erase();
  }
}

void sinkWaits(ModuleOp module) {
  SmallVector<WarpgroupMmaWaitOp> waits;
  module.walk([&](WarpgroupMmaWaitOp wait) {
    if (waitedMma(wait))
      waits.push_back(wait);
  });
  for (WarpgroupMmaWaitOp wait : waits) {
    Operation *next = wait->getNextNode();
    while (next && canSinkPast(next, wait))
      next = next->getNextNode();
    if (next && next != wait->getNextNode())
      wait->moveBefore(next);
  }
}

struct DeferMmaWaitsPass : impl::TileDeferMmaWaitsBase<DeferMmaWaitsPass> {
  void runOnOperation() override {
    chainAccumulators(getOperation());
    sinkWaits(getOperation());
  }
};

} // namespace
} // namespace tessera::tile
