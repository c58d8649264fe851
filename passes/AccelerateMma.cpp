//===- AccelerateMma.cpp - tile.mma onto Tensor Core layouts
//---------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// The widest wgmma/TMA swizzle (128, 64 or 32 bytes) a rows x cols tile of
/// `elementBytes` allows, or 0 when none does.
unsigned swizzleFor(int64_t rows, int64_t cols, int64_t elementBytes) {
  for (unsigned span : {128u, 64u, 32u})
    if ((cols * elementBytes) % span == 0 && rows % (1024 / span) == 0)
      return span;
  return 0;
}

/// How wgmma takes an M x N x K mma on `numWarps` warps: warps along M
/// (whole warpgroups of 64 rows) and N, and the instruction N.
struct WgmmaShape {
  unsigned wm, wn;
  int64_t instrN;
};

/// Warpgroups stack along M while M has 64 rows for each; with
/// `alongN` the rest split N (so eight warps still take a 64-row product
/// on wgmma). Nullopt when wgmma cannot take the shape.
std::optional<WgmmaShape> wgmmaShape(int64_t m, int64_t n, int64_t k,
                                     unsigned numWarps, bool alongN,
                                     int64_t kStep) {
  if (numWarps % 4 != 0 || m % 64 != 0 || k % kStep != 0)
    return std::nullopt;
  unsigned wm = numWarps;
  while (alongN && wm > 4 && m % (16 * wm) != 0)
    wm /= 2;
  if (m % (16 * wm) != 0)
    return std::nullopt;
  const unsigned wn = numWarps / wm;
  if (n % wn != 0)
    return std::nullopt;
  int64_t instrN = std::min<int64_t>(n / wn, 256);
  if (instrN % 8 != 0 || n % (instrN * wn) != 0)
    return std::nullopt;
  return WgmmaShape{wm, wn, instrN};
}

/// An mma.sync operand in fragment layout `type`: through a swizzled
/// shared-memory buffer read back with ldmatrix when a swizzle fits the
/// tile, else a plain layout conversion.
Value toFragments(OpBuilder &builder, Location loc, Value operand,
                  RankedTensorType type) {
  auto t = cast<RankedTensorType>(operand.getType());
  int64_t bytes = t.getElementType().getIntOrFloatBitWidth() / 8;
  unsigned swizzle = swizzleFor(t.getDimSize(0), t.getDimSize(1), bytes);
  if (!swizzle || !getLayout(t))
    return ConvertLayoutOp::create(builder, loc, type, operand);
  MLIRContext *ctx = builder.getContext();
  auto smem = SharedMemType::get(ctx, t.getShape(), t.getElementType(),
                                 NvmmaSharedLayoutAttr::get(ctx, swizzle));
  Value buffer = LocalAllocOp::create(builder, loc, smem, operand);
  return LocalLoadOp::create(builder, loc, type, buffer);
}

/// The tile a 2-D transpose reads, or null.
Value transposeSource(Value v) {
  auto permute = v.getDefiningOp<PermuteOp>();
  if (!permute || permute.getPermutation() != ArrayRef<int64_t>{1, 0})
    return Value();
  return permute.getSource();
}

/// The blocked layout of the 2-D transpose of a tile in `layout`: the same
/// threads and registers hold the same elements, so the transpose moves
/// no data.
BlockedLayoutAttr transposedLayout(BlockedLayoutAttr layout) {
  auto swap = [](ArrayRef<unsigned> v) {
    return SmallVector<unsigned>{v[1], v[0]};
  };
  SmallVector<unsigned> order;
  for (unsigned d : layout.getOrder())
    order.push_back(1 - d);
  return BlockedLayoutAttr::get(
      layout.getContext(), swap(layout.getSizePerThread()),
      swap(layout.getThreadsPerWarp()), swap(layout.getWarpsPerCTA()), order);
}

/// An f32 tile rounded to tf32 (nearest, as mma.sync's fragments are) and
/// held as f32 again, so that wgmma, which reads the top 19 bits of each
/// f32 in shared memory, multiplies what mma.sync and the interpreter do.
Value roundedToTf32(OpBuilder &builder, Location loc, Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  auto as = [&](Type element) {
    return RankedTensorType::get(t.getShape(), element, t.getEncoding());
  };
  if (t.getElementType().isF32())
    v = arith::TruncFOp::create(
        builder, loc, as(FloatTF32Type::get(builder.getContext())), v);
  return arith::ExtFOp::create(builder, loc, as(builder.getF32Type()), v);
}

/// tile.mma -> local_alloc A and B into swizzled shared memory, wgmma on
/// the version 3 accumulator, wait. An operand that is a transpose is
/// written as its source and read transposed by wgmma (no exchange); tf32
/// operands must both be K-major, so a B that is K x N is transposed in
/// registers and written N x K. Fails (leaving the op) when the shape or
/// the operand tiles do not fit.
LogicalResult toWarpgroupMma(MmaOp op, unsigned numWarps, bool alongN,
                             bool tf32) {
  MLIRContext *ctx = op.getContext();
  RankedTensorType a = op.getA().getType(), b = op.getB().getType(),
                   c = op.getAcc().getType();
  int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = b.getDimSize(1);
  int64_t bytes = tf32 ? 4 : a.getElementType().getIntOrFloatBitWidth() / 8;
  std::optional<WgmmaShape> shape =
      wgmmaShape(m, n, k, numWarps, alongN, tf32 ? 8 : 16);
  if (!shape)
    return failure();
  // Each operand as stored: itself, or the source of its transpose.
  Value storedA = op.getA(), storedB = op.getB();
  if (Value src = transposeSource(storedA);
      !tf32 && src && getLayout(src.getType()))
    storedA = src;
  if (Value src = transposeSource(storedB); src && getLayout(src.getType()))
    storedB = src;
  if (tf32 && storedB == op.getB() &&
      !isa_and_nonnull<BlockedLayoutAttr>(getLayout(b)))
    return failure();
  auto ta = cast<RankedTensorType>(storedA.getType()),
       tb = cast<RankedTensorType>(storedB.getType());
  // B stored K x N (N contiguous) is stepped by instrN columns: its
  // swizzle rows must not be wider than one step.
  const int64_t colsB = storedB == op.getB()
                            ? std::min<int64_t>(tb.getDimSize(1), shape->instrN)
                            : tb.getDimSize(1);
  // tf32: a B that is K x N goes to shared memory as N x K.
  const bool transposeB = tf32 && storedB == op.getB();
  unsigned swizzleA = swizzleFor(ta.getDimSize(0), ta.getDimSize(1), bytes),
           swizzleB = transposeB ? swizzleFor(tb.getDimSize(1),
                                              tb.getDimSize(0), bytes)
                                 : swizzleFor(tb.getDimSize(0), colsB, bytes);
  if (!swizzleA || !swizzleB || !getLayout(ta) || !getLayout(tb))
    return failure();
  OpBuilder builder(op);
  Location loc = op.getLoc();
  if (tf32) {
    storedA = roundedToTf32(builder, loc, storedA);
    storedB = roundedToTf32(builder, loc, storedB);
    if (transposeB) {
      auto blocked = cast<BlockedLayoutAttr>(getLayout(b));
      auto nk = RankedTensorType::get({n, k}, builder.getF32Type(),
                                      transposedLayout(blocked));
      storedB = PermuteOp::create(builder, loc, nk, storedB,
                                  builder.getDenseI64ArrayAttr({1, 0}));
    }
    ta = cast<RankedTensorType>(storedA.getType());
    tb = cast<RankedTensorType>(storedB.getType());
  }
  auto smem = [&](RankedTensorType t, unsigned swizzle) {
    return SharedMemType::get(ctx, t.getShape(), t.getElementType(),
                              NvmmaSharedLayoutAttr::get(ctx, swizzle));
  };
  Value sa = LocalAllocOp::create(builder, loc, smem(ta, swizzleA), storedA);
  Value sb = LocalAllocOp::create(builder, loc, smem(tb, swizzleB), storedB);
  auto mma = MmaLayoutAttr::get(ctx, 3, {shape->wm, shape->wn},
                                {64, unsigned(shape->instrN)});
  Value acc =
      ConvertLayoutOp::create(builder, loc, withLayout(c, mma), op.getAcc());
  // The buffers hold A as M x K unless it was stored from its transpose's
  // source, B as N x K when it came from a transpose's source or (tf32)
  // was transposed above.
  const bool transA = tf32 ? false : storedA != op.getA();
  const bool transB = tf32 ? true : storedB != op.getB();
  Value d = WarpgroupMmaOp::create(builder, loc, acc.getType(), sa, sb, acc,
                                   transA, transB);
  Value done = WarpgroupMmaWaitOp::create(builder, loc, d, 0);
  Value back = ConvertLayoutOp::create(builder, loc, c, done);
  op.getResult().replaceAllUsesWith(back);
  op.erase();
  return success();
}

struct AccelerateMmaPass : impl::TileAccelerateMmaBase<AccelerateMmaPass> {
  using TileAccelerateMmaBase::TileAccelerateMmaBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (target != "sm_80" && target != "sm_90a") {
      module.emitError("tile-accelerate-mma: unknown target '")
          << target << "' (expected sm_80 or sm_90a)";
      return signalPassFailure();
    }
    module.walk([&](MmaOp op) {
      const unsigned numWarps = numWarpsOf(op);
      RankedTensorType a = op.getA().getType(), b = op.getB().getType(),
                       c = op.getAcc().getType();
      Type in = a.getElementType();
      // f32 inputs go to tf32 Tensor Cores (m16n8k8) unless the author
      // asked for exact products.
      const bool tf32 = isa<FloatTF32Type>(in) ||
                        (in.isF32() && op.getPrecision() != MmaPrecision::ieee);
      if ((!tf32 && !isa<BFloat16Type, Float16Type>(in)) || !getLayout(c) ||
          isa<MmaLayoutAttr>(c.getEncoding()))
        return;
      // tf32x3 (three products of split operands) stays on mma.sync.
      const bool split = op.getPrecision() == MmaPrecision::tf32x3;
      if (target == "sm_90a" && !split && (!tf32 || wgmmaTf32) &&
          succeeded(toWarpgroupMma(op, numWarps, warpgroupsAlongN, tf32)))
        return;
      int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = b.getDimSize(1);
      auto warps = warpsFor(m, n, numWarps);
      if (!warps || k % (tf32 ? 8 : 16) != 0)
        return;
      auto mma =
          MmaLayoutAttr::get(ctx, 2, {warps->first, warps->second}, {16, 8});
      const unsigned kWidth = tf32 ? 1 : 2;
      auto opA = DotOperandLayoutAttr::get(ctx, 0, mma, kWidth);
      auto opB = DotOperandLayoutAttr::get(ctx, 1, mma, kWidth);
      OpBuilder builder(op);
      Location loc = op.getLoc();
      Value newA = toFragments(builder, loc, op.getA(), withLayout(a, opA));
      Value newB = toFragments(builder, loc, op.getB(), withLayout(b, opB));
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
