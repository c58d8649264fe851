//===- OrderGlobalMemory.cpp - barriers between conflicting view accesses -===//
//
// A tile's elements are spread over the program's threads by its layout,
// and a load or store of it is each thread's own accesses. So when a
// kernel stores to a view and later loads from it, other threads than the
// writers may read those elements, and nothing makes them wait for the
// writes: the load can return old values. A store after a load of the same
// elements can likewise overwrite them before another thread has read
// them. `tile.sync_threads` (bar.sync) orders both. Two stores of one
// element land in either order, as in CUDA without a barrier: kernels
// store disjoint tiles (the rows of a loop, the planes of a result), which
// telling apart from overlapping ones would take index analysis, and a
// barrier between every two stores of a view would serialize every loop
// that writes one.
//
// The pass walks each kernel in program order with the views accessed
// since the last barrier (read, written), and puts a barrier before an
// access that conflicts with them: a load of a written view, a store to a
// read one. Through `scf.if` either branch may have run; at the
// top of a loop body the previous iteration's accesses count too (a few
// rounds to a fixed point), and a loop that may not run leaves the
// accesses before it pending. A conflict with accesses before a loop is
// ordered once, before the loop, not in every iteration.
//
// Views are compared as values: distinct view arguments are taken not to
// overlap in memory (the runtimes hand each its own buffer).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseSet.h"

namespace tessera::tile {
#define GEN_PASS_DEF_TILEORDERGLOBALMEMORY
#include "passes/Passes.h.inc"

using namespace mlir;

namespace {

/// The views accessed since the last barrier.
struct Pending {
  llvm::DenseSet<Value> reads, writes;

  void clear() {
    reads.clear();
    writes.clear();
  }
  void merge(const Pending &o) {
    reads.insert(o.reads.begin(), o.reads.end());
    writes.insert(o.writes.begin(), o.writes.end());
  }
  bool operator==(const Pending &o) const {
    return reads == o.reads && writes == o.writes;
  }
  bool conflictsWithLoad(Value view) const { return writes.contains(view); }
  bool conflictsWithStore(Value view) const { return reads.contains(view); }
};

/// Every view `op` (and what it holds) loads and stores.
Pending accessesOf(Operation *op) {
  Pending all;
  op->walk([&](Operation *inner) {
    if (auto load = dyn_cast<LoadOp>(inner))
      all.reads.insert(load.getView());
    else if (auto store = dyn_cast<StoreOp>(inner))
      all.writes.insert(store.getView());
  });
  return all;
}

class Orderer {
public:
  /// Walks `block` from `state`; returns the state at its end. With
  /// `insert` false, only computes it (as if the barriers were there).
  Pending walk(Block &block, Pending state, bool insert) {
    for (Operation &op : llvm::make_early_inc_range(block))
      visit(&op, state, insert);
    return state;
  }

private:
  void barrierBefore(Operation *op, Pending &state, bool insert) {
    if (insert) {
      OpBuilder b(op);
      SyncThreadsOp::create(b, op->getLoc());
    }
    state.clear();
  }

  /// The state at the top of a loop body: `entry` and whatever an
  /// iteration leaves pending for the next (`iterate` walks one iteration).
  template <typename Fn> Pending topOfLoop(const Pending &entry, Fn iterate) {
    Pending in = entry;
    for (int round = 0; round < 8; ++round) {
      Pending next = entry;
      next.merge(in);
      next.merge(iterate(in));
      if (next == in)
        break;
      in = std::move(next);
    }
    return in;
  }

  void visit(Operation *op, Pending &state, bool insert) {
    if (isa<SyncThreadsOp>(op)) {
      state.clear();
      return;
    }
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (state.conflictsWithLoad(load.getView()))
        barrierBefore(op, state, insert);
      state.reads.insert(load.getView());
      return;
    }
    if (auto store = dyn_cast<StoreOp>(op)) {
      if (state.conflictsWithStore(store.getView()))
        barrierBefore(op, state, insert);
      state.writes.insert(store.getView());
      return;
    }
    if (op->getNumRegions() == 0)
      return;
    // Accesses before a loop that conflict with the loop's: one barrier
    // before it instead of one in each iteration.
    if (isa<scf::ForOp, scf::WhileOp>(op)) {
      Pending inside = accessesOf(op);
      bool conflict =
          llvm::any_of(inside.reads,
                       [&](Value v) { return state.conflictsWithLoad(v); }) ||
          llvm::any_of(inside.writes,
                       [&](Value v) { return state.conflictsWithStore(v); });
      if (conflict)
        barrierBefore(op, state, insert);
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      Pending top = topOfLoop(state, [&](const Pending &in) {
        return walk(*loop.getBody(), in, /*insert=*/false);
      });
      state.merge(walk(*loop.getBody(), top, insert));
      return;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      // before, then (after, before) while the condition holds; the loop
      // leaves from `before`.
      Block &before = loop.getBefore().front(),
            &after = loop.getAfter().front();
      Pending top = topOfLoop(state, [&](const Pending &in) {
        return walk(after, walk(before, in, false), false);
      });
      Pending leaving = walk(before, top, insert);
      walk(after, leaving, insert);
      state = std::move(leaving);
      return;
    }
    // scf.if and other region ops: any one region may have run, or none
    // where a region is empty (an scf.if without else).
    Pending out;
    for (Region &region : op->getRegions()) {
      if (region.empty())
        out.merge(state);
      for (Block &block : region)
        out.merge(walk(block, state, insert));
    }
    state = std::move(out);
  }
};

struct TileOrderGlobalMemoryPass
    : impl::TileOrderGlobalMemoryBase<TileOrderGlobalMemoryPass> {
  void runOnOperation() override {
    getOperation().walk([](KernelOp kernel) {
      for (Block &block : kernel->getRegion(0))
        Orderer().walk(block, Pending(), /*insert=*/true);
    });
  }
};

} // namespace
} // namespace tessera::tile
