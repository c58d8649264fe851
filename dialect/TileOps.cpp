//===- TileOps.cpp - tile dialect operations
//-------------------------------===//

#include "dialect/TileOps.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace tessera::tile;

LogicalResult tessera::tile::verifyInKernel(Operation *op) {
  if (!op->getParentOfType<KernelOp>())
    return op->emitOpError("must be nested in a tile.kernel");
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  Region *body = state.addRegion();
  Block *entry = new Block();
  body->push_back(entry);
  for (Type input : type.getInputs())
    entry->addArgument(input, state.location);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(entry);
  ReturnOp::create(builder, state.location);
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildType = [](Builder &builder, ArrayRef<Type> args,
                      ArrayRef<Type> results,
                      function_interface_impl::VariadicFlag, std::string &) {
    return builder.getFunctionType(args, results);
  };
  if (function_interface_impl::parseFunctionOp(
          parser, result, /*allowVariadic=*/false,
          getFunctionTypeAttrName(result.name), buildType,
          getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name)))
    return failure();
  // Let the body omit its terminator, as func.func does not but scf does.
  auto *body = result.regions.front().get();
  if (!body->empty())
    ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

static bool isKernelScalarType(Type type) {
  return type.isIndex() || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64) || type.isF32() || type.isF64();
}

LogicalResult KernelOp::verify() {
  if (std::optional<uint32_t> warps = getNumWarps();
      warps && !llvm::isPowerOf2_32(*warps))
    return emitOpError("num_warps must be a power of two, got ") << *warps;
  FunctionType type = getFunctionType();
  if (type.getNumResults() != 0)
    return emitOpError("a kernel returns nothing; store results through "
                       "views instead");
  for (auto [i, input] : llvm::enumerate(type.getInputs()))
    if (!isa<ViewType>(input) && !isKernelScalarType(input))
      return emitOpError("argument #")
             << i << " has type " << input
             << "; kernel arguments are !tile.view or i32, i64, f32, f64, "
                "index scalars";
  return success();
}

/// Structured control flow the lowering supports (no parallel loops: the
/// grid is the only parallelism of a kernel).
static bool isSupportedScfOp(Operation *op) {
  return isa<scf::ForOp, scf::IfOp, scf::YieldOp, scf::WhileOp,
             scf::ConditionOp, scf::ExecuteRegionOp>(op);
}

LogicalResult KernelOp::verifyRegions() {
  // Every value in the body must be a scalar or a tile, and every op must come
  // from a dialect the compiler lowers.
  WalkResult result = getBody().walk<WalkOrder::PreOrder>([&](Operation *op)
                                                              -> WalkResult {
    StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if (ns != "tile" && ns != "arith" && ns != "math" &&
        !(ns == "scf" && isSupportedScfOp(op))) {
      op->emitOpError("is not supported inside a tile kernel (only tile, "
                      "arith, math and scf.for/if/while/execute_region "
                      "operations are)");
      return WalkResult::interrupt();
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isa<ViewType>(arg.getType())) {
            op->emitOpError("carries a view in a block argument; views only "
                            "come from kernel arguments");
            return WalkResult::interrupt();
          }
    for (Type type : op->getResultTypes()) {
      if (isa<ViewType>(type)) {
        op->emitOpError("produces a view; views only come from kernel "
                        "arguments");
        return WalkResult::interrupt();
      }
      if (isa<ShapedType>(type) && !isTileType(type)) {
        op->emitOpError("produces ")
            << type
            << ", but tiles must be ranked tensors with static power-of-two "
               "dimensions and an f16, bf16, tf32, f32, f64 or "
               "i1/i8/i16/i32/i64 element type";
        return WalkResult::interrupt();
      }
      if (!isa<ShapedType, SharedMemType>(type) && !type.isIndex() &&
          !isTileElementType(type)) {
        op->emitOpError("produces a scalar of type ")
            << type
            << "; scalars must be index, f16, bf16, tf32, f32, f64 or "
               "i1/i8/i16/i32/i64";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// DimOp
//===----------------------------------------------------------------------===//

LogicalResult DimOp::verify() {
  int64_t rank = getView().getType().getRank();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError("axis ") << axis << " is out of range for a view "
                                << "of rank " << rank;
  return success();
}

OpFoldResult DimOp::fold(FoldAdaptor) {
  int64_t axis = getAxis();
  ArrayRef<int64_t> shape = getView().getType().getShape();
  if (axis < 0 || axis >= static_cast<int64_t>(shape.size()) ||
      ShapedType::isDynamic(shape[axis]))
    return {};
  return IntegerAttr::get(IndexType::get(getContext()), shape[axis]);
}

//===----------------------------------------------------------------------===//
// LoadOp / StoreOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyHints(Operation *op,
                                 std::optional<int32_t> latency) {
  if (latency && (*latency < 1 || *latency > 10))
    return op->emitOpError("latency hint must be in 1..10, got ") << *latency;
  return success();
}

static LogicalResult verifyTileAccess(Operation *op, ViewType view,
                                      RankedTensorType tile,
                                      size_t numIndices) {
  if (static_cast<int64_t>(numIndices) != view.getRank())
    return op->emitOpError("expects ")
           << view.getRank() << " tile indices for a view of rank "
           << view.getRank() << ", got " << numIndices;
  if (tile.getRank() != view.getRank())
    return op->emitOpError("tile rank ")
           << tile.getRank() << " must equal the view rank " << view.getRank()
           << " (use size-1 dimensions and tile.reshape to drop them)";
  if (tile.getElementType() != view.getElementType())
    return op->emitOpError("tile element type ")
           << tile.getElementType() << " does not match the view element type "
           << view.getElementType() << " (convert with arith casts)";
  return success();
}

LogicalResult LoadOp::verify() {
  if (failed(verifyTileAccess(*this, getView().getType(), getType(),
                              getIndices().size())))
    return failure();
  if (auto padding = getPadding()) {
    double value = padding->convertToDouble();
    if (auto intType = dyn_cast<IntegerType>(getType().getElementType())) {
      unsigned width = intType.getWidth();
      // Limits are powers of two, exact as doubles: [lo, end).
      double lo = width == 1 ? 0.0 : -std::ldexp(1.0, width - 1);
      double end = width == 1 ? 2.0 : std::ldexp(1.0, width - 1);
      if (!std::isfinite(value) || value != std::trunc(value) || value < lo ||
          value >= end) {
        SmallString<32> text;
        padding->toString(text);
        return emitOpError("padding ")
               << text << " is not a value of " << intType;
      }
    }
  }
  return verifyHints(*this, getLatency());
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getViewMutable(),
                       SideEffects::DefaultResource::get());
}

LogicalResult StoreOp::verify() {
  if (failed(verifyTileAccess(*this, getView().getType(), getValue().getType(),
                              getIndices().size())))
    return failure();
  return verifyHints(*this, getLatency());
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getViewMutable(),
                       SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// MmaOp
//===----------------------------------------------------------------------===//

LogicalResult MmaOp::verify() {
  RankedTensorType a = getA().getType(), b = getB().getType(),
                   c = getAcc().getType();
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError("operands must be 2-D tiles");
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError("contraction dimensions differ: a is ")
           << a.getDimSize(0) << "x" << a.getDimSize(1) << ", b is "
           << b.getDimSize(0) << "x" << b.getDimSize(1);
  if (c.getDimSize(0) != a.getDimSize(0) || c.getDimSize(1) != b.getDimSize(1))
    return emitOpError("accumulator must be ")
           << a.getDimSize(0) << "x" << b.getDimSize(1) << ", got "
           << c.getDimSize(0) << "x" << c.getDimSize(1);
  Type in = a.getElementType();
  if (in != b.getElementType())
    return emitOpError("a and b must have the same element type, got ")
           << in << " and " << b.getElementType();
  if (!isa<BFloat16Type, Float16Type, FloatTF32Type, Float32Type>(in))
    return emitOpError("input element type must be bf16, f16, tf32 or f32, "
                       "got ")
           << in;
  if (!c.getElementType().isF32())
    return emitOpError("accumulator element type must be f32, got ")
           << c.getElementType();
  if (getPrecision() && !in.isF32())
    return emitOpError("precision applies only to f32 inputs");
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp / ScanOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank) {
  if (axis < 0 || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " is out of range for a tile of rank " << rank;
  return success();
}

LogicalResult ReduceOp::verify() {
  RankedTensorType src = getSource().getType(), res = getType();
  if (failed(verifyAxis(*this, getAxis(), src.getRank())))
    return failure();
  if (res.getElementType() != src.getElementType())
    return emitOpError("result element type must match the source");
  SmallVector<int64_t> expected(src.getShape());
  expected[getAxis()] = 1;
  if (res.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape must be the source shape with axis ")
           << getAxis() << " of size 1, expected "
           << RankedTensorType::get(expected, src.getElementType());
  return success();
}

LogicalResult ScanOp::verify() {
  return verifyAxis(*this, getAxis(), getSource().getType().getRank());
}

//===----------------------------------------------------------------------===//
// BroadcastOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  RankedTensorType src = getSource().getType(), res = getType();
  if (src.getRank() != res.getRank())
    return emitOpError("source rank ")
           << src.getRank() << " must equal result rank " << res.getRank()
           << " (reshape first to add size-1 dimensions)";
  for (int64_t i = 0; i < src.getRank(); ++i)
    if (src.getDimSize(i) != 1 && src.getDimSize(i) != res.getDimSize(i))
      return emitOpError("dimension ")
             << i << " of size " << src.getDimSize(i)
             << " can only broadcast if it is 1 or equal to "
             << res.getDimSize(i);
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSource().getType() == getType())
    return getSource();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSource()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

namespace {
/// broadcast(broadcast(x)) -> broadcast(x).
struct ComposeBroadcasts : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSource().getDefiningOp<BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(),
                                             inner.getSource());
    return success();
  }
};

/// broadcast(splat(s)) -> splat(s).
struct BroadcastOfSplat : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSource().getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getValue());
    return success();
  }
};
} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ComposeBroadcasts, BroadcastOfSplat>(context);
}

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  if (getSource().getType().getNumElements() != getType().getNumElements())
    return emitOpError("cannot reshape ")
           << getSource().getType().getNumElements() << " elements into "
           << getType().getNumElements();
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSource().getType() == getType())
    return getSource();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getSource()))
    return dense.reshape(getType());
  // reshape(reshape(x)) -> reshape(x).
  if (auto inner = getSource().getDefiningOp<ReshapeOp>()) {
    getSourceMutable().assign(inner.getSource());
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// PermuteOp
//===----------------------------------------------------------------------===//

LogicalResult PermuteOp::verify() {
  RankedTensorType src = getSource().getType(), res = getType();
  ArrayRef<int64_t> perm = getPermutation();
  if (static_cast<int64_t>(perm.size()) != src.getRank())
    return emitOpError("permutation has ")
           << perm.size() << " entries for a tile of rank " << src.getRank();
  SmallVector<bool> seen(perm.size(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= src.getRank() || seen[p])
      return emitOpError("permutation must be a permutation of 0..")
             << src.getRank() - 1;
    seen[p] = true;
  }
  if (res.getRank() != src.getRank())
    return emitOpError("result rank must equal source rank");
  for (auto [i, p] : llvm::enumerate(perm))
    if (res.getDimSize(i) != src.getDimSize(p))
      return emitOpError("result dimension ")
             << i << " must be source dimension " << p << " of size "
             << src.getDimSize(p) << ", got " << res.getDimSize(i);
  return success();
}

OpFoldResult PermuteOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perm = getPermutation();
  bool identity = llvm::all_of(llvm::enumerate(perm), [](auto it) {
    return static_cast<int64_t>(it.index()) == it.value();
  });
  if (identity)
    return getSource();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSource()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  // permute(permute(x, p), q) -> permute(x, p o q).
  if (auto inner = getSource().getDefiningOp<PermuteOp>()) {
    ArrayRef<int64_t> innerPerm = inner.getPermutation();
    SmallVector<int64_t> composed;
    for (int64_t p : perm)
      composed.push_back(innerPerm[p]);
    getSourceMutable().assign(inner.getSource());
    setPermutation(composed);
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSource().getType() == getType())
    return getSource();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSource()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  // Any constant: its elements are read from one array at each register's
  // index, in whatever layout, so no exchange is needed.
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getSource()))
    return dense.reshape(getType());
  // convert(convert(x)) -> convert(x).
  if (auto inner = getSource().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getSource().getType() == getType())
      return inner.getSource();
    getSourceMutable().assign(inner.getSource());
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  if (getSources().empty())
    return emitOpError("needs at least one source");
  if (getResults().size() != getSources().size())
    return emitOpError("has ") << getSources().size() << " sources but "
                               << getResults().size() << " results";
  RankedTensorType src = cast<RankedTensorType>(getSources().front().getType()),
                   res = cast<RankedTensorType>(getResults().front().getType());
  // One exchange serves every source: they share a type, and so do the
  // results.
  for (Value s : getSources())
    if (s.getType() != src)
      return emitOpError("sources must share one type, got ")
             << src << " and " << s.getType();
  for (Value r : getResults())
    if (r.getType() != res)
      return emitOpError("results must share one type, got ")
             << res << " and " << r.getType();
  ArrayRef<int64_t> axes = getAxes();
  if (getIndices().empty())
    return emitOpError("needs at least one index tile");
  if (axes.size() != getIndices().size())
    return emitOpError("has ") << getIndices().size() << " index tiles but "
                               << axes.size() << " axes";
  for (size_t k = 0; k < axes.size(); ++k) {
    if (failed(verifyAxis(*this, axes[k], src.getRank())))
      return failure();
    for (size_t l = 0; l < k; ++l)
      if (axes[l] == axes[k])
        return emitOpError("axis ") << axes[k] << " is gathered twice";
  }
  auto gathered = [&](int64_t d) { return llvm::is_contained(axes, d); };
  for (Value indices : getIndices()) {
    auto idx = cast<RankedTensorType>(indices.getType());
    if (idx.getShape() !=
        cast<RankedTensorType>(getIndices().front().getType()).getShape())
      return emitOpError("index tiles must share one shape");
    if (idx.getRank() != src.getRank())
      return emitOpError("indices must have the rank of the source (")
             << src.getRank() << "), got " << idx.getRank();
    for (int64_t d = 0; d < src.getRank(); ++d)
      if (!gathered(d) && idx.getDimSize(d) != src.getDimSize(d))
        return emitOpError("indices dimension ")
               << d << " is " << idx.getDimSize(d) << " but the source's is "
               << src.getDimSize(d) << "; only the gathered axes may differ";
    if (res.getShape() != idx.getShape())
      return emitOpError("result shape must be the indices shape");
  }
  if (res.getElementType() != src.getElementType())
    return emitOpError("result element type must match the source");
  return success();
}

//===----------------------------------------------------------------------===//
// IotaOp / SplatOp
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::verify() {
  RankedTensorType type = getType();
  int64_t dim = getDim();
  if (dim < 0 || dim >= type.getRank())
    return emitOpError("dim ") << dim << " is not a dimension of a rank-"
                               << type.getRank() << " tile";
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  if (width < 64 && type.getDimSize(dim) > (int64_t(1) << (width - 1)))
    return emitOpError("values 0..")
           << type.getDimSize(dim) - 1 << " do not fit in "
           << type.getElementType();
  return success();
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  if (auto value = adaptor.getValue())
    if (isa<IntegerAttr, FloatAttr>(value))
      return SplatElementsAttr::get(getType(), value);
  return {};
}

#define GET_OP_CLASSES
#include "dialect/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared memory, mbarriers, TMA and wgmma
//===----------------------------------------------------------------------===//

static bool isBarrierArray(SharedMemType type) {
  return type.getRank() == 1 && type.getElementType().isInteger(64) &&
         !type.getEncoding();
}

/// local_alloc %t after an earlier local_alloc %t of the same type in the
/// block: the earlier buffer already holds the tile (buffers with an init
/// are only read).
bool LocalAllocOp::isWrittenAfterInit() {
  return llvm::any_of(getOperation()->getUsers(),
                      [](Operation *user) { return isa<AsyncLoadOp>(user); });
}

LogicalResult LocalAllocOp::canonicalize(LocalAllocOp op,
                                         PatternRewriter &rewriter) {
  if (!op.getInit() || op.isWrittenAfterInit())
    return failure();
  for (Operation *user : op.getInit().getUsers()) {
    auto earlier = dyn_cast<LocalAllocOp>(user);
    if (!earlier || earlier == op || earlier->getBlock() != op->getBlock() ||
        !earlier->isBeforeInBlock(op) || earlier.getType() != op.getType() ||
        earlier.isWrittenAfterInit())
      continue;
    rewriter.replaceOp(op, earlier.getResult());
    return success();
  }
  return failure();
}

LogicalResult LocalAllocOp::verify() {
  SharedMemType buffer = getResult().getType();
  if (!getInit())
    return success();
  auto init = cast<RankedTensorType>(getInit().getType());
  if (init.getShape() != buffer.getShape() ||
      init.getElementType() != buffer.getElementType())
    return emitOpError("the tile (") << init << ") and the buffer (" << buffer
                                     << ") differ in shape or element type";
  if (!getLayout(init))
    return emitOpError("the tile needs a layout (level 2)");
  return success();
}

LogicalResult LocalIndexOp::verify() {
  SharedMemType buffer = getBuffer().getType(), stage = getResult().getType();
  if (buffer.getRank() != stage.getRank() + 1 ||
      buffer.getShape().drop_front() != stage.getShape() ||
      buffer.getElementType() != stage.getElementType() ||
      buffer.getEncoding() != stage.getEncoding())
    return emitOpError("the result must be one stage of the buffer: ")
           << buffer << " has no stage of type " << stage;
  return success();
}

LogicalResult BarrierAllocOp::verify() {
  if (!isBarrierArray(getResult().getType()))
    return emitOpError("mbarriers are a !tile.smem<Nxi64>, got ")
           << getResult().getType();
  return success();
}

LogicalResult BarrierWaitOp::verify() {
  if (!isBarrierArray(getBarriers().getType()))
    return emitOpError("expected mbarriers (!tile.smem<Nxi64>), got ")
           << getBarriers().getType();
  return success();
}

LogicalResult AsyncLoadOp::verify() {
  ViewType view = getView().getType();
  SharedMemType dest = getDest().getType();
  if (getIndices().size() != size_t(view.getRank()))
    return emitOpError("expected ")
           << view.getRank() << " indices for a rank-" << view.getRank()
           << " view, got " << getIndices().size();
  if (dest.getRank() != 2)
    return emitOpError("the destination must be 2-D, got ") << dest;
  if (view.getRank() != 2 && !getCpAsync())
    return emitOpError("TMA copies from 2-D views here; a rank-")
           << view.getRank() << " view needs cp_async";
  if (view.getRank() < 2)
    return emitOpError("the view must have rank 2 or more");
  if (auto rows = getRowsDim())
    if (*rows < 0 || *rows >= view.getRank() - 1)
      return emitOpError("rows(")
             << *rows << ") must name a dimension before the last of the "
             << "rank-" << view.getRank() << " view";
  if (dest.getElementType() != view.getElementType())
    return emitOpError("the view holds ")
           << view.getElementType() << " but the buffer "
           << dest.getElementType();
  if (!isa_and_nonnull<NvmmaSharedLayoutAttr>(dest.getEncoding()))
    return emitOpError("the destination needs a #tile.nvmma_shared layout");
  if (!getCpAsync())
    for (int64_t d : dest.getShape())
      if (d > 256)
        return emitOpError("a TMA box dimension is at most 256, got ") << d;
  if (!isBarrierArray(getBarriers().getType()))
    return emitOpError("expected mbarriers (!tile.smem<Nxi64>), got ")
           << getBarriers().getType();
  auto arg = dyn_cast<BlockArgument>(getView());
  if (!arg || !isa<KernelOp>(arg.getOwner()->getParentOp()))
    return emitOpError("the view must be an argument of the kernel (its "
                       "tensor map is encoded at launch)");
  return success();
}

LogicalResult WarpgroupMmaOp::verify() {
  SharedMemType b = getB().getType();
  RankedTensorType c = getAcc().getType();
  Type a = getA().getType();
  if (getAShape().size() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError("operands must be 2-D");
  const int64_t bK = b.getShape()[getTransB() ? 1 : 0];
  if (getK() != bK || c.getDimSize(0) != getM() || c.getDimSize(1) != getN())
    return emitOpError("shapes do not compose: ")
           << a << (getTransA() ? " (transposed)" : "") << " * " << b
           << (getTransB() ? " (transposed)" : "") << " + " << c;
  Type in = getAElementType();
  if (in != b.getElementType() || !isa<BFloat16Type, Float16Type>(in)) {
    if (in != b.getElementType() || !in.isF32())
      return emitOpError("operands must both be bf16, both f16 or both f32 "
                         "(read as tf32)");
    // PTX: tf32 (and 8-bit) wgmma reads both operands K-major from shared
    // memory.
    if (getTransA() || !getTransB() || getRegisterA())
      return emitOpError("f32 (tf32) operands must both be K-major in shared "
                         "memory: A stored M x K, B stored N x K "
                         "(transposed)");
  }
  auto sharedA = dyn_cast<SharedMemType>(a);
  if ((sharedA &&
       !isa_and_nonnull<NvmmaSharedLayoutAttr>(sharedA.getEncoding())) ||
      !isa_and_nonnull<NvmmaSharedLayoutAttr>(b.getEncoding()))
    return emitOpError("operands in shared memory need #tile.nvmma_shared "
                       "layouts");
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(c.getEncoding());
  if (!c.getElementType().isF32() || !mma || mma.getVersion() != 3)
    return emitOpError("the accumulator must be f32 in a version 3 mma "
                       "layout, got ")
           << c;
  if (RankedTensorType ra =
          getRegisterA() ? getRegisterA().getType() : RankedTensorType()) {
    // wgmma reads register A fragments as they are: no transpose, and the
    // fragments of the accumulator's own warp arrangement.
    auto dot = dyn_cast_or_null<DotOperandLayoutAttr>(ra.getEncoding());
    if (getTransA() || !dot || dot.getOpIdx() != 0 || dot.getKWidth() != 2 ||
        dot.getParent() != mma)
      return emitOpError("an A operand in registers must be untransposed in "
                         "the A dot-operand layout (kwidth 2) of the "
                         "accumulator's layout, got ")
             << ra;
  }
  const int64_t kStep = in.isF32() ? 8 : 16;
  if (getK() % kStep != 0)
    return emitOpError("K must be a multiple of ")
           << kStep << ", got " << getK();
  const int64_t wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  if (c.getDimSize(0) % (16 * wm) != 0 || wm % 4 != 0 ||
      c.getDimSize(1) % (mma.getInstrShape()[1] * wn) != 0)
    return emitOpError("the accumulator layout must stack whole warpgroups "
                       "along M (then N) and tile N by the instruction");
  return success();
}

LogicalResult LocalLoadOp::verify() {
  SharedMemType buffer = getBuffer().getType();
  RankedTensorType result = getResult().getType();
  if (result.getShape() != buffer.getShape() ||
      result.getElementType() != buffer.getElementType())
    return emitOpError("the buffer (") << buffer << ") and the tile (" << result
                                       << ") differ in shape or element type";
  if (!getLayout(result))
    return emitOpError("the tile needs a layout (level 2)");
  return success();
}

unsigned tessera::tile::numWarpsOf(Operation *op) {
  // The nearest of: a kernel's num_warps, a tile.num_warps (the module's,
  // or the one KernelToLLVM leaves on the llvm.func a kernel became, which
  // patterns of the same conversion see once the body has moved there).
  for (Operation *p = op; p; p = p->getParentOp()) {
    if (auto kernel = dyn_cast<KernelOp>(p))
      if (std::optional<uint32_t> warps = kernel.getNumWarps())
        return *warps;
    if (auto attr = p->getAttrOfType<IntegerAttr>(kNumWarpsAttrName))
      return unsigned(attr.getInt());
  }
  return 4;
}
