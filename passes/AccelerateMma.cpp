//===- AccelerateMma.cpp - tile.mma onto Tensor Core layouts
//---------------===//

#include "passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace tessera::tile {
#define GEN_PASS_DEF_TILEACCELERATEMMA
#include "passes/Passes.h.inc"

using namespace mlir;

namespace {

/// Warps along M and N for an M x N accumulator, or nullopt when the
/// m16n8 instruction cannot tile it with every warp busy. Among the
/// arrangements that fit, the one whose warps hold the fewest operand
/// elements (A rows M / wm, B columns N / wn) wins: fewer registers and
/// fewer redundant loads.
std::optional<std::pair<unsigned, unsigned>> warpsFor(int64_t m, int64_t n,
                                                      unsigned numWarps) {
  std::optional<std::pair<unsigned, unsigned>> best;
  int64_t bestCost = 0;
  for (unsigned wm = numWarps; wm >= 1; wm /= 2) {
    unsigned wn = numWarps / wm;
    if (m % (16 * wm) != 0 || n % (8 * wn) != 0)
      continue;
    int64_t cost = m / wm + n / wn;
    if (!best || cost < bestCost) {
      best = std::make_pair(wm, wn);
      bestCost = cost;
    }
  }
  return best;
}

RankedTensorType withLayout(RankedTensorType t, Attribute layout) {
  return RankedTensorType::get(t.getShape(), t.getElementType(), layout);
}

struct AccelerateMmaPass : impl::TileAccelerateMmaBase<AccelerateMmaPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    unsigned numWarps = 4;
    if (auto attr = module->getAttrOfType<IntegerAttr>(kNumWarpsAttrName))
      numWarps = unsigned(attr.getInt());
    module.walk([&](MmaOp op) {
      RankedTensorType a = op.getA().getType(), b = op.getB().getType(),
                       c = op.getAcc().getType();
      Type in = a.getElementType();
      if (!isa<BFloat16Type, Float16Type>(in) || !getLayout(c) ||
          isa<MmaLayoutAttr>(c.getEncoding()))
        return;
      int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = b.getDimSize(1);
      auto warps = warpsFor(m, n, numWarps);
      if (!warps || k % 16 != 0)
        return;
      auto mma =
          MmaLayoutAttr::get(ctx, 2, {warps->first, warps->second}, {16, 8});
      auto opA = DotOperandLayoutAttr::get(ctx, 0, mma, 2);
      auto opB = DotOperandLayoutAttr::get(ctx, 1, mma, 2);
      OpBuilder builder(op);
      Location loc = op.getLoc();
      Value newA =
          ConvertLayoutOp::create(builder, loc, withLayout(a, opA), op.getA());
      Value newB =
          ConvertLayoutOp::create(builder, loc, withLayout(b, opB), op.getB());
      Value newC = ConvertLayoutOp::create(builder, loc, withLayout(c, mma),
                                           op.getAcc());
      Value d = MmaOp::create(builder, loc, withLayout(c, mma), newA, newB,
                              newC, op.getPrecisionAttr());
      Value back = ConvertLayoutOp::create(builder, loc, c, d);
      op.getResult().replaceAllUsesWith(back);
      op.erase();
    });
  }
};

} // namespace
} // namespace tessera::tile
