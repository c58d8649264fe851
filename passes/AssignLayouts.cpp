//===- AssignLayouts.cpp - level 1 -> level 2: a layout on every tile
//------===//

#include "passes/Passes.h"

#include "dialect/LinearLayout.h"

#include "mlir/IR/BuiltinOps.h"

namespace tessera::tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "passes/Passes.h.inc"

using namespace mlir;

namespace {

struct AssignLayoutsPass : impl::TileAssignLayoutsBase<AssignLayoutsPass> {
  using TileAssignLayoutsBase::TileAssignLayoutsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (numWarps == 0 || !llvm::isPowerOf2_32(numWarps) || numWarps > 32) {
      module.emitError("num-warps must be a power of two in 1..32, got ")
          << static_cast<unsigned>(numWarps);
      return signalPassFailure();
    }
    module->setAttr(kNumWarpsAttrName,
                    IntegerAttr::get(IntegerType::get(ctx, 32), numWarps));
    module.walk([&](KernelOp kernel) {
      // A kernel's own num_warps wins over the option (numWarpsOf).
      const unsigned warps = numWarpsOf(kernel);
      auto withLayout = [&](Type type) -> Type {
        auto tensor = dyn_cast<RankedTensorType>(type);
        if (!tensor || tensor.getEncoding())
          return type;
        return RankedTensorType::get(
            tensor.getShape(), tensor.getElementType(),
            defaultBlockedLayout(ctx, tensor.getShape(), warps, vector));
      };
      kernel.walk([&](Operation *op) {
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (BlockArgument arg : block.getArguments())
              arg.setType(withLayout(arg.getType()));
        for (OpResult result : op->getResults())
          result.setType(withLayout(result.getType()));
        // Constants carry their type in their value too.
        if (auto cst = dyn_cast<arith::ConstantOp>(op))
          if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue()))
            if (dense.getType() != cst.getType())
              cst.setValueAttr(dense.reshape(cast<ShapedType>(cst.getType())));
      });
    });
  }
};

} // namespace
} // namespace tessera::tile
