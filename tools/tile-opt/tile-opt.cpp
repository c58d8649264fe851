//===- tile-opt.cpp - the tile compiler driver
//-----------------------------===//
//
// MlirOptMain with the tile dialect, the upstream dialects a tile kernel uses
// and the generic passes (canonicalize, cse, ...).
//
//===----------------------------------------------------------------------===//

#include "dialect/TileDialect.h"
#include "lowering/Compile.h"
#include "lowering/LoweringPasses.h"
#include "passes/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Pass/PassRegistry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::registerSCFToControlFlowPass();
  mlir::registerReconcileUnrealizedCastsPass();
  tessera::tile::registerTilePasses();
  tessera::lowering::registerTileLoweringPasses();
  // The whole lowering, level-1 tile IR to the LLVM/NVVM dialects.
  mlir::PassPipelineRegistration<>(
      "tile-lower-to-llvm", "tile IR to the LLVM/NVVM dialects",
      [](mlir::OpPassManager &pm) {
        tessera::lowering::buildLoweringPipeline(pm, {});
      });
  mlir::DialectRegistry registry;
  tessera::lowering::registerLoweringDialects(registry);
  registry.insert<mlir::func::FuncDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Tessera tile compiler driver\n", registry));
}
