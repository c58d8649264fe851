//===- Builder.cpp - the embedded C++ tile DSL
//-----------------------------===//

#include "dsl/Tessera.h"

#include "dialect/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <exception>
#include <limits>

using namespace mlir;
namespace tile = tessera::tile;

namespace tessera::dsl {
namespace {

/// The builder of the kernel body being built on this thread.
thread_local OpBuilder *currentBuilder = nullptr;

std::string where(const Loc &loc) {
  std::string file = loc.file_name();
  return file + ":" + std::to_string(loc.line()) + ":" +
         std::to_string(loc.column());
}

[[noreturn]] void fail(const Loc &loc, const std::string &message) {
  throw Error(where(loc) + ": error: " + message);
}

OpBuilder &builder(const Loc &loc) {
  if (!currentBuilder)
    fail(loc, "DSL call outside a kernel body");
  return *currentBuilder;
}

Location mlirLoc(const Loc &loc) {
  return FileLineColLoc::get(builder(loc).getContext(), loc.file_name(),
                             loc.line(), loc.column());
}

/// Makes `builder` current for the lifetime of the guard.
struct BuilderScope {
  explicit BuilderScope(OpBuilder &b) : saved(currentBuilder) {
    currentBuilder = &b;
  }
  ~BuilderScope() { currentBuilder = saved; }
  OpBuilder *saved;
};

std::string str(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

std::string str(const Shape &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += std::string(i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

/// Verifies a freshly built op (not its regions), turning a verifier
/// diagnostic into an Error at the C++ call site. Ops built inside a loop or
/// branch body are not attached to the kernel until the region is complete;
/// those are checked when the whole kernel is verified (the diagnostic then
/// carries the same C++ location).
template <typename OpT> OpT verified(OpT op, const Loc &loc) {
  if (!op->template getParentOfType<tile::KernelOp>())
    return op;
  std::string message;
  LogicalResult result = success();
  {
    ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    result = mlir::verify(op.getOperation(), /*verifyRecursively=*/false);
  }
  if (failed(result)) {
    std::string name = op->getName().getStringRef().str();
    op->erase();
    fail(loc, name + ": " + message);
  }
  return op;
}

Type mlirType(DType dtype, MLIRContext *ctx) {
  switch (dtype) {
  case DType::f16:
    return Float16Type::get(ctx);
  case DType::bf16:
    return BFloat16Type::get(ctx);
  case DType::tf32:
    return FloatTF32Type::get(ctx);
  case DType::f32:
    return Float32Type::get(ctx);
  case DType::f64:
    return Float64Type::get(ctx);
  case DType::i1:
    return IntegerType::get(ctx, 1);
  case DType::i8:
    return IntegerType::get(ctx, 8);
  case DType::i16:
    return IntegerType::get(ctx, 16);
  case DType::i32:
    return IntegerType::get(ctx, 32);
  case DType::i64:
    return IntegerType::get(ctx, 64);
  case DType::index:
    return IndexType::get(ctx);
  }
  return {};
}

DType dslType(Type type) {
  if (type.isF16())
    return DType::f16;
  if (type.isBF16())
    return DType::bf16;
  if (isa<FloatTF32Type>(type))
    return DType::tf32;
  if (type.isF32())
    return DType::f32;
  if (type.isF64())
    return DType::f64;
  if (type.isIndex())
    return DType::index;
  switch (type.getIntOrFloatBitWidth()) {
  case 1:
    return DType::i1;
  case 8:
    return DType::i8;
  case 16:
    return DType::i16;
  case 32:
    return DType::i32;
  default:
    return DType::i64;
  }
}

void checkTileShape(const Shape &shape, const Loc &loc) {
  if (shape.empty())
    fail(loc, "a tile needs at least one dimension");
  for (int64_t d : shape)
    if (d <= 0 || !llvm::isPowerOf2_64(d))
      fail(loc, "tile dimensions must be powers of two, got " + str(shape));
}

RankedTensorType tileType(const Shape &shape, DType dtype, const Loc &loc) {
  checkTileShape(shape, loc);
  if (dtype == DType::index)
    fail(loc, "tiles cannot hold index elements; use i32 or i64");
  return RankedTensorType::get(shape,
                               mlirType(dtype, builder(loc).getContext()));
}

Tile requireTile(const Tile &t, const Loc &loc) {
  if (!t.value())
    fail(loc, "use of an empty Tile (default-constructed, never assigned)");
  return t;
}

Scalar requireScalar(const Scalar &s, const Loc &loc) {
  if (!s.value())
    fail(loc, "use of an empty Scalar");
  return s;
}

Value constantScalar(double value, Type type, const Loc &loc) {
  OpBuilder &b = builder(loc);
  Location l = mlirLoc(loc);
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, l, FloatAttr::get(ft, value));
  return arith::ConstantOp::create(b, l,
                                   IntegerAttr::get(type, int64_t(value)));
}

Attribute scalarAttr(double value, Type type) {
  if (auto ft = dyn_cast<FloatType>(type))
    return FloatAttr::get(ft, value);
  return IntegerAttr::get(type, int64_t(value));
}

/// Brings two tiles to a common shape (numpy broadcasting: align trailing
/// dimensions; size-1 dimensions stretch).
std::pair<Value, Value> broadcastPair(const Tile &a, const Tile &b,
                                      const Loc &loc) {
  requireTile(a, loc);
  requireTile(b, loc);
  Shape sa = a.shape(), sb = b.shape();
  size_t rank = std::max(sa.size(), sb.size());
  sa.insert(sa.begin(), rank - sa.size(), 1);
  sb.insert(sb.begin(), rank - sb.size(), 1);
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    if (sa[i] != sb[i] && sa[i] != 1 && sb[i] != 1)
      fail(loc, "cannot broadcast shapes " + str(a.shape()) + " and " +
                    str(b.shape()));
    out[i] = std::max(sa[i], sb[i]);
  }
  auto expand = [&](const Tile &t, const Shape &padded) {
    Tile r = t;
    if (padded.size() != t.shape().size())
      r = reshape(r, padded, loc);
    if (padded != out)
      r = broadcast_to(r, out, loc);
    return r.value();
  };
  return {expand(a, sa), expand(b, sb)};
}

void requireSameDType(Value a, Value b, const char *what, const Loc &loc) {
  Type ta = getElementTypeOrSelf(a.getType());
  Type tb = getElementTypeOrSelf(b.getType());
  if (ta != tb)
    fail(loc, std::string(what) + ": operands have different element types " +
                  str(ta) + " and " + str(tb) + "; convert one with cast()");
}

enum class BinOp { add, sub, mul, div, rem, max, min, land, lor };

Value binary(BinOp op, Value a, Value b, const Loc &loc) {
  requireSameDType(a, b, "arithmetic", loc);
  OpBuilder &bl = builder(loc);
  Location l = mlirLoc(loc);
  Type elt = getElementTypeOrSelf(a.getType());
  bool isF = isa<FloatType>(elt);
  switch (op) {
  case BinOp::add:
    return isF ? Value(arith::AddFOp::create(bl, l, a, b))
               : Value(arith::AddIOp::create(bl, l, a, b));
  case BinOp::sub:
    return isF ? Value(arith::SubFOp::create(bl, l, a, b))
               : Value(arith::SubIOp::create(bl, l, a, b));
  case BinOp::mul:
    return isF ? Value(arith::MulFOp::create(bl, l, a, b))
               : Value(arith::MulIOp::create(bl, l, a, b));
  case BinOp::div:
    return isF ? Value(arith::DivFOp::create(bl, l, a, b))
               : Value(arith::DivSIOp::create(bl, l, a, b));
  case BinOp::rem:
    return isF ? Value(arith::RemFOp::create(bl, l, a, b))
               : Value(arith::RemSIOp::create(bl, l, a, b));
  case BinOp::max:
    return isF ? Value(arith::MaximumFOp::create(bl, l, a, b))
               : Value(arith::MaxSIOp::create(bl, l, a, b));
  case BinOp::min:
    return isF ? Value(arith::MinimumFOp::create(bl, l, a, b))
               : Value(arith::MinSIOp::create(bl, l, a, b));
  case BinOp::land:
  case BinOp::lor:
    if (!elt.isInteger(1))
      fail(loc, "&& and || need i1 (comparison) operands, got " + str(elt));
    return op == BinOp::land ? Value(arith::AndIOp::create(bl, l, a, b))
                             : Value(arith::OrIOp::create(bl, l, a, b));
  }
  return {};
}

enum class CmpOp { lt, le, gt, ge, eq, ne };

Value compare(CmpOp op, Value a, Value b, const Loc &loc) {
  requireSameDType(a, b, "comparison", loc);
  OpBuilder &bl = builder(loc);
  Location l = mlirLoc(loc);
  Type elt = getElementTypeOrSelf(a.getType());
  if (isa<FloatType>(elt)) {
    static const arith::CmpFPredicate preds[] = {
        arith::CmpFPredicate::OLT, arith::CmpFPredicate::OLE,
        arith::CmpFPredicate::OGT, arith::CmpFPredicate::OGE,
        arith::CmpFPredicate::OEQ, arith::CmpFPredicate::UNE};
    return arith::CmpFOp::create(bl, l, preds[int(op)], a, b);
  }
  static const arith::CmpIPredicate preds[] = {
      arith::CmpIPredicate::slt, arith::CmpIPredicate::sle,
      arith::CmpIPredicate::sgt, arith::CmpIPredicate::sge,
      arith::CmpIPredicate::eq,  arith::CmpIPredicate::ne};
  return arith::CmpIOp::create(bl, l, preds[int(op)], a, b);
}

Tile tileBinary(BinOp op, const TileAt &a, const Tile &b) {
  auto [x, y] = broadcastPair(a.tile, b, a.loc);
  return Tile(binary(op, x, y, a.loc));
}

Tile tileCompare(CmpOp op, const TileAt &a, const Tile &b) {
  auto [x, y] = broadcastPair(a.tile, b, a.loc);
  return Tile(compare(op, x, y, a.loc));
}

/// A tile of a's shape and dtype filled with `value`.
Tile like(const Tile &a, double value, const Loc &loc) {
  requireTile(a, loc);
  return full(a.shape(), value, a.dtype(), loc);
}

Tile splatLike(const Tile &a, const Scalar &s, const Loc &loc) {
  requireTile(a, loc);
  requireScalar(s, loc);
  if (s.dtype() != a.dtype())
    fail(loc, std::string("scalar of type ") + name(s.dtype()) +
                  " combined with a tile of " + name(a.dtype()) +
                  "; cast one of them");
  return splat(s, a.shape(), loc);
}

Value unaryMath(
    const Tile &x, const Loc &loc,
    const std::function<Value(OpBuilder &, Location, Value)> &make) {
  requireTile(x, loc);
  if (!isFloat(x.dtype()))
    fail(loc, std::string("math functions need a float tile, got ") +
                  name(x.dtype()));
  return make(builder(loc), mlirLoc(loc), x.value());
}

Tile reduction(const Tile &t, int64_t axis, tile::CombineKind kind,
               const Loc &loc) {
  requireTile(t, loc);
  Shape shape = t.shape();
  if (axis < 0 || axis >= int64_t(shape.size()))
    fail(loc, "reduction axis " + std::to_string(axis) +
                  " out of range for a tile of shape " + str(shape));
  shape[axis] = 1;
  auto type = RankedTensorType::get(shape, getElementTypeOrSelf(t.value()));
  return Tile(verified(tile::ReduceOp::create(builder(loc), mlirLoc(loc), type,
                                              t.value(), kind, axis),
                       loc)
                  .getResult());
}

Tile scanOf(const Tile &t, int64_t axis, bool reverse, tile::CombineKind kind,
            const Loc &loc) {
  requireTile(t, loc);
  if (axis < 0 || axis >= t.rank())
    fail(loc, "scan axis " + std::to_string(axis) +
                  " out of range for a tile of shape " + str(t.shape()));
  OpBuilder &b = builder(loc);
  return Tile(
      verified(tile::ScanOp::create(b, mlirLoc(loc), t.value().getType(),
                                    t.value(), kind, axis, reverse),
               loc)
          .getResult());
}

std::optional<tile::CachePolicy> toPolicy(std::optional<Cache> cache) {
  if (!cache)
    return std::nullopt;
  switch (*cache) {
  case Cache::normal:
    return tile::CachePolicy::normal;
  case Cache::evict_first:
    return tile::CachePolicy::evict_first;
  case Cache::evict_last:
    return tile::CachePolicy::evict_last;
  }
  return std::nullopt;
}

SmallVector<Value> indexValues(const View &view,
                               const std::vector<Scalar> &index,
                               const Loc &loc) {
  if (!view.value())
    fail(loc, "use of an empty View");
  if (int64_t(index.size()) != view.rank())
    fail(loc, "a view of rank " + std::to_string(view.rank()) + " needs " +
                  std::to_string(view.rank()) + " tile indices, got " +
                  std::to_string(index.size()));
  SmallVector<Value> values;
  for (const Scalar &s : index) {
    requireScalar(s, loc);
    if (s.dtype() != DType::index)
      values.push_back(cast(s, DType::index, loc).value());
    else
      values.push_back(s.value());
  }
  return values;
}

} // namespace

//===----------------------------------------------------------------------===//
// Types and values
//===----------------------------------------------------------------------===//

const char *name(DType dtype) {
  static const char *names[] = {"f16", "bf16", "tf32", "f32", "f64",  "i1",
                                "i8",  "i16",  "i32",  "i64", "index"};
  return names[int(dtype)];
}

bool isFloat(DType dtype) {
  return dtype == DType::f16 || dtype == DType::bf16 || dtype == DType::tf32 ||
         dtype == DType::f32 || dtype == DType::f64;
}

Scalar::Scalar(int64_t constant, Loc loc)
    : value_(arith::ConstantIndexOp::create(builder(loc), mlirLoc(loc),
                                            constant)) {}

DType Scalar::dtype() const { return dslType(value_.getType()); }

Shape Tile::shape() const {
  auto t = cast<RankedTensorType>(value_.getType());
  return Shape(t.getShape().begin(), t.getShape().end());
}

DType Tile::dtype() const { return dslType(getElementTypeOrSelf(value_)); }

int64_t View::rank() const {
  return cast<tile::ViewType>(value_.getType()).getRank();
}

DType View::dtype() const {
  return dslType(cast<tile::ViewType>(value_.getType()).getElementType());
}

Scalar View::dim(int64_t axis, Loc loc) const {
  if (!value_)
    fail(loc, "use of an empty View");
  if (axis < 0 || axis >= rank())
    fail(loc, "axis " + std::to_string(axis) +
                  " out of range for a view of "
                  "rank " +
                  std::to_string(rank()));
  return Scalar(tile::DimOp::create(builder(loc), mlirLoc(loc), value_, axis)
                    .getResult());
}

Arg::operator View() const {
  if (param_.rank == 0)
    throw Error("kernel argument '" + param_.name +
                "' is a scalar, not a view");
  return View(value_);
}

Arg::operator Scalar() const {
  if (param_.rank != 0)
    throw Error("kernel argument '" + param_.name +
                "' is a view, not a scalar");
  return Scalar(value_);
}

Arg KernelArgs::operator[](size_t index) const {
  if (index >= args_.size())
    throw Error("kernel argument #" + std::to_string(index) +
                " out of range (the kernel has " +
                std::to_string(args_.size()) + ")");
  return args_[index];
}

Arg KernelArgs::operator[](const std::string &name) const {
  for (const Arg &a : args_)
    if (a.param().name == name)
      return a;
  throw Error("the kernel has no argument named '" + name + "'");
}

//===----------------------------------------------------------------------===//
// KernelModule
//===----------------------------------------------------------------------===//

std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  tile::registerTileKernelDialects(registry);
  auto ctx = std::make_unique<MLIRContext>(registry);
  ctx->loadAllAvailableDialects();
  return ctx;
}

KernelModule::KernelModule(MLIRContext *context) {
  if (!context) {
    ownedContext_ = makeContext();
    context = ownedContext_.get();
  } else {
    DialectRegistry registry;
    tile::registerTileKernelDialects(registry);
    context->appendDialectRegistry(registry);
    context->loadAllAvailableDialects();
  }
  context_ = context;
  module_ = ModuleOp::create(UnknownLoc::get(context_));
}

KernelModule::~KernelModule() = default;

ModuleOp KernelModule::module() const { return *module_; }

OwningOpRef<ModuleOp> KernelModule::release() { return std::move(module_); }

std::string KernelModule::str(bool debugInfo) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  OpPrintingFlags flags;
  if (debugInfo)
    flags.enableDebugInfo();
  module().print(os, flags);
  return s;
}

void KernelModule::kernel(const std::string &name,
                          const std::vector<Param> &params,
                          const std::function<void(KernelArgs &)> &body,
                          Loc loc) {
  if (!module_)
    fail(loc, "the module was released");
  OpBuilder b(context_);
  b.setInsertionPointToEnd(module_->getBody());
  BuilderScope scope(b);
  if (module_->lookupSymbol(name))
    fail(loc, "a kernel named '" + name + "' already exists in this module");

  SmallVector<Type> inputs;
  for (const Param &p : params) {
    if (p.rank < 0)
      fail(loc, "parameter '" + p.name + "' has a negative rank");
    if (p.rank == 0) {
      if (p.dtype != DType::index && p.dtype != DType::i32 &&
          p.dtype != DType::i64 && p.dtype != DType::f32 &&
          p.dtype != DType::f64)
        fail(loc, "scalar parameter '" + p.name +
                      "' must be index, i32, i64, f32 or f64");
      inputs.push_back(mlirType(p.dtype, context_));
    } else {
      if (p.dtype == DType::index || p.dtype == DType::tf32)
        fail(loc, std::string("view parameter '") + p.name +
                      "' cannot have element type " + dsl::name(p.dtype));
      inputs.push_back(tile::ViewType::get(
          context_, SmallVector<int64_t>(p.rank, ShapedType::kDynamic),
          mlirType(p.dtype, context_)));
    }
  }
  auto kernelOp = tile::KernelOp::create(b, mlirLoc(loc), name,
                                         b.getFunctionType(inputs, {}));
  Block &entry = kernelOp.getBody().front();
  KernelArgs args;
  for (auto [i, p] : llvm::enumerate(params))
    args.args_.emplace_back(entry.getArgument(i), p);

  OpBuilder inner(context_);
  inner.setInsertionPoint(entry.getTerminator());
  try {
    BuilderScope bodyScope(inner);
    body(args);
  } catch (...) {
    kernelOp->erase();
    throw;
  }

  std::string message;
  LogicalResult result = success();
  {
    ScopedDiagnosticHandler handler(context_, [&](Diagnostic &diag) {
      if (message.empty()) {
        llvm::raw_string_ostream os(message);
        if (auto fl = dyn_cast<FileLineColLoc>(diag.getLocation()))
          os << fl.getFilename().getValue() << ":" << fl.getLine() << ":"
             << fl.getColumn();
        else
          os << diag.getLocation();
        os << ": error: " << diag.str();
      }
      return success();
    });
    result = mlir::verify(kernelOp);
  }
  if (failed(result)) {
    kernelOp->erase();
    throw Error(message);
  }
}

//===----------------------------------------------------------------------===//
// Program structure, memory
//===----------------------------------------------------------------------===//

static Scalar gridQuery(bool count, int axis, const Loc &loc) {
  if (axis < 0 || axis > 2)
    fail(loc, "grid axis must be 0, 1 or 2, got " + std::to_string(axis));
  auto dim = static_cast<tile::GridDim>(axis);
  OpBuilder &b = builder(loc);
  if (count)
    return Scalar(
        tile::NumProgramsOp::create(b, mlirLoc(loc), dim).getResult());
  return Scalar(tile::ProgramIdOp::create(b, mlirLoc(loc), dim).getResult());
}

Scalar program_id(int axis, Loc loc) { return gridQuery(false, axis, loc); }
Scalar num_programs(int axis, Loc loc) { return gridQuery(true, axis, loc); }

namespace {
/// The kernel whose body is being built, or a failure naming `what` (the
/// insertion point may be inside a loop or branch body not yet attached to
/// it).
tile::KernelOp kernelBeingBuilt(const char *what, Loc loc) {
  OpBuilder &b = builder(loc);
  Operation *op = b.getInsertionBlock()->getParentOp();
  while (op && !isa<tile::KernelOp>(op))
    op = op->getParentOp();
  auto kernel = dyn_cast_or_null<tile::KernelOp>(op);
  if (!kernel)
    fail(loc, std::string(what) + " must be called in a kernel's body, "
                                  "outside loops and branches");
  return kernel;
}
} // namespace

void min_blocks_per_sm(int64_t blocks, Loc loc) {
  if (blocks < 1 || blocks > 32)
    fail(loc, "min_blocks_per_sm takes 1 to 32 blocks, got " +
                  std::to_string(blocks));
  kernelBeingBuilt("min_blocks_per_sm", loc)
      .setMinBlocksPerSm(uint32_t(blocks));
}

void num_warps(int64_t warps, Loc loc) {
  if (warps < 1 || warps > 32 || (warps & (warps - 1)) != 0)
    fail(loc, "num_warps takes a power of two from 1 to 32, got " +
                  std::to_string(warps));
  kernelBeingBuilt("num_warps", loc).setNumWarps(uint32_t(warps));
}

Scalar constant(double value, DType dtype, Loc loc) {
  return Scalar(
      constantScalar(value, mlirType(dtype, builder(loc).getContext()), loc));
}

Tile load(const View &view, const std::vector<Scalar> &index,
          const Shape &shape, const LoadOptions &options, Loc loc) {
  SmallVector<Value> indices = indexValues(view, index, loc);
  if (int64_t(shape.size()) != view.rank())
    fail(loc, "tile shape " + str(shape) + " must have the rank of the view (" +
                  std::to_string(view.rank()) +
                  "); use size-1 dimensions and reshape()");
  RankedTensorType type = tileType(shape, view.dtype(), loc);
  OpBuilder &b = builder(loc);
  FloatAttr padding =
      options.padding ? b.getF64FloatAttr(*options.padding) : FloatAttr();
  IntegerAttr latency =
      options.latency ? b.getI32IntegerAttr(*options.latency) : IntegerAttr();
  tile::CachePolicyAttr cache;
  if (auto p = toPolicy(options.cache))
    cache = tile::CachePolicyAttr::get(b.getContext(), *p);
  auto op = tile::LoadOp::create(
      b, mlirLoc(loc), type, view.value(), indices, padding, latency, cache,
      options.allow_tma ? b.getUnitAttr() : UnitAttr(),
      options.at_use ? b.getUnitAttr() : UnitAttr());
  return Tile(verified(op, loc).getResult());
}

void store(const View &view, const std::vector<Scalar> &index, const Tile &tile,
           const StoreOptions &options, Loc loc) {
  SmallVector<Value> indices = indexValues(view, index, loc);
  requireTile(tile, loc);
  if (tile.rank() != view.rank())
    fail(loc, "tile of shape " + str(tile.shape()) +
                  " must have the rank of the view (" +
                  std::to_string(view.rank()) + "); reshape() it");
  if (tile.dtype() != view.dtype())
    fail(loc, std::string("storing a ") + name(tile.dtype()) +
                  " tile into a view of " + name(view.dtype()) +
                  "; cast() it first");
  OpBuilder &b = builder(loc);
  IntegerAttr latency =
      options.latency ? b.getI32IntegerAttr(*options.latency) : IntegerAttr();
  tile::CachePolicyAttr cache;
  if (auto p = toPolicy(options.cache))
    cache = tile::CachePolicyAttr::get(b.getContext(), *p);
  verified(tile::StoreOp::create(
               b, mlirLoc(loc), tile.value(), view.value(), indices, latency,
               cache, options.allow_tma ? b.getUnitAttr() : UnitAttr()),
           loc);
}

//===----------------------------------------------------------------------===//
// Construction and shape
//===----------------------------------------------------------------------===//

Tile full(const Shape &shape, double value, DType dtype, Loc loc) {
  RankedTensorType type = tileType(shape, dtype, loc);
  auto attr =
      SplatElementsAttr::get(type, scalarAttr(value, type.getElementType()));
  return Tile(arith::ConstantOp::create(builder(loc), mlirLoc(loc), attr));
}

Tile zeros(const Shape &shape, DType dtype, Loc loc) {
  return full(shape, 0.0, dtype, loc);
}

Tile constant(const Shape &shape, DType dtype,
              const std::vector<double> &values, Loc loc) {
  RankedTensorType type = tileType(shape, dtype, loc);
  if (int64_t(values.size()) != type.getNumElements())
    fail(loc, "constant of shape " + str(shape) + " needs " +
                  std::to_string(type.getNumElements()) + " values, got " +
                  std::to_string(values.size()));
  SmallVector<Attribute> attrs;
  for (double v : values)
    attrs.push_back(scalarAttr(v, type.getElementType()));
  return Tile(arith::ConstantOp::create(builder(loc), mlirLoc(loc),
                                        DenseElementsAttr::get(type, attrs)));
}

Tile splat(const Scalar &value, const Shape &shape, Loc loc) {
  requireScalar(value, loc);
  RankedTensorType type = tileType(shape, value.dtype(), loc);
  return Tile(verified(tile::SplatOp::create(builder(loc), mlirLoc(loc), type,
                                             value.value()),
                       loc)
                  .getResult());
}

Tile iota(int64_t n, DType dtype, Loc loc) {
  if (isFloat(dtype) || dtype == DType::index || dtype == DType::i1)
    fail(loc, std::string("iota needs an integer type, got ") + name(dtype));
  RankedTensorType type = tileType({n}, dtype, loc);
  return Tile(
      verified(tile::IotaOp::create(builder(loc), mlirLoc(loc), type), loc)
          .getResult());
}

Tile reshape(const Tile &t, const Shape &shape, Loc loc) {
  requireTile(t, loc);
  RankedTensorType type = tileType(shape, t.dtype(), loc);
  auto src = cast<RankedTensorType>(t.value().getType());
  if (src.getNumElements() != type.getNumElements())
    fail(loc, "cannot reshape " + str(t.shape()) + " into " + str(shape) +
                  ": element counts differ");
  if (src == type)
    return t;
  return Tile(
      tile::ReshapeOp::create(builder(loc), mlirLoc(loc), type, t.value())
          .getResult());
}

Tile broadcast_to(const Tile &t, const Shape &shape, Loc loc) {
  requireTile(t, loc);
  Shape src = t.shape();
  if (src.size() > shape.size())
    fail(loc,
         "cannot broadcast " + str(src) + " to the lower rank " + str(shape));
  Tile r = t;
  if (src.size() < shape.size()) {
    src.insert(src.begin(), shape.size() - src.size(), 1);
    r = reshape(t, src, loc);
  }
  for (size_t i = 0; i < shape.size(); ++i)
    if (src[i] != 1 && src[i] != shape[i])
      fail(loc, "cannot broadcast " + str(t.shape()) + " to " + str(shape));
  if (src == shape)
    return r;
  RankedTensorType type = tileType(shape, t.dtype(), loc);
  return Tile(
      tile::BroadcastOp::create(builder(loc), mlirLoc(loc), type, r.value())
          .getResult());
}

Tile permute(const Tile &t, const std::vector<int64_t> &permutation, Loc loc) {
  requireTile(t, loc);
  Shape src = t.shape();
  if (permutation.size() != src.size())
    fail(loc, "permutation of " + std::to_string(permutation.size()) +
                  " entries for a tile of rank " + std::to_string(src.size()));
  Shape out;
  std::vector<bool> seen(src.size(), false);
  for (int64_t p : permutation) {
    if (p < 0 || p >= int64_t(src.size()) || seen[p])
      fail(loc, "invalid permutation " + str(permutation));
    seen[p] = true;
    out.push_back(src[p]);
  }
  RankedTensorType type = tileType(out, t.dtype(), loc);
  return Tile(tile::PermuteOp::create(builder(loc), mlirLoc(loc), type,
                                      t.value(), permutation)
                  .getResult());
}

std::vector<Tile> gather(const std::vector<Tile> &tiles,
                         const std::vector<Tile> &indices,
                         const std::vector<int64_t> &axes, Loc loc) {
  if (tiles.empty())
    fail(loc, "gather needs at least one tile");
  const Tile &t = tiles.front();
  requireTile(t, loc);
  for (const Tile &other : tiles) {
    requireTile(other, loc);
    if (other.shape() != t.shape() || other.dtype() != t.dtype())
      fail(loc, "tiles gathered together must share one shape and dtype, "
                "got " +
                    str(t.shape()) + " " + name(t.dtype()) + " and " +
                    str(other.shape()) + " " + name(other.dtype()));
  }
  if (indices.empty() || indices.size() != axes.size())
    fail(loc, "gather needs one index tile per axis, got " +
                  std::to_string(indices.size()) + " index tiles and " +
                  std::to_string(axes.size()) + " axes");
  requireTile(indices.front(), loc);
  Shape ts = t.shape(), is = indices.front().shape();
  std::vector<mlir::Value> values;
  for (size_t k = 0; k < axes.size(); ++k) {
    const Tile &idx = indices[k];
    requireTile(idx, loc);
    if (isFloat(idx.dtype()) || idx.dtype() == DType::i1)
      fail(loc, std::string("gather indices must be an integer tile, got ") +
                    name(idx.dtype()));
    if (axes[k] < 0 || axes[k] >= t.rank())
      fail(loc, "gather axis " + std::to_string(axes[k]) +
                    " out of range for a tile of shape " + str(ts));
    for (size_t l = 0; l < k; ++l)
      if (axes[l] == axes[k])
        fail(loc, "gather axis " + std::to_string(axes[k]) + " given twice");
    if (idx.shape() != is)
      fail(loc, "gather index tiles must share one shape, got " + str(is) +
                    " and " + str(idx.shape()));
    values.push_back(idx.value());
  }
  bool ok = is.size() == ts.size();
  for (size_t d = 0; ok && d < ts.size(); ++d)
    ok = llvm::is_contained(axes, int64_t(d)) || is[d] == ts[d];
  if (!ok)
    fail(loc, "gather indices of shape " + str(is) +
                  " must match the tile's shape " + str(ts) +
                  " except along the gathered axes");
  RankedTensorType type = tileType(is, t.dtype(), loc);
  std::vector<mlir::Value> sources;
  for (const Tile &s : tiles)
    sources.push_back(s.value());
  auto op =
      verified(tile::GatherOp::create(builder(loc), mlirLoc(loc),
                                      std::vector<Type>(tiles.size(), type),
                                      sources, values, axes),
               loc);
  std::vector<Tile> out;
  for (Value r : op.getResults())
    out.push_back(Tile(r));
  return out;
}

Tile gather(const Tile &t, const std::vector<Tile> &indices,
            const std::vector<int64_t> &axes, Loc loc) {
  return gather(std::vector<Tile>{t}, indices, axes, loc).front();
}

Tile gather(const Tile &t, const Tile &indices, int64_t axis, Loc loc) {
  return gather(t, std::vector<Tile>{indices}, std::vector<int64_t>{axis}, loc);
}

Tile transpose(const Tile &t, Loc loc) {
  requireTile(t, loc);
  if (t.rank() < 2)
    fail(loc, "transpose needs a tile of rank 2 or more");
  std::vector<int64_t> perm(t.rank());
  for (int64_t i = 0; i < t.rank(); ++i)
    perm[i] = i;
  std::swap(perm[t.rank() - 1], perm[t.rank() - 2]);
  return permute(t, perm, loc);
}

static Value castValue(Value v, Type to, const Loc &loc) {
  Type from = getElementTypeOrSelf(v.getType());
  Type toElt = getElementTypeOrSelf(to);
  if (from == toElt)
    return v;
  OpBuilder &b = builder(loc);
  Location l = mlirLoc(loc);
  auto fromF = dyn_cast<FloatType>(from), toF = dyn_cast<FloatType>(toElt);
  if (fromF && toF) {
    if (toF.getWidth() > fromF.getWidth() ||
        (toF.getWidth() == fromF.getWidth() && isa<Float32Type>(toF)))
      return arith::ExtFOp::create(b, l, to, v);
    if (fromF.getWidth() == toF.getWidth())
      // f16 <-> bf16: through f32 (exact), then round.
      return arith::TruncFOp::create(
          b, l, to,
          castValue(v,
                    isa<RankedTensorType>(v.getType())
                        ? Type(RankedTensorType::get(
                              cast<RankedTensorType>(v.getType()).getShape(),
                              b.getF32Type()))
                        : Type(b.getF32Type()),
                    loc));
    return arith::TruncFOp::create(b, l, to, v);
  }
  if (fromF && !toF) {
    if (toElt.isIndex())
      fail(loc, "cannot cast a float to index directly; cast to i64 first");
    return arith::FPToSIOp::create(b, l, to, v);
  }
  if (!fromF && toF) {
    if (from.isIndex())
      fail(loc, "cannot cast index to a float directly; cast to i64 first");
    if (from.isInteger(1))
      return arith::UIToFPOp::create(b, l, to, v);
    return arith::SIToFPOp::create(b, l, to, v);
  }
  if (from.isIndex() || toElt.isIndex())
    return arith::IndexCastOp::create(b, l, to, v);
  unsigned wf = from.getIntOrFloatBitWidth(),
           wt = toElt.getIntOrFloatBitWidth();
  if (wt > wf)
    return from.isInteger(1) ? Value(arith::ExtUIOp::create(b, l, to, v))
                             : Value(arith::ExtSIOp::create(b, l, to, v));
  return arith::TruncIOp::create(b, l, to, v);
}

Tile cast(const Tile &t, DType dtype, Loc loc) {
  requireTile(t, loc);
  RankedTensorType type = tileType(t.shape(), dtype, loc);
  return Tile(castValue(t.value(), type, loc));
}

Scalar cast(const Scalar &s, DType dtype, Loc loc) {
  requireScalar(s, loc);
  return Scalar(
      castValue(s.value(), mlirType(dtype, builder(loc).getContext()), loc));
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

Tile mma(const Tile &a, const Tile &b, const Tile &acc,
         std::optional<Precision> precision, Loc loc) {
  requireTile(a, loc);
  requireTile(b, loc);
  requireTile(acc, loc);
  Shape sa = a.shape(), sb = b.shape(), sc = acc.shape();
  if (sa.size() != 2 || sb.size() != 2 || sc.size() != 2)
    fail(loc, "mma needs 2-D tiles, got " + str(sa) + ", " + str(sb) + ", " +
                  str(sc));
  if (sa[1] != sb[0])
    fail(loc, "mma: a is " + str(sa) + " and b is " + str(sb) +
                  "; the inner dimensions must match");
  if (sc[0] != sa[0] || sc[1] != sb[1])
    fail(loc, "mma: the accumulator must be [" + std::to_string(sa[0]) + ", " +
                  std::to_string(sb[1]) + "], got " + str(sc));
  if (a.dtype() != b.dtype())
    fail(loc, std::string("mma: a is ") + name(a.dtype()) + " but b is " +
                  name(b.dtype()));
  if (acc.dtype() != DType::f32)
    fail(loc, std::string("mma: the accumulator must be f32, got ") +
                  name(acc.dtype()));
  DType in = a.dtype();
  if (in != DType::bf16 && in != DType::f16 && in != DType::f32 &&
      in != DType::tf32)
    fail(loc, std::string("mma: inputs must be bf16, f16, tf32 or f32, got ") +
                  name(in));
  if (precision && in != DType::f32)
    fail(loc, "mma: a precision applies only to f32 inputs");
  OpBuilder &bl = builder(loc);
  tile::MmaPrecisionAttr precAttr;
  if (precision)
    precAttr = tile::MmaPrecisionAttr::get(
        bl.getContext(), static_cast<tile::MmaPrecision>(int(*precision)));
  return Tile(
      verified(tile::MmaOp::create(bl, mlirLoc(loc), acc.value().getType(),
                                   a.value(), b.value(), acc.value(), precAttr),
               loc)
          .getResult());
}

Tile sum(const Tile &t, int64_t axis, Loc loc) {
  return reduction(t, axis, tile::CombineKind::sum, loc);
}
Tile prod(const Tile &t, int64_t axis, Loc loc) {
  return reduction(t, axis, tile::CombineKind::prod, loc);
}
Tile max(const Tile &t, int64_t axis, Loc loc) {
  return reduction(t, axis, tile::CombineKind::max, loc);
}
Tile min(const Tile &t, int64_t axis, Loc loc) {
  return reduction(t, axis, tile::CombineKind::min, loc);
}
Tile cumsum(const Tile &t, int64_t axis, bool reverse, Loc loc) {
  return scanOf(t, axis, reverse, tile::CombineKind::sum, loc);
}
Tile cumprod(const Tile &t, int64_t axis, bool reverse, Loc loc) {
  return scanOf(t, axis, reverse, tile::CombineKind::prod, loc);
}
Tile cummax(const Tile &t, int64_t axis, bool reverse, Loc loc) {
  return scanOf(t, axis, reverse, tile::CombineKind::max, loc);
}

#define TESSERA_UNARY_MATH(fn, Op)                                             \
  Tile fn(const Tile &x, Loc loc) {                                            \
    return Tile(unaryMath(x, loc, [](OpBuilder &b, Location l, Value v) {      \
      return Value(Op::create(b, l, v));                                       \
    }));                                                                       \
  }
TESSERA_UNARY_MATH(exp, math::ExpOp)
TESSERA_UNARY_MATH(exp2, math::Exp2Op)
TESSERA_UNARY_MATH(log, math::LogOp)
TESSERA_UNARY_MATH(log2, math::Log2Op)
TESSERA_UNARY_MATH(log1p, math::Log1pOp)
TESSERA_UNARY_MATH(sqrt, math::SqrtOp)
TESSERA_UNARY_MATH(rsqrt, math::RsqrtOp)
TESSERA_UNARY_MATH(tanh, math::TanhOp)
TESSERA_UNARY_MATH(sin, math::SinOp)
TESSERA_UNARY_MATH(cos, math::CosOp)
TESSERA_UNARY_MATH(abs, math::AbsFOp)
#undef TESSERA_UNARY_MATH

Tile maximum(const TileAt &a, const Tile &b) {
  return tileBinary(BinOp::max, a, b);
}
Tile minimum(const TileAt &a, const Tile &b) {
  return tileBinary(BinOp::min, a, b);
}
Tile maximum(const TileAt &a, double b) {
  return tileBinary(BinOp::max, a, like(a.tile, b, a.loc));
}
Tile minimum(const TileAt &a, double b) {
  return tileBinary(BinOp::min, a, like(a.tile, b, a.loc));
}

Tile where(const TileAt &cond, const Tile &a, const Tile &b) {
  const Loc &loc = cond.loc;
  requireTile(cond.tile, loc);
  if (cond.tile.dtype() != DType::i1)
    fail(loc, std::string("where: the condition must be an i1 tile (a "
                          "comparison), got ") +
                  name(cond.tile.dtype()));
  auto [x, y] = broadcastPair(a, b, loc);
  requireSameDType(x, y, "where", loc);
  Tile tx(x);
  auto [c, xx] = broadcastPair(cond.tile, tx, loc);
  auto [c2, yy] = broadcastPair(Tile(c), Tile(y), loc);
  auto [c3, xx2] = broadcastPair(Tile(c2), Tile(xx), loc);
  return Tile(arith::SelectOp::create(builder(loc), mlirLoc(loc), c3, xx2, yy));
}
Tile where(const TileAt &cond, const Tile &a, double b) {
  return where(cond, a, like(a, b, cond.loc));
}
Tile where(const TileAt &cond, double a, const Tile &b) {
  return where(cond, like(b, a, cond.loc), b);
}

Tile operator+(const TileAt &a, const Tile &b) {
  return tileBinary(BinOp::add, a, b);
}
Tile operator-(const TileAt &a, const Tile &b) {
  return tileBinary(BinOp::sub, a, b);
}
Tile operator*(const TileAt &a, const Tile &b) {
  return tileBinary(BinOp::mul, a, b);
}
Tile operator/(const TileAt &a, const Tile &b) {
  return tileBinary(BinOp::div, a, b);
}
Tile operator%(const TileAt &a, const Tile &b) {
  return tileBinary(BinOp::rem, a, b);
}
Tile operator%(const TileAt &a, double b) { return a % like(a.tile, b, a.loc); }
Tile operator+(const TileAt &a, double b) { return a + like(a.tile, b, a.loc); }
Tile operator-(const TileAt &a, double b) { return a - like(a.tile, b, a.loc); }
Tile operator*(const TileAt &a, double b) { return a * like(a.tile, b, a.loc); }
Tile operator/(const TileAt &a, double b) { return a / like(a.tile, b, a.loc); }
Tile operator+(double a, const TileAt &b) {
  return TileAt(like(b.tile, a, b.loc), b.loc) + b.tile;
}
Tile operator-(double a, const TileAt &b) {
  return TileAt(like(b.tile, a, b.loc), b.loc) - b.tile;
}
Tile operator*(double a, const TileAt &b) {
  return TileAt(like(b.tile, a, b.loc), b.loc) * b.tile;
}
Tile operator/(double a, const TileAt &b) {
  return TileAt(like(b.tile, a, b.loc), b.loc) / b.tile;
}
Tile operator+(const TileAt &a, const Scalar &b) {
  return a + splatLike(a.tile, b, a.loc);
}
Tile operator-(const TileAt &a, const Scalar &b) {
  return a - splatLike(a.tile, b, a.loc);
}
Tile operator*(const TileAt &a, const Scalar &b) {
  return a * splatLike(a.tile, b, a.loc);
}
Tile operator/(const TileAt &a, const Scalar &b) {
  return a / splatLike(a.tile, b, a.loc);
}
Tile operator-(const TileAt &a) {
  requireTile(a.tile, a.loc);
  if (isFloat(a.tile.dtype()))
    return Tile(
        arith::NegFOp::create(builder(a.loc), mlirLoc(a.loc), a.tile.value()));
  return TileAt(like(a.tile, 0, a.loc), a.loc) - a.tile;
}

Tile operator<(const TileAt &a, const Tile &b) {
  return tileCompare(CmpOp::lt, a, b);
}
Tile operator<=(const TileAt &a, const Tile &b) {
  return tileCompare(CmpOp::le, a, b);
}
Tile operator>(const TileAt &a, const Tile &b) {
  return tileCompare(CmpOp::gt, a, b);
}
Tile operator>=(const TileAt &a, const Tile &b) {
  return tileCompare(CmpOp::ge, a, b);
}
Tile operator==(const TileAt &a, const Tile &b) {
  return tileCompare(CmpOp::eq, a, b);
}
Tile operator!=(const TileAt &a, const Tile &b) {
  return tileCompare(CmpOp::ne, a, b);
}
Tile operator<(const TileAt &a, double b) { return a < like(a.tile, b, a.loc); }
Tile operator<=(const TileAt &a, double b) {
  return a <= like(a.tile, b, a.loc);
}
Tile operator>(const TileAt &a, double b) { return a > like(a.tile, b, a.loc); }
Tile operator>=(const TileAt &a, double b) {
  return a >= like(a.tile, b, a.loc);
}
Tile operator&&(const TileAt &a, const Tile &b) {
  return tileBinary(BinOp::land, a, b);
}
Tile operator||(const TileAt &a, const Tile &b) {
  return tileBinary(BinOp::lor, a, b);
}

static Scalar scalarBinary(BinOp op, const ScalarAt &a, const Scalar &b) {
  requireScalar(a.scalar, a.loc);
  requireScalar(b, a.loc);
  return Scalar(binary(op, a.scalar.value(), b.value(), a.loc));
}
static Scalar scalarCompare(CmpOp op, const ScalarAt &a, const Scalar &b) {
  requireScalar(a.scalar, a.loc);
  requireScalar(b, a.loc);
  return Scalar(compare(op, a.scalar.value(), b.value(), a.loc));
}

Scalar operator+(const ScalarAt &a, const Scalar &b) {
  return scalarBinary(BinOp::add, a, b);
}
Scalar operator-(const ScalarAt &a, const Scalar &b) {
  return scalarBinary(BinOp::sub, a, b);
}
Scalar operator*(const ScalarAt &a, const Scalar &b) {
  return scalarBinary(BinOp::mul, a, b);
}
Scalar operator/(const ScalarAt &a, const Scalar &b) {
  return scalarBinary(BinOp::div, a, b);
}
Scalar operator%(const ScalarAt &a, const Scalar &b) {
  return scalarBinary(BinOp::rem, a, b);
}
Scalar operator<(const ScalarAt &a, const Scalar &b) {
  return scalarCompare(CmpOp::lt, a, b);
}
Scalar operator<=(const ScalarAt &a, const Scalar &b) {
  return scalarCompare(CmpOp::le, a, b);
}
Scalar operator>(const ScalarAt &a, const Scalar &b) {
  return scalarCompare(CmpOp::gt, a, b);
}
Scalar operator>=(const ScalarAt &a, const Scalar &b) {
  return scalarCompare(CmpOp::ge, a, b);
}
Scalar operator==(const ScalarAt &a, const Scalar &b) {
  return scalarCompare(CmpOp::eq, a, b);
}
Scalar operator!=(const ScalarAt &a, const Scalar &b) {
  return scalarCompare(CmpOp::ne, a, b);
}

Scalar ceil_div(const Scalar &a, const Scalar &b, Loc loc) {
  requireScalar(a, loc);
  requireScalar(b, loc);
  requireSameDType(a.value(), b.value(), "ceil_div", loc);
  if (isFloat(a.dtype()))
    fail(loc, "ceil_div needs integer or index scalars");
  return Scalar(arith::CeilDivSIOp::create(builder(loc), mlirLoc(loc),
                                           a.value(), b.value()));
}
Scalar min(const Scalar &a, const Scalar &b, Loc loc) {
  return scalarBinary(BinOp::min, ScalarAt(a, loc), b);
}
Scalar max(const Scalar &a, const Scalar &b, Loc loc) {
  return scalarBinary(BinOp::max, ScalarAt(a, loc), b);
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

namespace detail {

Values forLoop(const Scalar &lo, const Scalar &hi, const Scalar &step,
               const Values &init,
               const std::function<Values(Value, const Values &)> &body,
               Loc loc) {
  requireScalar(lo, loc);
  requireScalar(hi, loc);
  requireScalar(step, loc);
  for (Value v : init)
    if (!v)
      fail(loc, "a loop-carried tile is empty");
  auto toIndex = [&](const Scalar &s) {
    return s.dtype() == DType::index ? s.value()
                                     : cast(s, DType::index, loc).value();
  };
  Value vlo = toIndex(lo), vhi = toIndex(hi), vstep = toIndex(step);
  OpBuilder &b = builder(loc);
  std::exception_ptr error;
  auto forOp = scf::ForOp::create(
      b, mlirLoc(loc), vlo, vhi, vstep, ValueRange(init),
      [&](OpBuilder &nested, Location l, Value iv, ValueRange args) {
        Values next;
        try {
          BuilderScope scope(nested);
          next = body(iv, Values(args.begin(), args.end()));
          if (next.size() != init.size())
            fail(loc, "the loop body returns " + std::to_string(next.size()) +
                          " values for " + std::to_string(init.size()) +
                          " carried ones");
          for (size_t i = 0; i < next.size(); ++i)
            if (!next[i] || next[i].getType() != init[i].getType())
              fail(loc, "the loop body returns " +
                            (next[i] ? str(next[i].getType())
                                     : std::string("an empty tile")) +
                            " for carried value #" + std::to_string(i) +
                            " of type " + str(init[i].getType()));
        } catch (...) {
          error = std::current_exception();
          next.clear();
        }
        scf::YieldOp::create(nested, l, ValueRange(next));
      });
  if (error) {
    forOp->erase();
    std::rethrow_exception(error);
  }
  return Values(forOp.getResults().begin(), forOp.getResults().end());
}

Values ifElse(const Scalar &cond, const Values &types,
              const std::function<Values()> &thenBody,
              const std::function<Values()> &elseBody, Loc loc) {
  requireScalar(cond, loc);
  if (cond.dtype() != DType::i1)
    fail(loc, "the condition must be an i1 scalar (a comparison)");
  OpBuilder &b = builder(loc);
  std::exception_ptr error;
  std::vector<Type> resultTypes;
  // The first branch built sets the result types (possibly none).
  bool typed = false;
  auto region = [&](const std::function<Values()> &fn) {
    return [&, fn](OpBuilder &nested, Location l) {
      Values out;
      try {
        BuilderScope scope(nested);
        if (fn)
          out = fn();
        if (!typed)
          for (Value v : out)
            resultTypes.push_back(v ? v.getType() : Type());
        typed = true;
        if (out.size() != resultTypes.size())
          fail(loc, "the branches of if_else return different numbers of "
                    "values");
        for (size_t i = 0; i < out.size(); ++i)
          if (!out[i] || out[i].getType() != resultTypes[i])
            fail(loc, "the branches of if_else return different types");
      } catch (...) {
        if (!error)
          error = std::current_exception();
        out.clear();
      }
      scf::YieldOp::create(nested, l, ValueRange(out));
    };
  };
  auto ifOp = elseBody ? scf::IfOp::create(b, mlirLoc(loc), cond.value(),
                                           region(thenBody), region(elseBody))
                       : scf::IfOp::create(b, mlirLoc(loc), cond.value(),
                                           region(thenBody));
  if (error) {
    ifOp->erase();
    std::rethrow_exception(error);
  }
  return Values(ifOp.getResults().begin(), ifOp.getResults().end());
}

} // namespace detail

void for_range(const Scalar &lo, const Scalar &hi,
               const std::function<void(Scalar)> &body, Loc loc) {
  detail::forLoop(
      lo, hi, Scalar(int64_t(1), loc), {},
      [&](Value iv, const detail::Values &) {
        body(Scalar(iv));
        return detail::Values{};
      },
      loc);
}

Tile for_range(const Scalar &lo, const Scalar &hi, const Tile &init,
               const std::function<Tile(Scalar, Tile)> &body, Loc loc) {
  requireTile(init, loc);
  detail::Values out = detail::forLoop(
      lo, hi, Scalar(int64_t(1), loc), {init.value()},
      [&](Value iv, const detail::Values &carried) {
        return detail::Values{body(Scalar(iv), Tile(carried[0])).value()};
      },
      loc);
  return Tile(out[0]);
}

void if_then(const Scalar &cond, const std::function<void()> &thenBody,
             Loc loc) {
  detail::ifElse(
      cond, {},
      [&] {
        thenBody();
        return detail::Values{};
      },
      nullptr, loc);
}

Tile if_else(const Scalar &cond, const std::function<Tile()> &thenBody,
             const std::function<Tile()> &elseBody, Loc loc) {
  detail::Values out = detail::ifElse(
      cond, {}, [&] { return detail::Values{thenBody().value()}; },
      [&] { return detail::Values{elseBody().value()}; }, loc);
  return Tile(out[0]);
}

std::vector<Tile> if_else(const Scalar &cond,
                          const std::function<std::vector<Tile>()> &thenBody,
                          const std::function<std::vector<Tile>()> &elseBody,
                          Loc loc) {
  auto values = [](const std::function<std::vector<Tile>()> &body) {
    detail::Values v;
    for (const Tile &t : body())
      v.push_back(t.value());
    return v;
  };
  detail::Values out = detail::ifElse(
      cond, {}, [&] { return values(thenBody); },
      [&] { return values(elseBody); }, loc);
  return std::vector<Tile>(out.begin(), out.end());
}

} // namespace tessera::dsl
