//===- ExchangeToLLVM.cpp - ops that move tile elements between threads
//----===//
//
// The general, correct path: the source tile goes to shared memory in
// row-major order (each thread writes the elements it holds), then each
// thread reads what its result registers need. convert_layout, reshape,
// broadcast and permute are index maps; gather reads through the index
// tile; reduce and scan combine along the axis in index order (as the
// interpreter does, so results agree bit for bit), except that 32-bit scans,
// and reductions of vectors, whose axis lies along registers, the low lanes
// and warps take warp shuffles (tree order: results differ from the
// interpreter's by rounding only); mma accumulates
// products in f32 with fma (the non-Tensor-Core path). Every exchange is
// fenced by barriers, so one scratch area serves every op of a kernel.
//
//===----------------------------------------------------------------------===//

#include "lowering/Patterns.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tessera::lowering {

namespace {
bool shufflesAcrossWarps(tile::ScanOp op);
std::optional<int64_t> inPlaceReduceScratchBytes(tile::ReduceOp op);

/// For a permute that keeps every element with its thread (the result
/// layout is the source's with its dimensions permuted, registers in any
/// order), the source register of each result register; otherwise empty.
std::vector<int64_t> permuteRegisters(tile::PermuteOp op) {
  RankedTensorType src = op.getSource().getType(), dst = op.getType();
  if (!tile::getLayout(src) || !tile::getLayout(dst))
    return {};
  return tile::registerPermutation(
      tile::permuteLayout(layoutOf(src), op.getPermutation()), layoutOf(dst));
}
} // namespace

namespace {
/// The bytes a tile takes in shared memory: its elements as the registers
/// hold them (tf32 as f32: four bytes, not the three of its 19 bits).
int64_t sharedBytesOf(Type t) {
  auto tensor = cast<RankedTensorType>(t);
  Type e = TileTypeConverter::registerElementType(tensor.getElementType());
  return tensor.getNumElements() * elementBytes(e);
}

/// The bytes between the sources of a gather in its scratch (a multiple of
/// 128, so every source's swizzle pattern starts aligned).
int64_t gatherSourceStride(Type sourceType) {
  return llvm::alignTo(sharedBytesOf(sourceType), 128);
}
} // namespace

int64_t sharedScratchBytes(Operation *op) {
  auto bytesOf = sharedBytesOf;
  if (auto mma = dyn_cast<tile::MmaOp>(op))
    return bytesOf(mma.getA().getType()) + bytesOf(mma.getB().getType());
  if (isa<tile::ConvertLayoutOp, tile::ReshapeOp>(op)) {
    auto src = cast<RankedTensorType>(op->getOperand(0).getType()),
         dst = cast<RankedTensorType>(op->getResult(0).getType());
    // Register moves only (see RowMajorPreservingLowering).
    if (tile::getLayout(src) && tile::getLayout(dst) &&
        !tile::registerPermutation(layoutOf(src), layoutOf(dst)).empty())
      return 0;
  }
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    // In place: one 32-bit partial per thread and register group when
    // warps lie along the axis, nothing otherwise.
    if (std::optional<int64_t> bytes = inPlaceReduceScratchBytes(reduce))
      return *bytes;
    return bytesOf(reduce.getSource().getType());
  }
  if (auto scan = dyn_cast<tile::ScanOp>(op)) {
    // The shuffle path keeps one 32-bit partial per thread and register
    // when warps lie along the axis.
    auto src = cast<RankedTensorType>(op->getOperand(0).getType());
    const int64_t warps = tile::numWarpsOf(op);
    int64_t partials = shufflesAcrossWarps(scan)
                           ? 32 * warps * layoutOf(src).numRegisters() * 4
                           : 0;
    return std::max(bytesOf(src), partials);
  }
  if (auto broadcast = dyn_cast<tile::BroadcastOp>(op)) {
    // Register copies only (see BroadcastLowering).
    RankedTensorType src = broadcast.getSource().getType(),
                     dst = broadcast.getType();
    if (tile::getLayout(src) && tile::getLayout(dst) &&
        !tile::broadcastRegisters(layoutOf(src), layoutOf(dst)).empty())
      return 0;
  }
  if (auto permute = dyn_cast<tile::PermuteOp>(op))
    if (!permuteRegisters(permute).empty())
      return 0; // register moves only (see PermuteLowering)
  if (auto gather = dyn_cast<tile::GatherOp>(op))
    return gather.getSources().size() *
           gatherSourceStride(gather.getSources().front().getType());
  if (isa<tile::ConvertLayoutOp, tile::ReshapeOp, tile::BroadcastOp,
          tile::PermuteOp>(op))
    return bytesOf(op->getOperand(0).getType());
  return 0;
}

namespace {

/// for k in [lo, hi): acc = body(k, acc), as an scf.for over i64.
Value emitLoop(OpBuilder &b, Location loc, Value lo, Value hi, Value init,
               function_ref<Value(OpBuilder &, Location, Value, Value)> body) {
  Value step = i64Const(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lo, hi, step, ValueRange{init},
      [&](OpBuilder &nb, Location nl, Value k, ValueRange args) {
        scf::YieldOp::create(nb, nl, body(nb, nl, k, args[0]));
      });
  return loop.getResult(0);
}

/// `base` + `bytes` (shared memory).
Value offsetBytes(OpBuilder &b, Location loc, Value base, int64_t bytes) {
  if (bytes == 0)
    return base;
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(bytes)});
}

/// Writes `sources` (tiles of one type, in its layout) to shared memory,
/// `stride` bytes apart, behind one barrier on each side, and returns the
/// base.
Value toShared(ConversionPatternRewriter &rewriter, Location loc,
               Operation *anchor, RankedTensorType type, ValueRange sources,
               int64_t stride, Value lane, Value warp,
               SharedSwizzle swizzle = {}) {
  Value base = scratchBase(rewriter, loc, anchor);
  barrier(rewriter, loc); // earlier readers of the scratch are done
  for (auto [i, source] : llvm::enumerate(sources))
    storeTileToShared(
        rewriter, loc, offsetBytes(rewriter, loc, base, i * stride),
        layoutOf(type),
        TileTypeConverter::registerElementType(type.getElementType()), source,
        lane, warp, swizzle, /*fence=*/i + 1 == sources.size());
  return base;
}

/// A pure index map: result element at `coords` is source element
/// `sourceIndex(coords)` (a row-major linear index into the source). A
/// result register run reads `readContiguity` consecutive source elements
/// (1 unless the map keeps the row-major order); the scratch is swizzled
/// (`exchangeSwizzle`) so that both sides are free of bank conflicts.
/// Several sources (a gather's, all of one type) take one exchange: each
/// has `stride` bytes of the scratch, and result k reads source k at the
/// same addresses.
LogicalResult lowerIndexMap(
    Operation *op, ValueRange sources, RankedTensorType sourceType,
    RankedTensorType resultType, const TypeConverter *converter,
    ConversionPatternRewriter &rewriter,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>, int64_t)>
        sourceIndex,
    SourceIndexFn sourceIndexOf, bool allowSwizzle, int64_t readContiguity = 1,
    int64_t stride = 0) {
  if (!tile::getLayout(sourceType) || !tile::getLayout(resultType))
    return rewriter.notifyMatchFailure(op, "tiles have no layout");
  Location loc = op->getLoc();
  Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
  Type sourceElement =
      TileTypeConverter::registerElementType(sourceType.getElementType());
  tile::LinearLayout in = layoutOf(sourceType), out = layoutOf(resultType);
  SharedSwizzle swizzle = allowSwizzle
                              ? exchangeSwizzle(in, sourceElement, &out,
                                                sourceIndexOf, readContiguity)
                              : SharedSwizzle{};
  Value base = toShared(rewriter, loc, op, sourceType, sources, stride, lane,
                        warp, swizzle);
  Type element =
      TileTypeConverter::registerElementType(resultType.getElementType());
  // Runs of consecutive elements (row-major-preserving maps) share their
  // first address, so the loads can be vectorised.
  int64_t run = 1;
  int64_t bytes =
      elementBytes(element.isInteger(1) ? rewriter.getI8Type() : element);
  // (A plain scratch lets a whole run share one address; LLVM splits it
  // into vectors.)
  if (readContiguity > 1)
    run = alignedRegisterRun(
        out, swizzle.unitBytes
                 ? std::min(readContiguity, vectorElements(swizzle, bytes))
                 : readContiguity);
  auto offsetOf = [&](const tile::LinearLayout::Coords &c) {
    return swizzledByteOffset(sourceIndexOf(c), bytes, swizzle);
  };
  auto indexOf = [&](int64_t r) {
    return sourceIndex(rewriter, loc,
                       registerCoords(rewriter, loc, out, r, lane, warp), r);
  };
  SharedRegisterAddresses addresses(
      rewriter, loc, base, out, element, swizzle, run,
      sourceIndexOf ? OffsetFn(offsetOf) : OffsetFn(), indexOf);
  SmallVector<SmallVector<Value>> values(sources.size());
  for (int64_t r = 0; r < out.numRegisters(); ++r) {
    Value at = addresses.at(r);
    for (size_t k = 0; k < sources.size(); ++k)
      values[k].push_back(loadSharedAt(
          rewriter, loc, offsetBytes(rewriter, loc, at, k * stride), element));
  }
  Type packed = converter->convertType(resultType);
  SmallVector<Value> results;
  for (ArrayRef<Value> v : values)
    results.push_back(packStruct(rewriter, loc, packed, v));
  rewriter.replaceOp(op, results);
  return success();
}

/// Replaces `op` by the registers `from` of its lowered source: result
/// register r is source register from[r] (no data moves between threads).
void replaceWithRegisters(Operation *op, Value source, ArrayRef<int64_t> from,
                          Type resultType,
                          ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  SmallVector<Value> in = unpackStruct(rewriter, loc, source);
  SmallVector<Value> out;
  for (int64_t r : from)
    out.push_back(in[r]);
  rewriter.replaceOp(op, packStruct(rewriter, loc, resultType, out));
}

/// A lowering through lowerIndexMap; `swizzle` allows the scratch swizzle.
template <typename OpT> struct IndexMapPattern : OpConversionPattern<OpT> {
  IndexMapPattern(const TypeConverter &converter, MLIRContext *context,
                  bool swizzle)
      : OpConversionPattern<OpT>(converter, context), swizzle(swizzle) {}
  bool swizzle;
};

/// convert_layout and reshape keep the row-major order of the elements:
/// register moves when every thread already holds the elements it needs
/// (same placement, or registers reordered, as from an mma accumulator to
/// the A fragments of the next mma), otherwise the element at result index
/// i is source element i, through shared memory.
template <typename OpT>
struct RowMajorPreservingLowering : IndexMapPattern<OpT> {
  using IndexMapPattern<OpT>::IndexMapPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType src = op.getSource().getType(), dst = op.getType();
    if (tile::getLayout(src) && tile::getLayout(dst)) {
      std::vector<int64_t> from =
          tile::registerPermutation(layoutOf(src), layoutOf(dst));
      if (!from.empty()) {
        replaceWithRegisters(op, adaptor.getSource(), from,
                             this->getTypeConverter()->convertType(dst),
                             rewriter);
        return success();
      }
    }
    return lowerIndexMap(
        op, ValueRange{adaptor.getSource()}, src, dst, this->getTypeConverter(),
        rewriter,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> c, int64_t) {
          return linearize(b, loc, c, dst.getShape());
        },
        [&](const tile::LinearLayout::Coords &c) {
          return tile::LinearLayout::rowMajorIndex(c, dst.getShape());
        },
        this->swizzle, registerContiguity(layoutOf(dst)));
  }
};

struct BroadcastLowering : IndexMapPattern<tile::BroadcastOp> {
  using IndexMapPattern::IndexMapPattern;
  LogicalResult
  matchAndRewrite(tile::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType src = op.getSource().getType(), dst = op.getType();
    // Register copies when every thread holds the sources of its result
    // elements (a 1 x 1 tile held by all, or a row of an accumulator
    // broadcast along its columns).
    if (tile::getLayout(src) && tile::getLayout(dst)) {
      std::vector<int64_t> from =
          tile::broadcastRegisters(layoutOf(src), layoutOf(dst));
      if (!from.empty()) {
        replaceWithRegisters(op, adaptor.getSource(), from,
                             getTypeConverter()->convertType(dst), rewriter);
        return success();
      }
    }
    return lowerIndexMap(
        op, ValueRange{adaptor.getSource()}, src, dst, getTypeConverter(),
        rewriter,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> c, int64_t) {
          SmallVector<Value> s;
          for (int64_t d = 0; d < src.getRank(); ++d)
            s.push_back(src.getDimSize(d) == 1 ? i64Const(b, loc, 0) : c[d]);
          return linearize(b, loc, s, src.getShape());
        },
        [&](const tile::LinearLayout::Coords &c) {
          tile::LinearLayout::Coords s(c);
          for (int64_t d = 0; d < src.getRank(); ++d)
            if (src.getDimSize(d) == 1)
              s[d] = 0;
          return tile::LinearLayout::rowMajorIndex(s, src.getShape());
        },
        swizzle);
  }
};

struct PermuteLowering : IndexMapPattern<tile::PermuteOp> {
  using IndexMapPattern::IndexMapPattern;
  LogicalResult
  matchAndRewrite(tile::PermuteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType src = op.getSource().getType(), dst = op.getType();
    ArrayRef<int64_t> perm = op.getPermutation();
    // A result layout that is the source's with its dimensions permuted
    // (a transposed blocked layout), its registers possibly in another
    // order, keeps every element with its thread.
    if (std::vector<int64_t> from = permuteRegisters(op); !from.empty()) {
      replaceWithRegisters(op, adaptor.getSource(), from,
                           getTypeConverter()->convertType(dst), rewriter);
      return success();
    }
    return lowerIndexMap(
        op, ValueRange{adaptor.getSource()}, src, dst, getTypeConverter(),
        rewriter,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> c, int64_t) {
          SmallVector<Value> s(src.getRank());
          for (size_t i = 0; i < perm.size(); ++i)
            s[perm[i]] = c[i];
          return linearize(b, loc, s, src.getShape());
        },
        [&](const tile::LinearLayout::Coords &c) {
          tile::LinearLayout::Coords s(src.getRank());
          for (size_t i = 0; i < perm.size(); ++i)
            s[perm[i]] = c[i];
          return tile::LinearLayout::rowMajorIndex(s, src.getShape());
        },
        swizzle);
  }
};

struct GatherLowering : IndexMapPattern<tile::GatherOp> {
  using IndexMapPattern::IndexMapPattern;
  LogicalResult
  matchAndRewrite(tile::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto src = cast<RankedTensorType>(op.getSources().front().getType()),
         dst = cast<RankedTensorType>(op.getResults().front().getType());
    for (Value indices : op.getIndices())
      if (tile::getLayout(indices.getType()) != tile::getLayout(dst))
        return rewriter.notifyMatchFailure(op,
                                           "indices and result layouts differ");
    ArrayRef<int64_t> axes = op.getAxes();
    ValueRange indices = adaptor.getIndices();
    return lowerIndexMap(
        op, adaptor.getSources(), src, dst, getTypeConverter(), rewriter,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> c, int64_t reg) {
          SmallVector<Value> s(c.begin(), c.end());
          for (auto [axis, tile] : llvm::zip(axes, indices)) {
            Value idx = extract(b, loc, tile, reg);
            if (idx.getType().getIntOrFloatBitWidth() < 64)
              idx = LLVM::SExtOp::create(b, loc, b.getI64Type(), idx);
            s[axis] = idx;
          }
          return linearize(b, loc, s, src.getShape());
        },
        /*sourceIndexOf=*/nullptr, swizzle, /*readContiguity=*/1,
        gatherSourceStride(src)); // data-dependent reads
  }
};

/// acc (op) x for a combine kind.
Value combine(OpBuilder &b, Location loc, tile::CombineKind kind, Value acc,
              Value x) {
  bool isFloat = isa<FloatType>(acc.getType());
  switch (kind) {
  case tile::CombineKind::sum:
    return isFloat ? Value(LLVM::FAddOp::create(b, loc, acc, x))
                   : Value(LLVM::AddOp::create(b, loc, acc, x));
  case tile::CombineKind::prod:
    return isFloat ? Value(LLVM::FMulOp::create(b, loc, acc, x))
                   : Value(LLVM::MulOp::create(b, loc, acc, x));
  case tile::CombineKind::max:
    return isFloat ? Value(LLVM::MaximumOp::create(b, loc, acc, x))
                   : Value(LLVM::SMaxOp::create(b, loc, acc, x));
  case tile::CombineKind::min:
    return isFloat ? Value(LLVM::MinimumOp::create(b, loc, acc, x))
                   : Value(LLVM::SMinOp::create(b, loc, acc, x));
  }
  return acc;
}

/// The element at `coords` with `axis` replaced, from shared memory.
Value loadAlong(OpBuilder &b, Location loc, Value base, Type element,
                ArrayRef<Value> coords, int64_t axis, Value k,
                ArrayRef<int64_t> shape) {
  SmallVector<Value> s(coords.begin(), coords.end());
  s[axis] = k;
  return loadShared(b, loc, base, element, linearize(b, loc, s, shape));
}

//===----------------------------------------------------------------------===//
// Scans and reductions by warp shuffles
//===----------------------------------------------------------------------===//

/// How a layout spreads one axis: the register bits along it (axis steps 1,
/// 2, 4, ...), then the lowest `laneBits` lanes, then warp bits, each
/// continuing the steps. Every other bit moves along other dimensions only.
struct AxisSpread {
  SmallVector<int> regBits;
  int laneBits = 0;
  SmallVector<int> warpBits;
};

/// The bits that reach each coordinate of the axis once
/// (tile::reductionBits), in the order a scan walks them: registers by
/// axis step, then the lowest lanes in order, then warps in order, the
/// steps 1, 2, 4, ... running on across them.
std::optional<AxisSpread> axisSpread(const tile::LinearLayout &layout,
                                     int64_t axis) {
  using LL = tile::LinearLayout;
  std::optional<tile::AxisBits> bits = tile::reductionBits(layout, axis);
  if (!bits)
    return std::nullopt;
  auto step = [&](LL::InDim in, int bit) {
    return layout.bases(in)[bit][axis];
  };
  AxisSpread spread;
  spread.regBits.assign(bits->registers.begin(), bits->registers.end());
  llvm::sort(spread.regBits, [&](int a, int b) {
    return step(LL::Register, a) < step(LL::Register, b);
  });
  // reductionBits' steps are distinct powers of two, the registers' the
  // smallest once sorted: each next bit must double the last.
  int64_t next = int64_t(1) << spread.regBits.size();
  for (int bit : bits->lanes) {
    if (bit != spread.laneBits || step(LL::Lane, bit) != next)
      return std::nullopt; // not the lowest lanes in order
    ++spread.laneBits;
    next *= 2;
  }
  for (int bit : bits->warps) {
    if (step(LL::Warp, bit) != next)
      return std::nullopt;
    spread.warpBits.push_back(bit);
    next *= 2;
  }
  return spread;
}

/// The neutral element of a combine kind.
Value identity(OpBuilder &b, Location loc, tile::CombineKind kind, Type type) {
  bool isFloat = isa<FloatType>(type);
  double f = 0;
  int64_t i = 0;
  switch (kind) {
  case tile::CombineKind::sum:
    f = -0.0; // -0 + x is x for every x; +0 would turn -0 into +0
    break;
  case tile::CombineKind::prod:
    f = 1, i = 1;
    break;
  case tile::CombineKind::max:
    f = -INFINITY, i = std::numeric_limits<int32_t>::min();
    break;
  case tile::CombineKind::min:
    f = INFINITY, i = std::numeric_limits<int32_t>::max();
    break;
  }
  return isFloat ? scalarConst(b, loc, type, f) : i32Const(b, loc, i);
}

/// shfl.sync of a 32-bit value: "up", "down" or "bfly" by `delta` lanes
/// (a lane without a source keeps its value).
Value shuffle(OpBuilder &b, Location loc, StringRef mode, Value v,
              int64_t delta) {
  Type type = v.getType();
  Value bits =
      type.isF32() ? LLVM::BitcastOp::create(b, loc, b.getI32Type(), v) : v;
  std::string clamp = mode == "up" ? "0" : "31";
  Value out =
      LLVM::InlineAsmOp::create(b, loc, b.getI32Type(), ValueRange{bits},
                                ("shfl.sync." + mode + ".b32 $0, $1, " +
                                 std::to_string(delta) + ", " + clamp + ", -1;")
                                    .str(),
                                "=r,r", /*has_side_effects=*/true, false,
                                LLVM::tailcallkind::TailCallKind::None,
                                LLVM::AsmDialectAttr(), ArrayAttr())
          .getResult(0);
  return type.isF32() ? LLVM::BitcastOp::create(b, loc, type, out) : out;
}

/// How a scan takes the shuffle path, or nullopt: 32-bit elements and a
/// layout that spreads the axis as AxisSpread describes.
std::optional<AxisSpread> shufflePath(tile::ScanOp op) {
  auto src = cast<RankedTensorType>(op.getSource().getType());
  Type e = TileTypeConverter::registerElementType(src.getElementType());
  if (!(e.isF32() || e.isInteger(32)) || !tile::getLayout(src))
    return std::nullopt;
  return axisSpread(layoutOf(src), op.getAxis());
}

/// How a reduce combines in place (tile::inPlaceReduction: each thread
/// combines its registers along the axis, butterfly shuffles combine the
/// lanes along it, and the warps along it exchange one partial each
/// through shared memory), or nullopt. 32-bit elements only.
std::optional<tile::InPlaceReduction> inPlaceReduce(tile::ReduceOp op) {
  RankedTensorType src = op.getSource().getType(), dst = op.getType();
  Type e = TileTypeConverter::registerElementType(src.getElementType());
  if (!(e.isF32() || e.isInteger(32)) || !tile::getLayout(src) ||
      !tile::getLayout(dst))
    return std::nullopt;
  return tile::inPlaceReduction(layoutOf(src), layoutOf(dst), op.getAxis());
}

std::optional<int64_t> inPlaceReduceScratchBytes(tile::ReduceOp op) {
  std::optional<tile::InPlaceReduction> r = inPlaceReduce(op);
  if (!r)
    return std::nullopt;
  if (r->bits.warps.empty())
    return 0;
  // One 32-bit partial a thread and group (warpPartials' slots).
  return 32 * tile::numWarpsOf(op) * int64_t(r->groups.size()) * 4;
}

bool shufflesAcrossWarps(tile::ScanOp op) {
  std::optional<AxisSpread> s = shufflePath(op);
  return s && !s->warpBits.empty();
}

/// Combines, for each thread, the partials (one per register group) of the
/// other warps along the axis: those before it (`before`) or after it. The
/// partial of a warp is read from `lastLane` of the thread's lane group.
SmallVector<Value> warpPartials(OpBuilder &b, Location loc, Value base,
                                ArrayRef<int> warpBits, tile::CombineKind kind,
                                ArrayRef<Value> partials, Value lane,
                                Value warp, Value lastLane, bool before,
                                bool all) {
  const int64_t groups = partials.size();
  Type e = partials.front().getType();
  auto slot = [&](Value w, Value l, int64_t g) {
    Value t = LLVM::AddOp::create(
        b, loc, LLVM::MulOp::create(b, loc, w, i32Const(b, loc, 32)), l);
    Value i = LLVM::AddOp::create(
        b, loc, LLVM::MulOp::create(b, loc, t, i32Const(b, loc, groups)),
        i32Const(b, loc, g));
    return LLVM::GEPOp::create(
        b, loc, base.getType(), e, base,
        ValueRange{LLVM::ZExtOp::create(b, loc, b.getI64Type(), i)});
  };
  barrier(b, loc); // earlier readers of the scratch are done
  for (int64_t g = 0; g < groups; ++g)
    LLVM::StoreOp::create(b, loc, partials[g], slot(warp, lane, g));
  barrier(b, loc);
  int32_t axisMask = 0;
  for (int bit : warpBits)
    axisMask |= 1 << bit;
  Value mine = i32Const(b, loc, 0);
  for (size_t j = 0; j < warpBits.size(); ++j) {
    Value set =
        LLVM::AndOp::create(b, loc, warp, i32Const(b, loc, 1 << warpBits[j]));
    mine = LLVM::OrOp::create(
        b, loc, mine,
        LLVM::ShlOp::create(
            b, loc,
            LLVM::LShrOp::create(b, loc, set, i32Const(b, loc, warpBits[j])),
            i32Const(b, loc, j)));
  }
  Value others = LLVM::AndOp::create(b, loc, warp, i32Const(b, loc, ~axisMask));
  SmallVector<Value> out;
  for (int64_t g = 0; g < groups; ++g) {
    Value acc = identity(b, loc, kind, e);
    for (int64_t q = 0; q < (int64_t(1) << warpBits.size()); ++q) {
      int32_t code = 0;
      for (size_t j = 0; j < warpBits.size(); ++j)
        if (q & (int64_t(1) << j))
          code |= 1 << warpBits[j];
      Value w = LLVM::OrOp::create(b, loc, others, i32Const(b, loc, code));
      Value v = LLVM::LoadOp::create(b, loc, e, slot(w, lastLane, g));
      Value take =
          all ? LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                         b.getBoolAttr(true))
              : Value(LLVM::ICmpOp::create(b, loc,
                                           before ? LLVM::ICmpPredicate::ult
                                                  : LLVM::ICmpPredicate::ugt,
                                           i32Const(b, loc, q), mine));
      acc = LLVM::SelectOp::create(b, loc, take, combine(b, loc, kind, acc, v),
                                   acc);
    }
    out.push_back(acc);
  }
  barrier(b, loc); // the next exchange may reuse the scratch
  return out;
}

/// Inclusive scan along the axis by shuffles: in-thread over registers,
/// Hillis-Steele over the axis lanes, then the partials of earlier warps
/// through shared memory. Combines in tree order, not index order.
SmallVector<Value> shuffleScan(OpBuilder &b, Location loc, Operation *anchor,
                               const tile::LinearLayout &layout,
                               const AxisSpread &s, tile::CombineKind kind,
                               bool reverse, Value source, Value lane,
                               Value warp) {
  const int64_t numRegs = layout.numRegisters();
  int64_t regAxisMask = 0;
  for (int bit : s.regBits)
    regAxisMask |= int64_t(1) << bit;
  // Register groups: registers that differ only in their axis bits.
  SmallVector<int64_t> groupOf(numRegs), groupRegs;
  for (int64_t r = 0; r < numRegs; ++r) {
    int64_t key = r & ~regAxisMask;
    auto it = llvm::find(groupRegs, key);
    groupOf[r] = it - groupRegs.begin();
    if (it == groupRegs.end())
      groupRegs.push_back(key);
  }
  auto regAt = [&](int64_t group, int64_t pos) {
    int64_t r = groupRegs[group];
    for (size_t j = 0; j < s.regBits.size(); ++j)
      if (pos & (int64_t(1) << j))
        r |= int64_t(1) << s.regBits[j];
    return r;
  };
  SmallVector<Value> incl(numRegs), totals;
  const int64_t perThread = int64_t(1) << s.regBits.size();
  for (int64_t g = 0; g < int64_t(groupRegs.size()); ++g) {
    Value acc;
    for (int64_t k = 0; k < perThread; ++k) {
      int64_t r = regAt(g, reverse ? perThread - 1 - k : k);
      Value v = extract(b, loc, source, r);
      acc = acc ? combine(b, loc, kind, acc, v) : v;
      incl[r] = acc;
    }
    totals.push_back(acc);
  }
  Type e = totals.front().getType();
  const int64_t laneCount = int64_t(1) << s.laneBits;
  Value lanePos =
      LLVM::AndOp::create(b, loc, lane, i32Const(b, loc, laneCount - 1));
  StringRef mode = reverse ? "down" : "up";
  SmallVector<Value> prefix;
  for (Value &t : totals) {
    for (int j = 0; j < s.laneBits; ++j) {
      Value y = shuffle(b, loc, mode, t, int64_t(1) << j);
      Value has = LLVM::ICmpOp::create(
          b, loc, reverse ? LLVM::ICmpPredicate::ult : LLVM::ICmpPredicate::uge,
          lanePos, i32Const(b, loc, reverse ? laneCount - (1 << j) : 1 << j));
      t = LLVM::SelectOp::create(b, loc, has, combine(b, loc, kind, y, t), t);
    }
    Value before = identity(b, loc, kind, e);
    if (s.laneBits > 0) {
      Value y = shuffle(b, loc, mode, t, 1);
      Value has = LLVM::ICmpOp::create(
          b, loc, reverse ? LLVM::ICmpPredicate::ult : LLVM::ICmpPredicate::ne,
          lanePos, i32Const(b, loc, reverse ? laneCount - 1 : 0));
      before = LLVM::SelectOp::create(b, loc, has, y, before);
    }
    prefix.push_back(before);
  }
  if (!s.warpBits.empty()) {
    // A warp's partial is the inclusive value at its last lane along the
    // axis (the first, for a reverse scan).
    Value lastLane =
        reverse ? Value(LLVM::AndOp::create(b, loc, lane,
                                            i32Const(b, loc, ~(laneCount - 1))))
                : Value(LLVM::OrOp::create(b, loc, lane,
                                           i32Const(b, loc, laneCount - 1)));
    SmallVector<Value> inclusive = totals;
    SmallVector<Value> fromWarps = warpPartials(
        b, loc, scratchBase(b, loc, anchor), s.warpBits, kind, inclusive, lane,
        warp, lastLane, /*before=*/!reverse, /*all=*/false);
    for (size_t g = 0; g < prefix.size(); ++g)
      prefix[g] = combine(b, loc, kind, fromWarps[g], prefix[g]);
  }
  SmallVector<Value> out(numRegs);
  for (int64_t r = 0; r < numRegs; ++r)
    out[r] = combine(b, loc, kind, prefix[groupOf[r]], incl[r]);
  return out;
}

struct ReduceLowering : OpConversionPattern<tile::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType src = op.getSource().getType(), dst = op.getType();
    if (!tile::getLayout(src) || !tile::getLayout(dst))
      return failure();
    Location loc = op.getLoc();
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    int64_t axis = op.getAxis();
    // In place: registers, then butterfly shuffles over the lanes along
    // the axis (every lane gets its group's total), then the warps.
    if (std::optional<tile::InPlaceReduction> plan = inPlaceReduce(op)) {
      const tile::AxisBits &bits = plan->bits;
      SmallVector<Value> totals;
      for (int64_t g : plan->groups) {
        Value t;
        for (int64_t k = 0; k < (int64_t(1) << bits.registers.size()); ++k) {
          int64_t r = g;
          for (size_t j = 0; j < bits.registers.size(); ++j)
            if (k & (int64_t(1) << j))
              r |= int64_t(1) << bits.registers[j];
          Value v = extract(rewriter, loc, adaptor.getSource(), r);
          t = t ? combine(rewriter, loc, op.getKind(), t, v) : v;
        }
        for (int bit : bits.lanes)
          t = combine(rewriter, loc, op.getKind(), t,
                      shuffle(rewriter, loc, "bfly", t, int64_t(1) << bit));
        totals.push_back(t);
      }
      if (!bits.warps.empty())
        totals = warpPartials(rewriter, loc, scratchBase(rewriter, loc, op),
                              bits.warps, op.getKind(), totals, lane, warp,
                              lane, /*before=*/true, /*all=*/true);
      SmallVector<Value> values;
      for (int64_t r : plan->sourceOf)
        values.push_back(totals[plan->groupOf(r)]);
      rewriter.replaceOp(op, packStruct(rewriter, loc,
                                        getTypeConverter()->convertType(dst),
                                        values));
      return success();
    }
    Value base =
        toShared(rewriter, loc, op, src, ValueRange{adaptor.getSource()},
                 /*stride=*/0, lane, warp);
    Type element = TileTypeConverter::registerElementType(src.getElementType());
    tile::LinearLayout out = layoutOf(dst);
    SmallVector<Value> values;
    for (int64_t r = 0; r < out.numRegisters(); ++r) {
      SmallVector<Value> c = registerCoords(rewriter, loc, out, r, lane, warp);
      Value first = loadAlong(rewriter, loc, base, element, c, axis,
                              i64Const(rewriter, loc, 0), src.getShape());
      values.push_back(
          emitLoop(rewriter, loc, i64Const(rewriter, loc, 1),
                   i64Const(rewriter, loc, src.getDimSize(axis)), first,
                   [&](OpBuilder &b, Location l, Value k, Value acc) {
                     return combine(b, l, op.getKind(), acc,
                                    loadAlong(b, l, base, element, c, axis, k,
                                              src.getShape()));
                   }));
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc,
                                      getTypeConverter()->convertType(dst),
                                      values));
    return success();
  }
};

struct ScanLowering : OpConversionPattern<tile::ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    if (!tile::getLayout(type))
      return failure();
    Location loc = op.getLoc();
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    if (std::optional<AxisSpread> s = shufflePath(op)) {
      SmallVector<Value> values =
          shuffleScan(rewriter, loc, op, layoutOf(type), *s, op.getKind(),
                      op.getReverse(), adaptor.getSource(), lane, warp);
      rewriter.replaceOp(op, packStruct(rewriter, loc,
                                        getTypeConverter()->convertType(type),
                                        values));
      return success();
    }
    Value base =
        toShared(rewriter, loc, op, type, ValueRange{adaptor.getSource()},
                 /*stride=*/0, lane, warp);
    Type element =
        TileTypeConverter::registerElementType(type.getElementType());
    tile::LinearLayout layout = layoutOf(type);
    int64_t axis = op.getAxis(), n = type.getDimSize(axis);
    SmallVector<Value> values;
    for (int64_t r = 0; r < layout.numRegisters(); ++r) {
      SmallVector<Value> c =
          registerCoords(rewriter, loc, layout, r, lane, warp);
      Value i = c[axis];
      // Forward: combine 0..i in order; reverse: n-1 down to i, walked as
      // j = n-1-k for k in [0, n-1-i].
      Value first, count;
      if (!op.getReverse()) {
        first = loadAlong(rewriter, loc, base, element, c, axis,
                          i64Const(rewriter, loc, 0), type.getShape());
        count =
            LLVM::AddOp::create(rewriter, loc, i, i64Const(rewriter, loc, 1));
      } else {
        first = loadAlong(rewriter, loc, base, element, c, axis,
                          i64Const(rewriter, loc, n - 1), type.getShape());
        count =
            LLVM::SubOp::create(rewriter, loc, i64Const(rewriter, loc, n), i);
      }
      bool reverse = op.getReverse();
      values.push_back(emitLoop(
          rewriter, loc, i64Const(rewriter, loc, 1), count, first,
          [&](OpBuilder &b, Location l, Value k, Value acc) {
            Value j =
                reverse
                    ? Value(LLVM::SubOp::create(b, l, i64Const(b, l, n - 1), k))
                    : k;
            return combine(
                b, l, op.getKind(), acc,
                loadAlong(b, l, base, element, c, axis, j, type.getShape()));
          }));
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc,
                                      getTypeConverter()->convertType(type),
                                      values));
    return success();
  }
};

/// f32 value of an mma input, rounded as the precision asks.
Value mmaInput(OpBuilder &b, Location loc, Value v, bool roundToTF32) {
  if (!v.getType().isF32())
    v = LLVM::FPExtOp::create(b, loc, b.getF32Type(), v);
  if (!roundToTF32)
    return v;
  // cvt.rna.tf32.f32 keeps the result in a 32-bit register.
  auto op = LLVM::InlineAsmOp::create(
      b, loc, b.getI32Type(), ValueRange{v}, "cvt.rna.tf32.f32 $0, $1;", "=r,f",
      false, false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr(), ArrayAttr());
  return LLVM::BitcastOp::create(b, loc, b.getF32Type(), op.getResult(0));
}

/// f32 -> tf32 bits, rounded to nearest with ties away from zero (what the
/// interpreter does for mma inputs); tf32 tiles are already rounded.
Value toTf32(OpBuilder &b, Location loc, Value v, bool round) {
  if (!round)
    return LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
  return LLVM::InlineAsmOp::create(
             b, loc, b.getI32Type(), ValueRange{v}, "cvt.rna.tf32.f32 $0, $1;",
             "=r,f", false, false, LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

/// tf32 mma on m16n8k8 fragments (kwidth 1): A 4 and B 2 registers per
/// instruction. tf32x3 splits each f32 input x into big = tf32(x) and
/// small = tf32(x - big) and adds small*big' + big*small' before
/// big*big' (the small terms first, so they are not lost).
LogicalResult lowerMmaSyncTf32(tile::MmaOp op, ArrayRef<Value> A,
                               ArrayRef<Value> B, ArrayRef<Value> C,
                               const TypeConverter *converter,
                               ConversionPatternRewriter &rewriter) {
  RankedTensorType a = op.getA().getType(), c = op.getAcc().getType();
  auto mma = cast<tile::MmaLayoutAttr>(c.getEncoding());
  const int64_t wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  const int64_t M = a.getDimSize(0), K = a.getDimSize(1), N = c.getDimSize(1);
  const int64_t repM = M / (16 * wm), repN = N / (8 * wn), repK = K / 8;
  if (int64_t(A.size()) != 4 * repK * repM ||
      int64_t(B.size()) != 2 * repK * repN ||
      int64_t(C.size()) != 4 * repN * repM)
    return rewriter.notifyMatchFailure(op, "fragment counts do not match");
  Location loc = op.getLoc();
  const bool round = a.getElementType().isF32();
  const bool split = op.getPrecision() == tile::MmaPrecision::tf32x3;
  auto parts = [&](ArrayRef<Value> in) {
    SmallVector<Value> big, small;
    for (Value v : in) {
      big.push_back(toTf32(rewriter, loc, v, round));
      if (split) {
        Value bigF = LLVM::BitcastOp::create(rewriter, loc,
                                             rewriter.getF32Type(), big.back());
        Value rest = LLVM::FSubOp::create(rewriter, loc, v, bigF);
        small.push_back(toTf32(rewriter, loc, rest, true));
      }
    }
    return std::make_pair(big, small);
  };
  auto [aBig, aSmall] = parts(A);
  auto [bBig, bSmall] = parts(B);
  Type f32 = rewriter.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(rewriter.getContext(),
                                                     {f32, f32, f32, f32});
  const char *text = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                     "{$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
                     "{$10, $11, $12, $13};";
  SmallVector<Value> D(C.begin(), C.end());
  auto issue = [&](ArrayRef<Value> aRegs, ArrayRef<Value> bRegs, int64_t a0,
                   int64_t b0, int64_t c0) {
    SmallVector<Value> operands = {
        aRegs[a0],     aRegs[a0 + 1], aRegs[a0 + 2], aRegs[a0 + 3], bRegs[b0],
        bRegs[b0 + 1], D[c0],         D[c0 + 1],     D[c0 + 2],     D[c0 + 3]};
    auto asmOp =
        LLVM::InlineAsmOp::create(rewriter, loc, resultType, operands, text,
                                  "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f", false,
                                  false, LLVM::tailcallkind::TailCallKind::None,
                                  LLVM::AsmDialectAttr(), ArrayAttr());
    for (int64_t i = 0; i < 4; ++i)
      D[c0 + i] = extract(rewriter, loc, asmOp.getResult(0), i);
  };
  for (int64_t m = 0; m < repM; ++m)
    for (int64_t n = 0; n < repN; ++n) {
      int64_t c0 = 4 * (n + repN * m);
      for (int64_t k = 0; k < repK; ++k) {
        int64_t a0 = 4 * (k + repK * m), b0 = 2 * (k + repK * n);
        if (split) {
          issue(aSmall, bBig, a0, b0, c0);
          issue(aBig, bSmall, a0, b0, c0);
        }
        issue(aBig, bBig, a0, b0, c0);
      }
    }
  rewriter.replaceOp(op,
                     packStruct(rewriter, loc, converter->convertType(c), D));
  return success();
}

/// tile.mma on Tensor Core layouts (A and B as m16n8k16 fragments, the
/// accumulator as mma.sync accumulators): one mma.sync per (m, n, k)
/// instruction tile, registers taken straight from the layouts' order.
LogicalResult lowerMmaSync(tile::MmaOp op, tile::MmaOp::Adaptor adaptor,
                           const TypeConverter *converter,
                           ConversionPatternRewriter &rewriter) {
  RankedTensorType a = op.getA().getType(), c = op.getAcc().getType();
  auto mma = cast<tile::MmaLayoutAttr>(c.getEncoding());
  const int64_t wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  const int64_t M = a.getDimSize(0), K = a.getDimSize(1), N = c.getDimSize(1);
  Location loc = op.getLoc();
  SmallVector<Value> A = unpackStruct(rewriter, loc, adaptor.getA());
  SmallVector<Value> B = unpackStruct(rewriter, loc, adaptor.getB());
  SmallVector<Value> C = unpackStruct(rewriter, loc, adaptor.getAcc());
  if (cast<tile::DotOperandLayoutAttr>(a.getEncoding()).getKWidth() == 1)
    return lowerMmaSyncTf32(op, A, B, C, converter, rewriter);
  const int64_t repM = M / (16 * wm), repN = N / (8 * wn), repK = K / 16;
  if (int64_t(A.size()) != 8 * repK * repM ||
      int64_t(B.size()) != 4 * repK * repN ||
      int64_t(C.size()) != 4 * repN * repM)
    return rewriter.notifyMatchFailure(op, "fragment counts do not match");
  const char *type = a.getElementType().isBF16() ? "bf16" : "f16";
  std::string text = std::string("mma.sync.aligned.m16n8k16.row.col.f32.") +
                     type + "." + type +
                     ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
                     "{$10, $11, $12, $13};";
  Type f32 = rewriter.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(rewriter.getContext(),
                                                     {f32, f32, f32, f32});
  SmallVector<Value> D(C);
  for (int64_t m = 0; m < repM; ++m)
    for (int64_t n = 0; n < repN; ++n) {
      int64_t c0 = 4 * (n + repN * m);
      for (int64_t k = 0; k < repK; ++k) {
        int64_t a0 = 8 * (k + repK * m), b0 = 4 * (k + repK * n);
        SmallVector<Value> operands = {
            packPair(rewriter, loc, A[a0 + 0], A[a0 + 1]),
            packPair(rewriter, loc, A[a0 + 2], A[a0 + 3]),
            packPair(rewriter, loc, A[a0 + 4], A[a0 + 5]),
            packPair(rewriter, loc, A[a0 + 6], A[a0 + 7]),
            packPair(rewriter, loc, B[b0 + 0], B[b0 + 1]),
            packPair(rewriter, loc, B[b0 + 2], B[b0 + 3]),
            D[c0 + 0],
            D[c0 + 1],
            D[c0 + 2],
            D[c0 + 3]};
        auto asmOp = LLVM::InlineAsmOp::create(
            rewriter, loc, resultType, operands, text,
            "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f", false, false,
            LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
            ArrayAttr());
        for (int64_t i = 0; i < 4; ++i)
          D[c0 + i] = extract(rewriter, loc, asmOp.getResult(0), i);
      }
    }
  rewriter.replaceOp(op,
                     packStruct(rewriter, loc, converter->convertType(c), D));
  return success();
}

struct MmaLowering : OpConversionPattern<tile::MmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType a = op.getA().getType(), bt = op.getB().getType(),
                     c = op.getAcc().getType();
    if (isa_and_nonnull<tile::DotOperandLayoutAttr>(a.getEncoding()) &&
        isa_and_nonnull<tile::DotOperandLayoutAttr>(bt.getEncoding()) &&
        isa_and_nonnull<tile::MmaLayoutAttr>(c.getEncoding()))
      return lowerMmaSync(op, adaptor, getTypeConverter(), rewriter);
    if (!tile::getLayout(a) || !tile::getLayout(bt) || !tile::getLayout(c))
      return failure();
    if (tile::getLayout(c) != tile::getLayout(op.getType()))
      return rewriter.notifyMatchFailure(op, "accumulator layout differs");
    Location loc = op.getLoc();
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    Value base = scratchBase(rewriter, loc, op);
    barrier(rewriter, loc);
    Type inType = TileTypeConverter::registerElementType(a.getElementType());
    Type memType = inType;
    // A at the start of the scratch, B after it.
    int64_t aBytes = a.getNumElements() * elementBytes(memType);
    Value bBase =
        LLVM::GEPOp::create(rewriter, loc, base.getType(), rewriter.getI8Type(),
                            base, ValueRange{i64Const(rewriter, loc, aBytes)});
    storeTileToShared(rewriter, loc, base, layoutOf(a), inType, adaptor.getA(),
                      lane, warp);
    storeTileToShared(rewriter, loc, bBase, layoutOf(bt), inType,
                      adaptor.getB(), lane, warp);
    bool isF32 = a.getElementType().isF32();
    tile::MmaPrecision precision =
        op.getPrecision().value_or(tile::MmaPrecision::tf32);
    bool tf32 = isF32 && precision == tile::MmaPrecision::tf32;
    bool tf32x3 = isF32 && precision == tile::MmaPrecision::tf32x3;
    int64_t M = a.getDimSize(0), K = a.getDimSize(1), N = bt.getDimSize(1);
    tile::LinearLayout out = layoutOf(c);
    SmallVector<Value> values;
    for (int64_t r = 0; r < out.numRegisters(); ++r) {
      SmallVector<Value> ij = registerCoords(rewriter, loc, out, r, lane, warp);
      Value acc = extract(rewriter, loc, adaptor.getAcc(), r);
      Value aRow =
          LLVM::MulOp::create(rewriter, loc, ij[0], i64Const(rewriter, loc, K));
      values.push_back(emitLoop(
          rewriter, loc, i64Const(rewriter, loc, 0), i64Const(rewriter, loc, K),
          acc, [&](OpBuilder &b, Location l, Value k, Value sum) {
            Value av = loadShared(b, l, base, memType,
                                  LLVM::AddOp::create(b, l, aRow, k));
            Value bIndex = LLVM::AddOp::create(
                b, l, LLVM::MulOp::create(b, l, k, i64Const(b, l, N)), ij[1]);
            Value bv = loadShared(b, l, bBase, memType, bIndex);
            if (tf32x3) {
              // x = big + small, both tf32; three products, small*small
              // dropped.
              Value ab = mmaInput(b, l, av, true),
                    bb = mmaInput(b, l, bv, true);
              Value as =
                  mmaInput(b, l, LLVM::FSubOp::create(b, l, av, ab), true);
              Value bs =
                  mmaInput(b, l, LLVM::FSubOp::create(b, l, bv, bb), true);
              sum = LLVM::FMAOp::create(b, l, as, bb, sum);
              sum = LLVM::FMAOp::create(b, l, ab, bs, sum);
              return Value(LLVM::FMAOp::create(b, l, ab, bb, sum));
            }
            return Value(LLVM::FMAOp::create(b, l, mmaInput(b, l, av, tf32),
                                             mmaInput(b, l, bv, tf32), sum));
          }));
    }
    (void)M;
    rewriter.replaceOp(
        op,
        packStruct(rewriter, loc, getTypeConverter()->convertType(c), values));
    return success();
  }
};

} // namespace

void populateExchangeToLLVMPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns, bool swizzle) {
  patterns.add<RowMajorPreservingLowering<tile::ConvertLayoutOp>,
               RowMajorPreservingLowering<tile::ReshapeOp>, BroadcastLowering,
               PermuteLowering, GatherLowering>(converter,
                                                patterns.getContext(), swizzle);
  patterns.add<ReduceLowering, ScanLowering, MmaLowering>(
      converter, patterns.getContext());
}

} // namespace tessera::lowering
