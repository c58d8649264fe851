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
// overlap in memory (the runtimes hand each its own buffer). Two accesses
// of a view do not conflict when their tiles are disjoint (one shape,
// different constant indices along a dimension) or are one tile in a
// layout where every element has one owner: an in-place update, whose
// threads each read and write their own elements (the cuFFT baseline's
// spectrum product). The lowering keeps such loads in place too: the
// ld.global of a view the kernel stores to is asm with side effects
// (convert-tile-to-llvm), and tile-pipeline copies no such view with TMA,
// whose async proxy a bar.sync does not order.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialect/LinearLayout.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLExtras.h"

namespace tessera::tile {
#define GEN_PASS_DEF_TILEORDERGLOBALMEMORY
#include "passes/Passes.h.inc"

using namespace mlir;

namespace {

/// One load or store: its view, tile indices and tile type.
struct Access {
  Value view;
  SmallVector<Value> indices;
  Type type;

  bool operator==(const Access &o) const {
    return view == o.view && indices == o.indices && type == o.type;
  }
};

Access accessOf(LoadOp load) {
  return {load.getView(), SmallVector<Value>(load.getIndices()),
          load.getType()};
}
Access accessOf(StoreOp store) {
  return {store.getView(), SmallVector<Value>(store.getIndices()),
          store.getValue().getType()};
}

/// Whether each element of a tile of `type` is held by one thread only of
/// a kernel on `warps` warps (a layout over all its lanes and warps, with
/// no lane or warp broadcast): two accesses of one tile in such a layout
/// touch each element from the same thread.
bool ownedByOneThread(Type type, int64_t warps) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  Attribute layout = tensor ? getLayout(tensor) : Attribute();
  if (!layout)
    return false;
  LinearLayout ll = LinearLayout::get(layout, tensor.getShape());
  // Warps (or lanes) the layout does not span hold copies of every element.
  if (ll.numBits(LinearLayout::Lane) != 5 ||
      (int64_t(1) << ll.numBits(LinearLayout::Warp)) != warps)
    return false;
  for (LinearLayout::InDim in : {LinearLayout::Lane, LinearLayout::Warp})
    for (int bit = 0; bit < ll.numBits(in); ++bit)
      if (ll.isBroadcastBit(in, bit))
        return false;
  return true;
}

/// Whether `a` and `b` may touch one element from different threads: same
/// view, not provably disjoint tiles (the same shape at different constant
/// indices along a dimension), and not the same tile in a layout that
/// gives every element one owner (an in-place update: each thread reads
/// and writes its own elements, in its own order).
bool conflict(const Access &a, const Access &b, int64_t warps) {
  if (a.view != b.view)
    return false;
  if (a == b && ownedByOneThread(a.type, warps))
    return false;
  auto sa = cast<RankedTensorType>(a.type).getShape();
  auto sb = cast<RankedTensorType>(b.type).getShape();
  if (sa == sb && a.indices.size() == b.indices.size())
    for (auto [x, y] : llvm::zip(a.indices, b.indices)) {
      std::optional<int64_t> cx = getConstantIntValue(x),
                             cy = getConstantIntValue(y);
      if (cx && cy && *cx != *cy)
        return false;
    }
  return true;
}

/// The loads and stores since the last barrier.
struct Pending {
  SmallVector<Access> reads, writes;

  void clear() {
    reads.clear();
    writes.clear();
  }
  static void add(SmallVector<Access> &to, const Access &a) {
    if (!llvm::is_contained(to, a))
      to.push_back(a);
  }
  void merge(const Pending &o) {
    for (const Access &a : o.reads)
      add(reads, a);
    for (const Access &a : o.writes)
      add(writes, a);
  }
  /// As sets (merge only adds).
  bool sameAs(const Pending &o) const {
    return reads.size() == o.reads.size() && writes.size() == o.writes.size();
  }
  /// Whether accesses made after these race with them: a read of what
  /// they wrote, a write of what they read.
  bool conflictsWith(const Pending &later, int64_t warps) const {
    auto any = [&](ArrayRef<Access> earlier, ArrayRef<Access> after) {
      return llvm::any_of(earlier, [&](const Access &e) {
        return llvm::any_of(
            after, [&](const Access &a) { return conflict(e, a, warps); });
      });
    };
    return any(writes, later.reads) || any(reads, later.writes);
  }
};

/// The access of a tile.load or tile.store; none for other ops.
std::optional<Pending> singleAccess(Operation *op) {
  Pending one;
  if (auto load = dyn_cast<LoadOp>(op))
    one.reads.push_back(accessOf(load));
  else if (auto store = dyn_cast<StoreOp>(op))
    one.writes.push_back(accessOf(store));
  else
    return std::nullopt;
  return one;
}

/// Every load and store `op` holds.
Pending accessesOf(Operation *op) {
  Pending all;
  op->walk([&](Operation *inner) {
    if (std::optional<Pending> one = singleAccess(inner))
      all.merge(*one);
  });
  return all;
}

class Orderer {
public:
  explicit Orderer(int64_t warps) : warps(warps) {}

  /// Walks `block` from `state`; returns the state at its end. With
  /// `insert` false, only computes it (as if the barriers were there).
  Pending walk(Block &block, Pending state, bool insert) {
    for (Operation &op : llvm::make_early_inc_range(block))
      visit(&op, state, insert);
    return state;
  }

private:
  /// The kernel's warps (numWarpsOf).
  int64_t warps;

  void barrierBefore(Operation *op, Pending &state, bool insert) {
    if (insert) {
      OpBuilder b(op);
      SyncThreadsOp::create(b, op->getLoc());
    }
    state.clear();
  }

  /// The state at the top of a loop body: `entry` and whatever an
  /// iteration leaves pending for the next (`iterate` walks one iteration).
  /// Each round only adds views the loop accesses, so it ends.
  template <typename Fn> Pending topOfLoop(const Pending &entry, Fn iterate) {
    Pending in = entry;
    while (true) {
      Pending next = in;
      next.merge(iterate(in));
      if (next.sameAs(in))
        return in;
      in = std::move(next);
    }
  }

  void visit(Operation *op, Pending &state, bool insert) {
    if (isa<SyncThreadsOp>(op)) {
      state.clear();
      return;
    }
    if (std::optional<Pending> one = singleAccess(op)) {
      if (state.conflictsWith(*one, warps))
        barrierBefore(op, state, insert);
      state.merge(*one);
      return;
    }
    if (op->getNumRegions() == 0)
      return;
    // Accesses before a loop that conflict with the loop's: one barrier
    // before it instead of one in each iteration.
    if (isa<scf::ForOp, scf::WhileOp>(op) &&
        state.conflictsWith(accessesOf(op), warps))
      barrierBefore(op, state, insert);
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
        Orderer(numWarpsOf(kernel)).walk(block, Pending(), /*insert=*/true);
    });
  }
};

} // namespace
} // namespace tessera::tile
