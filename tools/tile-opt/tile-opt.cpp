//===- tile-opt.cpp - the tile compiler driver -----------------------------===//
//
// MlirOptMain with the tile dialect, the upstream dialects a tile kernel uses
// and the generic passes (canonicalize, cse, ...).
//
//===----------------------------------------------------------------------===//

#include "dialect/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::DialectRegistry registry;
  tessera::tile::registerTileKernelDialects(registry);
  registry.insert<mlir::func::FuncDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Tessera tile compiler driver\n", registry));
}
