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

} // namespace tessera::tile

#endif // TESSERA_PASSES_PASSES_H
