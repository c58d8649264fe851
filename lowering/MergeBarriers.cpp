//===- MergeBarriers.cpp - one CTA barrier where two order the same ------===//
//
// Each shared-memory exchange of the lowering is fenced on both sides: a
// barrier before its stores (earlier readers of the scratch are done) and
// one after its loads (the next exchange may reuse it). Back to back, the
// second exchange's first barrier follows the first one's last with only
// arithmetic (or shuffles) between them, and ptxas keeps both. A barrier
// orders the memory accesses before it against those after it, for every
// thread of the CTA; a second barrier with no memory access, call, inline
// assembly other than a shuffle, or control flow since the first orders
// nothing more, and goes.
//
//===----------------------------------------------------------------------===//

#include "lowering/LoweringPasses.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tessera::lowering {
#define GEN_PASS_DEF_TILEMERGEBARRIERS
#include "lowering/Passes.h.inc"

using namespace mlir;

namespace {

/// Inline assembly that only moves registers between the lanes of a warp:
/// the lowering's shuffles.
bool isShuffle(Operation &op) {
  auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op);
  if (!asmOp)
    return false;
  // One instruction only: nothing after the shuffle may hide an access.
  llvm::StringRef text = asmOp.getAsmString();
  return text.starts_with("shfl.sync.") && text.count(';') <= 1;
}

/// Erases the barriers of `block` that follow another with nothing in
/// between that touches memory.
void mergeBarriers(Block &block) {
  bool afterBarrier = false; // no memory access since the last barrier
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isa<NVVM::Barrier0Op>(op)) {
      if (afterBarrier)
        op.erase();
      afterBarrier = true;
      continue;
    }
    // Shuffles touch no memory. Regions, calls, other inline assembly
    // (wgmma, ldmatrix, cp.async and the like read and write shared memory
    // there, whatever the op declares) and anything with effects (loads,
    // stores, other synchronisation) end the run.
    if (isShuffle(op))
      continue;
    if (op.getNumRegions() != 0 || isa<LLVM::InlineAsmOp>(op) ||
        !isMemoryEffectFree(&op))
      afterBarrier = false;
  }
}

struct TileMergeBarriersPass
    : impl::TileMergeBarriersBase<TileMergeBarriersPass> {
  void runOnOperation() override {
    getOperation()->walk([&](Block *block) { mergeBarriers(*block); });
  }
};

} // namespace
} // namespace tessera::lowering
