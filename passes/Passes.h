//===- Passes.h - tile dialect passes ---------------------------*- C++ -*-===//

#ifndef TESSERA_PASSES_PASSES_H
#define TESSERA_PASSES_PASSES_H

#include "dialect/TileOps.h"

#include "mlir/Pass/Pass.h"

namespace tessera::tile {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

/// Whether a tile.store nested in `root` writes `view`. Distinct views are
/// assumed not to overlap (the runtime refuses launches where a written
/// view does).
inline bool storesTo(mlir::Operation *root, mlir::Value view) {
  return root
      ->walk([&](StoreOp store) {
        return store.getView() == view ? mlir::WalkResult::interrupt()
                                       : mlir::WalkResult::advance();
      })
      .wasInterrupted();
}

} // namespace tessera::tile

#endif // TESSERA_PASSES_PASSES_H
