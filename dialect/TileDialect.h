//===- TileDialect.h - the tile dialect -------------------------*- C++ -*-===//

#ifndef TESSERA_DIALECT_TILEDIALECT_H
#define TESSERA_DIALECT_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "dialect/TileDialect.h.inc"
#include "dialect/TileEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/TileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialect/TileTypes.h.inc"

namespace tessera::tile {

/// A tile is a ranked tensor of rank >= 1 whose dimensions are static powers
/// of two, with a float (f16, bf16, tf32, f32, f64) or signless integer
/// element type, and either no encoding (level 1) or a layout of the tile
/// dialect of its rank (level 2); an mma layout is 2-D, on a tensor of two
/// dimensions or with unit dimensions in front of them.
bool isTileType(mlir::Type type);

/// The layout of a level-2 tile type: a distributed layout (blocked, mma or
/// dot_operand); null at level 1.
mlir::Attribute getLayout(mlir::Type type);

/// True for the layouts a tile in registers can have.
bool isDistributedLayout(mlir::Attribute attr);

/// The name of the module attribute holding the warps per CTA of its
/// kernels without a num_warps of their own (level 2); the lowering also
/// puts it on each kernel's llvm.func.
inline constexpr const char *kNumWarpsAttrName = "tile.num_warps";

/// True if `type` may be the element type of a tile or a view.
bool isTileElementType(mlir::Type type);

/// Registers the dialects a tile kernel may contain (tile, arith, math, scf).
void registerTileKernelDialects(mlir::DialectRegistry &registry);

} // namespace tessera::tile

#endif // TESSERA_DIALECT_TILEDIALECT_H
