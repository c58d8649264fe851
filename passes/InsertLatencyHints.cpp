//===- InsertLatencyHints.cpp - the cost model of load/store hints
//---------===//

#include "passes/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cmath>

namespace tessera::tile {
#define GEN_PASS_DEF_TILEINSERTLATENCYHINTS
#include "passes/Passes.h.inc"

using namespace mlir;

namespace {

/// What a value depends on: the grid dimensions it reads and whether it
/// depends on `iv`.
struct Dependence {
  unsigned gridDims = 0; // bit d set: depends on program_id d
  bool onIv = false;
};

void collect(Value v, Value iv, Dependence &dep,
             llvm::SmallPtrSetImpl<Operation *> &seen) {
  if (v == iv)
    dep.onIv = true;
  Operation *def = v.getDefiningOp();
  if (!def || !seen.insert(def).second)
    return;
  if (auto pid = dyn_cast<ProgramIdOp>(def)) {
    dep.gridDims |= 1u << unsigned(pid.getDim());
    return;
  }
  for (Value operand : def->getOperands())
    collect(operand, iv, dep, seen);
}

Dependence dependenceOf(ValueRange indices, Value iv) {
  Dependence dep;
  llvm::SmallPtrSet<Operation *, 16> seen;
  for (Value v : indices)
    collect(v, iv, dep, seen);
  return dep;
}

int64_t tileBytes(RankedTensorType t) {
  int64_t bits = t.getElementType().getIntOrFloatBitWidth();
  return t.getNumElements() * std::max<int64_t>(1, bits / 8);
}

struct InsertLatencyHintsPass
    : impl::TileInsertLatencyHintsBase<InsertLatencyHintsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    getOperation().walk([&](KernelOp kernel) {
      unsigned usedDims = 0;
      kernel.walk(
          [&](ProgramIdOp pid) { usedDims |= 1u << unsigned(pid.getDim()); });
      llvm::SmallPtrSet<Value, 8> loadedViews;
      kernel.walk([&](LoadOp load) { loadedViews.insert(load.getView()); });

      auto latencyFor = [&](Operation *op, ValueRange indices,
                            RankedTensorType type) {
        auto loop = op->getParentOfType<scf::ForOp>();
        if (!loop || !dependenceOf(indices, loop.getInductionVar()).onIv)
          return 1;
        double kb = std::max<double>(1.0, tileBytes(type) / 1024.0);
        return int(std::min<double>(10, 2 + std::floor(std::log2(kb))));
      };
      auto policy = [&](CachePolicy p) { return CachePolicyAttr::get(ctx, p); };
      kernel.walk([&](LoadOp load) {
        if (!load.getLatency())
          load.setLatencyAttr(IntegerAttr::get(
              IntegerType::get(ctx, 32),
              latencyFor(load, load.getIndices(), load.getType())));
        if (!load.getCache()) {
          Dependence dep = dependenceOf(load.getIndices(), Value());
          bool shared = (usedDims & ~dep.gridDims) != 0;
          load.setCacheAttr(policy(shared ? CachePolicy::evict_last
                                          : CachePolicy::evict_first));
        }
      });
      kernel.walk([&](StoreOp store) {
        if (!store.getLatency())
          store.setLatencyAttr(IntegerAttr::get(IntegerType::get(ctx, 32), 1));
        if (!store.getCache())
          store.setCacheAttr(policy(loadedViews.contains(store.getView())
                                        ? CachePolicy::normal
                                        : CachePolicy::evict_first));
      });
    });
  }
};

} // namespace
} // namespace tessera::tile
