//===- TileOps.h - tile dialect operations ----------------------*- C++ -*-===//

#ifndef TESSERA_DIALECT_TILEOPS_H
#define TESSERA_DIALECT_TILEOPS_H

#include "dialect/TileDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tessera::tile {
/// Fails with a diagnostic unless `op` is nested in a tile.kernel.
mlir::LogicalResult verifyInKernel(mlir::Operation *op);

template <typename ConcreteType>
class InKernel : public mlir::OpTrait::TraitBase<ConcreteType, InKernel> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyInKernel(op);
  }
};
} // namespace tessera::tile

#define GET_OP_CLASSES
#include "dialect/TileOps.h.inc"

namespace tessera::tile {
/// The warps of the kernel that is or holds `op`: its `num_warps`, else
/// the nearest `tile.num_warps` above it (the module's, set by
/// tile-assign-layouts, or the lowered kernel function's), else 4.
unsigned numWarpsOf(mlir::Operation *op);
} // namespace tessera::tile

#endif // TESSERA_DIALECT_TILEOPS_H
