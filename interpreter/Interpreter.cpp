//===- Interpreter.cpp - reference interpreter of level-1 tile IR ---------===//
//
// A tree-walking interpreter over the ops of a tile.kernel. Every program
// instance gets its own environment (a DenseMap from SSA values to run-time
// values); tiles are flat row-major arrays of doubles (floats) or int64_t
// (integers, kept sign-extended to their width), scalars are rank-0 values
// held inline. Storage is shared between values that alias (reshape, select,
// loop-carried values), and is never mutated after an op produced it.
//
// Device-faithful mode rounds every float result to its element type
// (round-to-nearest-even), evaluates math functions in f32 for f16/bf16/tf32/
// f32 operands, and runs tile.mma like a Tensor Core (exact products, f32
// accumulation in k order). Float64 mode rounds nothing.
//
//===----------------------------------------------------------------------===//

#include "interpreter/Interpreter.h"

#include "dialect/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

using namespace tessera::interp;
using mlir::Operation;
using mlir::Type;
using mlir::Value;
namespace arith = mlir::arith;
namespace math = mlir::math;
namespace scf = mlir::scf;
namespace tile = tessera::tile;

//===----------------------------------------------------------------------===//
// Typed element access
//===----------------------------------------------------------------------===//

namespace {

template <DType D> struct Elem;

template <> struct Elem<DType::f16> {
  using T = uint16_t;
  static constexpr bool kFloat = true;
  static double getF(T x) { return fromF16Bits(x); }
  static T putF(double v) { return toF16Bits(v); }
};
template <> struct Elem<DType::bf16> {
  using T = uint16_t;
  static constexpr bool kFloat = true;
  static double getF(T x) { return fromBF16Bits(x); }
  static T putF(double v) { return toBF16Bits(v); }
};
template <> struct Elem<DType::tf32> {
  using T = float;
  static constexpr bool kFloat = true;
  static double getF(T x) { return x; }
  static T putF(double v) { return static_cast<float>(roundToTF32(v)); }
};
template <> struct Elem<DType::f32> {
  using T = float;
  static constexpr bool kFloat = true;
  static double getF(T x) { return x; }
  static T putF(double v) { return static_cast<float>(v); }
};
template <> struct Elem<DType::f64> {
  using T = double;
  static constexpr bool kFloat = true;
  static double getF(T x) { return x; }
  static T putF(double v) { return v; }
};

template <class S, unsigned W> struct IntElem {
  using T = S;
  static constexpr bool kFloat = false;
  static int64_t getI(T x) { return static_cast<int64_t>(x); }
  static T putI(int64_t v) { return static_cast<T>(v); } // modular (C++20)
};
template <> struct Elem<DType::i1> {
  using T = uint8_t;
  static constexpr bool kFloat = false;
  static int64_t getI(T x) { return x & 1; }
  static T putI(int64_t v) { return static_cast<T>(v & 1); }
};
template <> struct Elem<DType::i8> : IntElem<int8_t, 8> {};
template <> struct Elem<DType::i16> : IntElem<int16_t, 16> {};
template <> struct Elem<DType::i32> : IntElem<int32_t, 32> {};
template <> struct Elem<DType::i64> : IntElem<int64_t, 64> {};

template <class E> typename E::T loadRaw(const unsigned char *base, int64_t i) {
  typename E::T x;
  std::memcpy(&x, base + i * static_cast<int64_t>(sizeof(x)), sizeof(x));
  return x;
}
template <class E>
void storeRaw(unsigned char *base, int64_t i, typename E::T x) {
  std::memcpy(base + i * static_cast<int64_t>(sizeof(x)), &x, sizeof(x));
}

/// Calls f(Elem<D>{}) for the run-time dtype.
template <class F> decltype(auto) visitDType(DType d, F &&f) {
  switch (d) {
  case DType::f16:
    return f(Elem<DType::f16>{});
  case DType::bf16:
    return f(Elem<DType::bf16>{});
  case DType::tf32:
    return f(Elem<DType::tf32>{});
  case DType::f32:
    return f(Elem<DType::f32>{});
  case DType::f64:
    return f(Elem<DType::f64>{});
  case DType::i1:
    return f(Elem<DType::i1>{});
  case DType::i8:
    return f(Elem<DType::i8>{});
  case DType::i16:
    return f(Elem<DType::i16>{});
  case DType::i32:
    return f(Elem<DType::i32>{});
  case DType::i64:
    break;
  }
  return f(Elem<DType::i64>{});
}

void poisonPattern(DType d, unsigned char *out) {
  switch (d) {
  case DType::f16: {
    uint16_t b = 0x7E5A;
    std::memcpy(out, &b, 2);
    return;
  }
  case DType::bf16: {
    uint16_t b = 0x7FDA;
    std::memcpy(out, &b, 2);
    return;
  }
  case DType::tf32:
  case DType::f32: {
    uint32_t b = 0x7FDA5A5A;
    std::memcpy(out, &b, 4);
    return;
  }
  case DType::f64: {
    uint64_t b = 0x7FFA5A5A5A5A5A5Aull;
    std::memcpy(out, &b, 8);
    return;
  }
  default:
    std::memset(out, 0x5A, dtypeSize(d));
    return;
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

Buffer::Buffer(DType dtype, std::vector<int64_t> shape)
    : dtype_(dtype), shape_(std::move(shape)), numElements_(1) {
  // Negative or overflowing shapes give an empty buffer (accesses then fail
  // with a clear out-of-bounds error rather than a crash).
  for (int64_t d : shape_) {
    if (d <= 0) {
      numElements_ = 0;
      break;
    }
    if (__builtin_mul_overflow(numElements_, d, &numElements_) ||
        numElements_ > (int64_t(1) << 40)) {
      numElements_ = 0;
      break;
    }
  }
  storage_.assign(static_cast<size_t>(numElements_) * dtypeSize(dtype_), 0);
}

std::vector<int64_t> Buffer::strides() const {
  std::vector<int64_t> s(shape_.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape_.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * std::max<int64_t>(shape_[i + 1], 0);
  return s;
}

double Buffer::get(int64_t linear) const {
  if (linear < 0 || linear >= numElements_)
    return std::numeric_limits<double>::quiet_NaN();
  return visitDType(dtype_, [&](auto e) -> double {
    using E = decltype(e);
    if constexpr (E::kFloat)
      return E::getF(loadRaw<E>(storage_.data(), linear));
    else
      return static_cast<double>(E::getI(loadRaw<E>(storage_.data(), linear)));
  });
}

void Buffer::set(int64_t linear, double value) {
  if (linear < 0 || linear >= numElements_)
    return;
  visitDType(dtype_, [&](auto e) {
    using E = decltype(e);
    if constexpr (E::kFloat)
      storeRaw<E>(storage_.data(), linear, E::putF(value));
    else
      storeRaw<E>(storage_.data(), linear,
                  E::putI(doubleToWrappedInt(value, 64)));
  });
}

int64_t Buffer::getInt(int64_t linear) const {
  if (linear < 0 || linear >= numElements_)
    return 0;
  return visitDType(dtype_, [&](auto e) -> int64_t {
    using E = decltype(e);
    if constexpr (E::kFloat)
      return doubleToWrappedInt(E::getF(loadRaw<E>(storage_.data(), linear)),
                                64);
    else
      return E::getI(loadRaw<E>(storage_.data(), linear));
  });
}

void Buffer::setInt(int64_t linear, int64_t value) {
  if (linear < 0 || linear >= numElements_)
    return;
  visitDType(dtype_, [&](auto e) {
    using E = decltype(e);
    if constexpr (E::kFloat)
      storeRaw<E>(storage_.data(), linear, E::putF(static_cast<double>(value)));
    else
      storeRaw<E>(storage_.data(), linear, E::putI(value));
  });
}

void Buffer::poison() {
  unsigned char pattern[8];
  poisonPattern(dtype_, pattern);
  const int size = dtypeSize(dtype_);
  for (int64_t i = 0; i < numElements_; ++i)
    std::memcpy(storage_.data() + i * size, pattern, size);
}

bool Buffer::isPoison(int64_t linear) const {
  if (linear < 0 || linear >= numElements_)
    return false;
  unsigned char pattern[8];
  poisonPattern(dtype_, pattern);
  const int size = dtypeSize(dtype_);
  return std::memcmp(storage_.data() + linear * size, pattern, size) == 0;
}

//===----------------------------------------------------------------------===//
// Run-time values
//===----------------------------------------------------------------------===//

namespace {

/// A scalar, a tile or a view (kernel argument).
struct RtValue {
  enum class Kind : uint8_t { Float, Int, View };
  Kind kind = Kind::Float;
  DType dtype = DType::f64;
  uint8_t width = 0; // integers: 1..64 (index is 64)
  bool isTile = false;
  llvm::SmallVector<int64_t, 4> shape;
  int64_t numel = 1;
  double fs = 0.0;
  int64_t is = 0;
  std::shared_ptr<double[]> ft;
  std::shared_ptr<int64_t[]> it;
  int view = -1;

  const double *f() const { return isTile ? ft.get() : &fs; }
  double *f() { return isTile ? ft.get() : &fs; }
  const int64_t *i() const { return isTile ? it.get() : &is; }
  int64_t *i() { return isTile ? it.get() : &is; }

  /// Allocates (uninitialised) storage for a tile.
  void allocate() {
    if (!isTile)
      return;
    if (kind == Kind::Float)
      ft = std::make_shared_for_overwrite<double[]>(numel);
    else if (kind == Kind::Int)
      it = std::make_shared_for_overwrite<int64_t[]>(numel);
  }
};

/// Tiles larger than this (2 GiB of doubles) are refused rather than
/// allocated.
constexpr int64_t kMaxTileElements = int64_t(1) << 28;

/// Describes `type` into `v` (kind, dtype, width, shape) without storage.
bool describe(Type type, RtValue &v) {
  if (llvm::isa<tile::ViewType>(type)) {
    v.kind = RtValue::Kind::View;
    v.isTile = false;
    v.numel = 1;
    return true;
  }
  Type elem = type;
  v.shape.clear();
  v.numel = 1;
  v.isTile = false;
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type)) {
    elem = tensor.getElementType();
    v.isTile = true;
    for (int64_t d : tensor.getShape()) {
      if (d < 0 || __builtin_mul_overflow(v.numel, d, &v.numel) ||
          v.numel > kMaxTileElements)
        return false;
      v.shape.push_back(d);
    }
  } else if (llvm::isa<mlir::ShapedType>(type)) {
    return false;
  }
  std::optional<DType> dt = dtypeOf(elem);
  if (!dt)
    return false;
  v.dtype = *dt;
  if (isFloat(*dt)) {
    v.kind = RtValue::Kind::Float;
    v.width = 0;
  } else {
    v.kind = RtValue::Kind::Int;
    v.width = elem.isIndex() ? 64 : intWidth(*dt);
  }
  return true;
}

struct ViewInfo {
  Buffer *buffer = nullptr;
  DType storage = DType::f32;
  llvm::SmallVector<int64_t, 4> sizes;
  llvm::SmallVector<int64_t, 4> strides;
  int64_t offset = 0;
};

std::string printLoc(mlir::Location loc) {
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

std::string printType(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

template <class Range> std::string joinInts(const Range &r) {
  std::string s = "[";
  bool first = true;
  for (auto x : r) {
    if (!first)
      s += ", ";
    first = false;
    s += std::to_string(static_cast<long long>(x));
  }
  return s + "]";
}

std::string i128ToString(__int128 v) {
  if (v == 0)
    return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v)
                            : static_cast<unsigned __int128>(v);
  std::string s;
  while (u) {
    s.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (neg)
    s.push_back('-');
  return std::string(s.rbegin(), s.rend());
}

// Rounding functors (inlined into the element loops).
struct NoRound {
  double operator()(double x) const { return x; }
};
struct RoundF16 {
  double operator()(double x) const { return roundToF16(x); }
};
struct RoundBF16 {
  double operator()(double x) const { return roundToBF16(x); }
};
struct RoundTF32 {
  double operator()(double x) const { return roundToTF32(x); }
};
struct RoundF32 {
  double operator()(double x) const {
    return static_cast<double>(static_cast<float>(x));
  }
};

/// IEEE-754 2019 maximum/minimum: NaN propagates, -0 < +0.
double nanMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double nanMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

int64_t wrapAdd(int64_t a, int64_t b, unsigned w) {
  return wrapSigned(
      static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)),
      w);
}
int64_t wrapMul(int64_t a, int64_t b, unsigned w) {
  return wrapSigned(
      static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)),
      w);
}

/// Visits the rows of a box (every dimension but the last) and calls
/// fn(offA, offB) with offsets that advance by strideA / strideB per
/// dimension. Offsets always stay on elements of the box.
template <class Fn>
void forEachRow(size_t rank, const int64_t *ext, const int64_t *strideA,
                const int64_t *strideB, int64_t baseA, int64_t baseB, Fn fn) {
  if (rank == 0) {
    fn(baseA, baseB);
    return;
  }
  const size_t outer = rank - 1;
  for (size_t d = 0; d < rank; ++d)
    if (ext[d] <= 0)
      return;
  llvm::SmallVector<int64_t, 8> idx(outer, 0);
  int64_t a = baseA, b = baseB;
  while (true) {
    fn(a, b);
    int64_t d = static_cast<int64_t>(outer) - 1;
    for (; d >= 0; --d) {
      if (idx[d] + 1 < ext[d]) {
        ++idx[d];
        a += strideA[d];
        b += strideB[d];
        break;
      }
      a -= strideA[d] * (ext[d] - 1);
      b -= strideB[d] * (ext[d] - 1);
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}

llvm::SmallVector<int64_t, 4> rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> s(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

class Interp {
public:
  explicit Interp(const LaunchConfig &config)
      : f64Mode_(config.mode == Mode::Float64), grid_(config.grid) {}

  Status run(tile::KernelOp kernel, const std::vector<KernelArg> &args);

private:
  // --- errors ---------------------------------------------------------------
  bool fail(Operation *op, const llvm::Twine &message) {
    error_ =
        (op->getName().getStringRef() + " at " + printLoc(op->getLoc()) +
         ", program (" + llvm::Twine(pid_[0]) + ", " + llvm::Twine(pid_[1]) +
         ", " + llvm::Twine(pid_[2]) + "): " + message)
            .str();
    return false;
  }
  bool unsupported(Operation *op) {
    error_ = ("unsupported op '" + op->getName().getStringRef() + "' at " +
              printLoc(op->getLoc()))
                 .str();
    return false;
  }

  // --- environment ----------------------------------------------------------
  const RtValue *lookup(Operation *op, Value v) {
    auto it = env_.find(v);
    if (it == env_.end()) {
      fail(op, "internal error: operand has no value");
      return nullptr;
    }
    return &it->second;
  }
  void bind(Value v, RtValue value) { env_[v] = std::move(value); }

  /// Prepares a result value for `type` with allocated storage.
  bool makeResult(Operation *op, Type type, RtValue &r) {
    if (!describe(type, r) || r.kind == RtValue::Kind::View)
      return fail(op, "unsupported result type " + printType(type) +
                          " (element types are f16, bf16, tf32, f32, f64, "
                          "i1..i64 and index; tiles hold at most 2^28 "
                          "elements)");
    r.allocate();
    return true;
  }

  template <class F> decltype(auto) withRounder(DType dt, F &&f) {
    if (!f64Mode_) {
      switch (dt) {
      case DType::f16:
        return f(RoundF16{});
      case DType::bf16:
        return f(RoundBF16{});
      case DType::tf32:
        return f(RoundTF32{});
      case DType::f32:
        return f(RoundF32{});
      default:
        break;
      }
    }
    return f(NoRound{});
  }
  double roundElem(DType dt, double v) const {
    return f64Mode_ || !isFloat(dt) ? v : roundTo(dt, v);
  }

  // --- execution ------------------------------------------------------------
  bool runBlock(mlir::Block &block, llvm::SmallVectorImpl<RtValue> &yielded);
  bool exec(Operation &op);

  bool execConstant(arith::ConstantOp op);
  template <class F> bool floatUnary(Operation *op, F fn);
  template <class F> bool floatBinary(Operation *op, F fn);
  template <class F32, class F64> bool mathUnary(Operation *op, F32 f, F64 d);
  template <class F32, class F64> bool mathBinary(Operation *op, F32 f, F64 d);
  template <class F> bool intBinary(Operation *op, F fn);
  template <class F> bool intUnary(Operation *op, F fn);
  template <class F> bool floatPredicate(Operation *op, F fn);
  bool execCmpF(arith::CmpFOp op);
  bool execCmpI(arith::CmpIOp op);
  bool execSelect(arith::SelectOp op);
  bool execFma(math::FmaOp op);
  bool execClampF(math::ClampFOp op);
  bool execFloatCast(Operation *op);
  bool execIntToFloat(Operation *op, bool isSigned);
  bool execFloatToInt(Operation *op, bool isSigned);
  bool execIntCast(Operation *op, bool zeroExtend);
  bool execBitcast(arith::BitcastOp op);

  bool execLoad(tile::LoadOp op);
  bool execStore(tile::StoreOp op);
  bool execMma(tile::MmaOp op);
  bool execReduceScan(Operation *op, tile::CombineKind kind, int64_t axis,
                      bool isScan, bool reverse);
  bool execBroadcast(tile::BroadcastOp op);
  bool execReshape(tile::ReshapeOp op);
  bool execPermute(tile::PermuteOp op);
  bool execIota(tile::IotaOp op);
  bool execGather(tile::GatherOp op);
  bool execSplat(tile::SplatOp op);
  bool execViewAccess(Operation *op, Value viewValue, mlir::ValueRange indices,
                      RtValue &tileValue, bool isStore, double padding);

  bool execFor(scf::ForOp op);
  bool execIf(scf::IfOp op);
  bool execWhile(scf::WhileOp op);

  bool scalarInt(Operation *op, Value v, int64_t &out) {
    const RtValue *x = lookup(op, v);
    if (!x)
      return false;
    if (x->kind != RtValue::Kind::Int || x->isTile)
      return fail(op, "expected an integer scalar operand");
    out = x->is;
    return true;
  }

  bool f64Mode_;
  std::array<int64_t, 3> grid_;
  std::array<int64_t, 3> pid_ = {0, 0, 0};
  std::string error_;
  llvm::DenseMap<Value, RtValue> env_;
  llvm::DenseMap<Operation *, RtValue> constants_;
  std::vector<ViewInfo> views_;
};

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

std::string describeArg(const KernelArg &arg) {
  if (std::holds_alternative<ViewArg>(arg))
    return "a view";
  if (std::holds_alternative<int64_t>(arg))
    return "an integer scalar (int64_t)";
  return "a float scalar (double)";
}

Status Interp::run(tile::KernelOp kernel, const std::vector<KernelArg> &args) {
  const std::string kname = ("@" + kernel.getSymName()).str();
  for (int d = 0; d < 3; ++d)
    if (grid_[d] < 1)
      return Status::error("grid dimension " + std::string(1, "xyz"[d]) +
                           " is " + std::to_string(grid_[d]) +
                           "; every grid dimension must be >= 1");
  if (kernel.getBody().empty())
    return Status::error("kernel " + kname + " has no body");
  mlir::Block &entry = kernel.getBody().front();
  llvm::ArrayRef<Type> inputs = kernel.getArgumentTypes();
  if (args.size() != inputs.size() || entry.getNumArguments() != inputs.size())
    return Status::error("kernel " + kname + " takes " +
                         std::to_string(inputs.size()) + " arguments, got " +
                         std::to_string(args.size()));

  // Check the arguments and build their run-time values.
  llvm::SmallVector<RtValue, 8> argValues;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string where = "argument #" + std::to_string(i) + " of " +
                              kname + " (" + printType(inputs[i]) + ")";
    Type type = inputs[i];
    RtValue v;
    if (auto viewType = llvm::dyn_cast<tile::ViewType>(type)) {
      const ViewArg *va = std::get_if<ViewArg>(&args[i]);
      if (!va)
        return Status::error(where + ": expected a view, got " +
                             describeArg(args[i]));
      if (!va->buffer)
        return Status::error(where + ": the view has a null buffer");
      std::optional<DType> elem = dtypeOf(viewType.getElementType());
      if (!elem)
        return Status::error(where + ": unsupported view element type");
      DType storage = va->buffer->dtype();
      bool dtypeOk = storage == *elem ||
                     (f64Mode_ && isFloat(*elem) && storage == DType::f64);
      if (!dtypeOk)
        return Status::error(
            where + ": the buffer holds " + dtypeName(storage) +
            " elements but the view expects " + dtypeName(*elem) +
            (f64Mode_ && isFloat(*elem) ? " (or f64 in float64 mode)" : ""));
      ViewInfo info;
      info.buffer = va->buffer;
      info.storage = storage;
      info.offset = va->offset;
      const int64_t rank = viewType.getRank();
      if (va->sizes.empty())
        info.sizes.assign(va->buffer->shape().begin(),
                          va->buffer->shape().end());
      else
        info.sizes.assign(va->sizes.begin(), va->sizes.end());
      if (va->strides.empty()) {
        // The buffer's own strides; when the sizes have another rank than
        // the buffer (a reshaped view of it), row-major strides of the sizes.
        std::vector<int64_t> s = va->buffer->strides();
        if (s.size() == info.sizes.size())
          info.strides.assign(s.begin(), s.end());
        else
          info.strides = rowMajorStrides(info.sizes);
      } else {
        info.strides.assign(va->strides.begin(), va->strides.end());
      }
      if (static_cast<int64_t>(info.sizes.size()) != rank)
        return Status::error(where + ": the view has rank " +
                             std::to_string(rank) + " but " +
                             std::to_string(info.sizes.size()) +
                             " sizes were given " + joinInts(info.sizes));
      if (static_cast<int64_t>(info.strides.size()) != rank)
        return Status::error(where + ": the view has rank " +
                             std::to_string(rank) + " but " +
                             std::to_string(info.strides.size()) +
                             " strides were given " + joinInts(info.strides));
      for (int64_t d = 0; d < rank; ++d) {
        if (info.sizes[d] < 0)
          return Status::error(where + ": size " + std::to_string(d) + " is " +
                               std::to_string(info.sizes[d]) +
                               " (sizes must be >= 0)");
        int64_t stat = viewType.getShape()[d];
        if (!mlir::ShapedType::isDynamic(stat) && stat != info.sizes[d])
          return Status::error(
              where + ": static dimension " + std::to_string(d) + " is " +
              std::to_string(stat) + " but the run-time size is " +
              std::to_string(info.sizes[d]) + " (sizes " +
              joinInts(info.sizes) + ")");
      }
      v.kind = RtValue::Kind::View;
      v.view = static_cast<int>(views_.size());
      views_.push_back(std::move(info));
    } else if (type.isIndex() || type.isSignlessInteger(32) ||
               type.isSignlessInteger(64)) {
      const int64_t *x = std::get_if<int64_t>(&args[i]);
      if (!x)
        return Status::error(where +
                             ": expected an integer scalar (int64_t), "
                             "got " +
                             describeArg(args[i]));
      describe(type, v);
      if (v.width == 32 && (*x < INT32_MIN || *x > int64_t(UINT32_MAX)))
        return Status::error(where + ": value " + std::to_string(*x) +
                             " does not fit in 32 bits");
      v.is = wrapSigned(*x, v.width);
    } else if (type.isF32() || type.isF64()) {
      const double *x = std::get_if<double>(&args[i]);
      if (!x)
        return Status::error(where +
                             ": expected a float scalar (double), "
                             "got " +
                             describeArg(args[i]));
      describe(type, v);
      v.fs = roundElem(v.dtype, *x);
    } else {
      return Status::error(where + ": unsupported kernel argument type");
    }
    argValues.push_back(std::move(v));
  }

  llvm::SmallVector<RtValue, 1> ignored;
  for (pid_[2] = 0; pid_[2] < grid_[2]; ++pid_[2])
    for (pid_[1] = 0; pid_[1] < grid_[1]; ++pid_[1])
      for (pid_[0] = 0; pid_[0] < grid_[0]; ++pid_[0]) {
        env_.clear();
        for (auto [arg, value] : llvm::zip(entry.getArguments(), argValues))
          env_[arg] = value;
        ignored.clear();
        if (!runBlock(entry, ignored))
          return Status::error(error_);
      }
  return Status::success();
}

bool Interp::runBlock(mlir::Block &block,
                      llvm::SmallVectorImpl<RtValue> &yielded) {
  for (Operation &op : block) {
    if (llvm::isa<scf::YieldOp, tile::ReturnOp, scf::ConditionOp>(op)) {
      yielded.clear();
      for (Value v : op.getOperands()) {
        const RtValue *x = lookup(&op, v);
        if (!x)
          return false;
        yielded.push_back(*x);
      }
      return true;
    }
    if (!exec(op))
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Op dispatch
//===----------------------------------------------------------------------===//

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
int64_t ceilDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) == (b < 0)))
    ++q;
  return q;
}

bool Interp::exec(Operation &opRef) {
  Operation *op = &opRef;
  using llvm::TypeSwitch;
  // Integer binary ops: fn(a, b, width, out) returns false on division by 0.
  auto zext = [](int64_t v, unsigned w) { return wrapUnsigned(v, w); };
  constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
  return TypeSwitch<Operation *, bool>(op)
      // ---- arith: constants, float arithmetic ----------------------------
      .Case<arith::ConstantOp>([&](auto o) { return execConstant(o); })
      .Case<arith::AddFOp>([&](auto) {
        return floatBinary(op, [](double a, double b) { return a + b; });
      })
      .Case<arith::SubFOp>([&](auto) {
        return floatBinary(op, [](double a, double b) { return a - b; });
      })
      .Case<arith::MulFOp>([&](auto) {
        return floatBinary(op, [](double a, double b) { return a * b; });
      })
      .Case<arith::DivFOp>([&](auto) {
        return floatBinary(op, [](double a, double b) { return a / b; });
      })
      .Case<arith::RemFOp>([&](auto) {
        return floatBinary(op,
                           [](double a, double b) { return std::fmod(a, b); });
      })
      .Case<arith::MaximumFOp>([&](auto) { return floatBinary(op, nanMax); })
      .Case<arith::MinimumFOp>([&](auto) { return floatBinary(op, nanMin); })
      .Case<arith::MaxNumFOp>([&](auto) {
        return floatBinary(op, [](double a, double b) {
          if (std::isnan(a))
            return b;
          if (std::isnan(b))
            return a;
          return nanMax(a, b);
        });
      })
      .Case<arith::MinNumFOp>([&](auto) {
        return floatBinary(op, [](double a, double b) {
          if (std::isnan(a))
            return b;
          if (std::isnan(b))
            return a;
          return nanMin(a, b);
        });
      })
      .Case<arith::NegFOp>(
          [&](auto) { return floatUnary(op, [](double a) { return -a; }); })
      .Case<arith::CmpFOp>([&](auto o) { return execCmpF(o); })
      .Case<arith::CmpIOp>([&](auto o) { return execCmpI(o); })
      .Case<arith::SelectOp>([&](auto o) { return execSelect(o); })
      // ---- arith: integer arithmetic -------------------------------------
      .Case<arith::AddIOp>([&](auto) {
        return intBinary(op, [](int64_t a, int64_t b, unsigned w, int64_t &r) {
          r = wrapAdd(a, b, w);
          return true;
        });
      })
      .Case<arith::SubIOp>([&](auto) {
        return intBinary(op, [](int64_t a, int64_t b, unsigned w, int64_t &r) {
          r = wrapSigned(static_cast<int64_t>(static_cast<uint64_t>(a) -
                                              static_cast<uint64_t>(b)),
                         w);
          return true;
        });
      })
      .Case<arith::MulIOp>([&](auto) {
        return intBinary(op, [](int64_t a, int64_t b, unsigned w, int64_t &r) {
          r = wrapMul(a, b, w);
          return true;
        });
      })
      .Case<arith::DivSIOp>([&](auto) {
        return intBinary(op, [&](int64_t a, int64_t b, unsigned w, int64_t &r) {
          if (b == 0)
            return false;
          r = (a == kMin64 && b == -1) ? kMin64 : wrapSigned(a / b, w);
          return true;
        });
      })
      .Case<arith::DivUIOp>([&](auto) {
        return intBinary(op, [&](int64_t a, int64_t b, unsigned w, int64_t &r) {
          uint64_t ub = zext(b, w);
          if (ub == 0)
            return false;
          r = wrapSigned(static_cast<int64_t>(zext(a, w) / ub), w);
          return true;
        });
      })
      .Case<arith::RemSIOp>([&](auto) {
        return intBinary(op, [&](int64_t a, int64_t b, unsigned w, int64_t &r) {
          if (b == 0)
            return false;
          r = (b == -1) ? 0 : wrapSigned(a % b, w);
          return true;
        });
      })
      .Case<arith::RemUIOp>([&](auto) {
        return intBinary(op, [&](int64_t a, int64_t b, unsigned w, int64_t &r) {
          uint64_t ub = zext(b, w);
          if (ub == 0)
            return false;
          r = wrapSigned(static_cast<int64_t>(zext(a, w) % ub), w);
          return true;
        });
      })
      .Case<arith::CeilDivSIOp>([&](auto) {
        return intBinary(op, [&](int64_t a, int64_t b, unsigned w, int64_t &r) {
          if (b == 0)
            return false;
          r = (a == kMin64 && b == -1) ? kMin64 : wrapSigned(ceilDiv(a, b), w);
          return true;
        });
      })
      .Case<arith::CeilDivUIOp>([&](auto) {
        return intBinary(op, [&](int64_t a, int64_t b, unsigned w, int64_t &r) {
          uint64_t ua = zext(a, w), ub = zext(b, w);
          if (ub == 0)
            return false;
          uint64_t q = ua / ub + (ua % ub != 0 ? 1 : 0);
          r = wrapSigned(static_cast<int64_t>(q), w);
          return true;
        });
      })
      .Case<arith::FloorDivSIOp>([&](auto) {
        return intBinary(op, [&](int64_t a, int64_t b, unsigned w, int64_t &r) {
          if (b == 0)
            return false;
          r = (a == kMin64 && b == -1) ? kMin64 : wrapSigned(floorDiv(a, b), w);
          return true;
        });
      })
      .Case<arith::AndIOp>([&](auto) {
        return intBinary(op, [](int64_t a, int64_t b, unsigned w, int64_t &r) {
          r = wrapSigned(a & b, w);
          return true;
        });
      })
      .Case<arith::OrIOp>([&](auto) {
        return intBinary(op, [](int64_t a, int64_t b, unsigned w, int64_t &r) {
          r = wrapSigned(a | b, w);
          return true;
        });
      })
      .Case<arith::XOrIOp>([&](auto) {
        return intBinary(op, [](int64_t a, int64_t b, unsigned w, int64_t &r) {
          r = wrapSigned(a ^ b, w);
          return true;
        });
      })
      // Shift amounts >= the width give 0 (or the sign for shrsi), as the
      // device's clamped shifts do.
      .Case<arith::ShLIOp>([&](auto) {
        return intBinary(op, [&](int64_t a, int64_t b, unsigned w, int64_t &r) {
          uint64_t s = zext(b, w);
          r = s >= w
                  ? 0
                  : wrapSigned(
                        static_cast<int64_t>(static_cast<uint64_t>(a) << s), w);
          return true;
        });
      })
      .Case<arith::ShRSIOp>([&](auto) {
        return intBinary(op, [&](int64_t a, int64_t b, unsigned w, int64_t &r) {
          uint64_t s = zext(b, w);
          r = s >= w ? (a < 0 ? -1 : 0) : (a >> s);
          return true;
        });
      })
      .Case<arith::ShRUIOp>([&](auto) {
        return intBinary(op, [&](int64_t a, int64_t b, unsigned w, int64_t &r) {
          uint64_t s = zext(b, w);
          r = s >= w ? 0 : wrapSigned(static_cast<int64_t>(zext(a, w) >> s), w);
          return true;
        });
      })
      .Case<arith::MaxSIOp>([&](auto) {
        return intBinary(op, [](int64_t a, int64_t b, unsigned, int64_t &r) {
          r = std::max(a, b);
          return true;
        });
      })
      .Case<arith::MinSIOp>([&](auto) {
        return intBinary(op, [](int64_t a, int64_t b, unsigned, int64_t &r) {
          r = std::min(a, b);
          return true;
        });
      })
      .Case<arith::MaxUIOp>([&](auto) {
        return intBinary(op, [&](int64_t a, int64_t b, unsigned w, int64_t &r) {
          r = zext(a, w) >= zext(b, w) ? a : b;
          return true;
        });
      })
      .Case<arith::MinUIOp>([&](auto) {
        return intBinary(op, [&](int64_t a, int64_t b, unsigned w, int64_t &r) {
          r = zext(a, w) <= zext(b, w) ? a : b;
          return true;
        });
      })
      // ---- arith: casts ---------------------------------------------------
      .Case<arith::ExtFOp, arith::TruncFOp>(
          [&](auto) { return execFloatCast(op); })
      .Case<arith::SIToFPOp>([&](auto) { return execIntToFloat(op, true); })
      .Case<arith::UIToFPOp>([&](auto) { return execIntToFloat(op, false); })
      .Case<arith::FPToSIOp>([&](auto) { return execFloatToInt(op, true); })
      .Case<arith::FPToUIOp>([&](auto) { return execFloatToInt(op, false); })
      .Case<arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp>(
          [&](auto) { return execIntCast(op, /*zeroExtend=*/false); })
      .Case<arith::ExtUIOp, arith::IndexCastUIOp>(
          [&](auto) { return execIntCast(op, /*zeroExtend=*/true); })
      .Case<arith::BitcastOp>([&](auto o) { return execBitcast(o); })
      // ---- math -----------------------------------------------------------
      .Case<math::ExpOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::exp(x); },
            [](double x) { return std::exp(x); });
      })
      .Case<math::Exp2Op>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::exp2(x); },
            [](double x) { return std::exp2(x); });
      })
      .Case<math::ExpM1Op>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::expm1(x); },
            [](double x) { return std::expm1(x); });
      })
      .Case<math::LogOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::log(x); },
            [](double x) { return std::log(x); });
      })
      .Case<math::Log2Op>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::log2(x); },
            [](double x) { return std::log2(x); });
      })
      .Case<math::Log10Op>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::log10(x); },
            [](double x) { return std::log10(x); });
      })
      .Case<math::Log1pOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::log1p(x); },
            [](double x) { return std::log1p(x); });
      })
      .Case<math::SqrtOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::sqrt(x); },
            [](double x) { return std::sqrt(x); });
      })
      .Case<math::RsqrtOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return 1.0f / std::sqrt(x); },
            [](double x) { return 1.0 / std::sqrt(x); });
      })
      .Case<math::CbrtOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::cbrt(x); },
            [](double x) { return std::cbrt(x); });
      })
      .Case<math::TanhOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::tanh(x); },
            [](double x) { return std::tanh(x); });
      })
      .Case<math::SinhOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::sinh(x); },
            [](double x) { return std::sinh(x); });
      })
      .Case<math::CoshOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::cosh(x); },
            [](double x) { return std::cosh(x); });
      })
      .Case<math::SinOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::sin(x); },
            [](double x) { return std::sin(x); });
      })
      .Case<math::CosOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::cos(x); },
            [](double x) { return std::cos(x); });
      })
      .Case<math::TanOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::tan(x); },
            [](double x) { return std::tan(x); });
      })
      .Case<math::AsinOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::asin(x); },
            [](double x) { return std::asin(x); });
      })
      .Case<math::AcosOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::acos(x); },
            [](double x) { return std::acos(x); });
      })
      .Case<math::AtanOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::atan(x); },
            [](double x) { return std::atan(x); });
      })
      .Case<math::AsinhOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::asinh(x); },
            [](double x) { return std::asinh(x); });
      })
      .Case<math::AcoshOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::acosh(x); },
            [](double x) { return std::acosh(x); });
      })
      .Case<math::AtanhOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::atanh(x); },
            [](double x) { return std::atanh(x); });
      })
      .Case<math::ErfOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::erf(x); },
            [](double x) { return std::erf(x); });
      })
      .Case<math::ErfcOp>([&](auto) {
        return mathUnary(
            op, [](float x) { return std::erfc(x); },
            [](double x) { return std::erfc(x); });
      })
      .Case<math::AbsFOp>([&](auto) {
        return floatUnary(op, [](double x) { return std::fabs(x); });
      })
      .Case<math::FloorOp>([&](auto) {
        return floatUnary(op, [](double x) { return std::floor(x); });
      })
      .Case<math::CeilOp>([&](auto) {
        return floatUnary(op, [](double x) { return std::ceil(x); });
      })
      .Case<math::TruncOp>([&](auto) {
        return floatUnary(op, [](double x) { return std::trunc(x); });
      })
      .Case<math::RoundOp>([&](auto) {
        return floatUnary(op, [](double x) { return std::round(x); });
      })
      .Case<math::RoundEvenOp>([&](auto) {
        return floatUnary(op, [](double x) {
          double r = std::floor(x);
          double frac = x - r;
          if (frac > 0.5 || (frac == 0.5 && std::fmod(r, 2.0) != 0.0))
            r += 1.0;
          return std::isfinite(x) ? std::copysign(r, x) : x;
        });
      })
      .Case<math::PowFOp>([&](auto) {
        return mathBinary(
            op, [](float a, float b) { return std::pow(a, b); },
            [](double a, double b) { return std::pow(a, b); });
      })
      .Case<math::Atan2Op>([&](auto) {
        return mathBinary(
            op, [](float a, float b) { return std::atan2(a, b); },
            [](double a, double b) { return std::atan2(a, b); });
      })
      .Case<math::CopySignOp>([&](auto) {
        return floatBinary(
            op, [](double a, double b) { return std::copysign(a, b); });
      })
      .Case<math::FmaOp>([&](auto o) { return execFma(o); })
      .Case<math::ClampFOp>([&](auto o) { return execClampF(o); })
      .Case<math::IsNaNOp>([&](auto) {
        return floatPredicate(op, [](double x) { return std::isnan(x); });
      })
      .Case<math::IsInfOp>([&](auto) {
        return floatPredicate(op, [](double x) { return std::isinf(x); });
      })
      .Case<math::IsFiniteOp>([&](auto) {
        return floatPredicate(op, [](double x) { return std::isfinite(x); });
      })
      .Case<math::AbsIOp>([&](auto) {
        return intUnary(op, [](int64_t a, unsigned w) {
          return wrapSigned(
              a < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(a)) : a,
              w);
        });
      })
      .Case<math::CtPopOp>([&](auto) {
        return intUnary(op, [](int64_t a, unsigned w) {
          return static_cast<int64_t>(std::popcount(wrapUnsigned(a, w)));
        });
      })
      .Case<math::CountLeadingZerosOp>([&](auto) {
        return intUnary(op, [](int64_t a, unsigned w) {
          return static_cast<int64_t>(std::countl_zero(wrapUnsigned(a, w))) -
                 static_cast<int64_t>(64 - w);
        });
      })
      .Case<math::CountTrailingZerosOp>([&](auto) {
        return intUnary(op, [](int64_t a, unsigned w) {
          uint64_t u = wrapUnsigned(a, w);
          return u == 0 ? static_cast<int64_t>(w)
                        : static_cast<int64_t>(std::countr_zero(u));
        });
      })
      // ---- tile -----------------------------------------------------------
      .Case<tile::ProgramIdOp>([&](tile::ProgramIdOp o) {
        RtValue r;
        describe(o.getType(), r);
        r.is = pid_[static_cast<int>(o.getDim())];
        bind(o.getResult(), std::move(r));
        return true;
      })
      .Case<tile::NumProgramsOp>([&](tile::NumProgramsOp o) {
        RtValue r;
        describe(o.getType(), r);
        r.is = grid_[static_cast<int>(o.getDim())];
        bind(o.getResult(), std::move(r));
        return true;
      })
      .Case<tile::DimOp>([&](tile::DimOp o) {
        const RtValue *v = lookup(op, o.getView());
        if (!v)
          return false;
        if (v->kind != RtValue::Kind::View || v->view < 0)
          return fail(op, "internal error: operand is not a view");
        const ViewInfo &info = views_[v->view];
        int64_t axis = o.getAxis();
        if (axis < 0 || axis >= static_cast<int64_t>(info.sizes.size()))
          return fail(op, "axis " + llvm::Twine(axis) + " is out of range");
        RtValue r;
        describe(o.getType(), r);
        r.is = info.sizes[axis];
        bind(o.getResult(), std::move(r));
        return true;
      })
      .Case<tile::LoadOp>([&](auto o) { return execLoad(o); })
      .Case<tile::StoreOp>([&](auto o) { return execStore(o); })
      .Case<tile::MmaOp>([&](auto o) { return execMma(o); })
      .Case<tile::ReduceOp>([&](tile::ReduceOp o) {
        return execReduceScan(op, o.getKind(), o.getAxis(), false, false);
      })
      .Case<tile::ScanOp>([&](tile::ScanOp o) {
        return execReduceScan(op, o.getKind(), o.getAxis(), true,
                              o.getReverse());
      })
      .Case<tile::BroadcastOp>([&](auto o) { return execBroadcast(o); })
      .Case<tile::ReshapeOp>([&](auto o) { return execReshape(o); })
      .Case<tile::PermuteOp>([&](auto o) { return execPermute(o); })
      .Case<tile::IotaOp>([&](auto o) { return execIota(o); })
      .Case<tile::ConvertLayoutOp>([&](auto o) {
        // Layouts say which thread holds what; the values are the same.
        const RtValue *s = lookup(o, o.getSource());
        if (!s)
          return false;
        bind(o.getResult(), RtValue(*s));
        return true;
      })
      .Case<tile::GatherOp>([&](auto o) { return execGather(o); })
      // A program's ops run one after the other here: its memory accesses
      // are already in order.
      .Case<tile::SyncThreadsOp>([](auto) { return true; })
      .Case<tile::SplatOp>([&](auto o) { return execSplat(o); })
      // ---- scf ------------------------------------------------------------
      .Case<scf::ForOp>([&](auto o) { return execFor(o); })
      .Case<scf::IfOp>([&](auto o) { return execIf(o); })
      .Case<scf::WhileOp>([&](auto o) { return execWhile(o); })
      .Case<scf::ExecuteRegionOp>([&](scf::ExecuteRegionOp o) {
        mlir::Region &region = o.getRegion();
        if (!region.hasOneBlock())
          return fail(op, "only single-block regions are supported");
        llvm::SmallVector<RtValue, 4> yielded;
        if (!runBlock(region.front(), yielded))
          return false;
        if (yielded.size() != o.getNumResults())
          return fail(op, "internal error: yield arity");
        for (auto [res, v] : llvm::zip(o.getResults(), yielded))
          bind(res, std::move(v));
        return true;
      })
      .Default([&](Operation *) { return unsupported(op); });
}

//===----------------------------------------------------------------------===//
// arith / math
//===----------------------------------------------------------------------===//

bool Interp::execConstant(arith::ConstantOp op) {
  auto cached = constants_.find(op);
  if (cached != constants_.end()) {
    bind(op.getResult(), cached->second);
    return true;
  }
  RtValue r;
  if (!makeResult(op, op.getType(), r))
    return false;
  mlir::Attribute attr = op.getValue();
  const bool isF = r.kind == RtValue::Kind::Float;
  if (auto f = llvm::dyn_cast<mlir::FloatAttr>(attr)) {
    if (!isF || r.isTile)
      return fail(op, "float constant for a non-float type");
    r.fs = f.getValue().convertToDouble();
  } else if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(attr)) {
    if (isF || r.isTile)
      return fail(op, "integer constant for a non-integer type");
    r.is = wrapSigned(i.getValue().getSExtValue(), r.width);
  } else if (auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(attr)) {
    if (!r.isTile || dense.getNumElements() != r.numel ||
        llvm::isa<mlir::FloatType>(dense.getElementType()) != isF ||
        (!isF && !dense.getElementType().isIntOrIndex()))
      return fail(op, "dense constant does not match its tile type");
    if (isF) {
      double *out = r.f();
      if (dense.isSplat()) {
        double v = dense.getSplatValue<llvm::APFloat>().convertToDouble();
        std::fill(out, out + r.numel, v);
      } else {
        int64_t k = 0;
        for (const llvm::APFloat &v : dense.getValues<llvm::APFloat>())
          out[k++] = v.convertToDouble();
      }
    } else {
      int64_t *out = r.i();
      if (dense.isSplat()) {
        int64_t v = wrapSigned(
            dense.getSplatValue<llvm::APInt>().getSExtValue(), r.width);
        std::fill(out, out + r.numel, v);
      } else {
        int64_t k = 0;
        for (const llvm::APInt &v : dense.getValues<llvm::APInt>())
          out[k++] = wrapSigned(v.getSExtValue(), r.width);
      }
    }
  } else {
    return fail(op, "unsupported constant attribute (expected a float, "
                    "integer or dense elements attribute)");
  }
  constants_[op] = r;
  bind(op.getResult(), std::move(r));
  return true;
}

template <class F> bool Interp::floatUnary(Operation *op, F fn) {
  const RtValue *a = lookup(op, op->getOperand(0));
  if (!a)
    return false;
  RtValue r;
  if (!makeResult(op, op->getResult(0).getType(), r))
    return false;
  if (a->kind != RtValue::Kind::Float || r.kind != RtValue::Kind::Float ||
      a->numel != r.numel)
    return fail(op, "internal error: operand/result mismatch");
  const double *pa = a->f();
  double *pr = r.f();
  const int64_t n = r.numel;
  withRounder(r.dtype, [&](auto round) {
    for (int64_t k = 0; k < n; ++k)
      pr[k] = round(fn(pa[k]));
  });
  bind(op->getResult(0), std::move(r));
  return true;
}

template <class F> bool Interp::floatBinary(Operation *op, F fn) {
  const RtValue *a = lookup(op, op->getOperand(0));
  const RtValue *b = a ? lookup(op, op->getOperand(1)) : nullptr;
  if (!b)
    return false;
  RtValue r;
  if (!makeResult(op, op->getResult(0).getType(), r))
    return false;
  if (a->kind != RtValue::Kind::Float || b->kind != RtValue::Kind::Float ||
      r.kind != RtValue::Kind::Float || a->numel != r.numel ||
      b->numel != r.numel)
    return fail(op, "internal error: operand/result mismatch");
  const double *pa = a->f(), *pb = b->f();
  double *pr = r.f();
  const int64_t n = r.numel;
  withRounder(r.dtype, [&](auto round) {
    for (int64_t k = 0; k < n; ++k)
      pr[k] = round(fn(pa[k], pb[k]));
  });
  bind(op->getResult(0), std::move(r));
  return true;
}

template <class F32, class F64>
bool Interp::mathUnary(Operation *op, F32 f32, F64 f64) {
  Type t = op->getResult(0).getType();
  if (auto s = llvm::dyn_cast<mlir::ShapedType>(t))
    t = s.getElementType();
  if (f64Mode_ || t.isF64())
    return floatUnary(op, f64);
  return floatUnary(op, [&](double x) {
    return static_cast<double>(f32(static_cast<float>(x)));
  });
}

template <class F32, class F64>
bool Interp::mathBinary(Operation *op, F32 f32, F64 f64) {
  Type t = op->getResult(0).getType();
  if (auto s = llvm::dyn_cast<mlir::ShapedType>(t))
    t = s.getElementType();
  if (f64Mode_ || t.isF64())
    return floatBinary(op, f64);
  return floatBinary(op, [&](double a, double b) {
    return static_cast<double>(
        f32(static_cast<float>(a), static_cast<float>(b)));
  });
}

bool Interp::execFma(math::FmaOp op) {
  const RtValue *a = lookup(op, op.getA());
  const RtValue *b = a ? lookup(op, op.getB()) : nullptr;
  const RtValue *c = b ? lookup(op, op.getC()) : nullptr;
  if (!c)
    return false;
  RtValue r;
  if (!makeResult(op, op.getType(), r))
    return false;
  if (a->numel != r.numel || b->numel != r.numel || c->numel != r.numel ||
      r.kind != RtValue::Kind::Float || a->kind != RtValue::Kind::Float ||
      b->kind != RtValue::Kind::Float || c->kind != RtValue::Kind::Float)
    return fail(op, "internal error: operand/result mismatch");
  const double *pa = a->f(), *pb = b->f(), *pc = c->f();
  double *pr = r.f();
  const bool dbl = f64Mode_ || r.dtype == DType::f64;
  withRounder(r.dtype, [&](auto round) {
    for (int64_t k = 0; k < r.numel; ++k)
      pr[k] = dbl ? round(std::fma(pa[k], pb[k], pc[k]))
                  : round(static_cast<double>(std::fma(
                        static_cast<float>(pa[k]), static_cast<float>(pb[k]),
                        static_cast<float>(pc[k]))));
  });
  bind(op.getResult(), std::move(r));
  return true;
}

bool Interp::execClampF(math::ClampFOp op) {
  const RtValue *x = lookup(op, op->getOperand(0));
  const RtValue *lo = x ? lookup(op, op->getOperand(1)) : nullptr;
  const RtValue *hi = lo ? lookup(op, op->getOperand(2)) : nullptr;
  if (!hi)
    return false;
  RtValue r;
  if (!makeResult(op, op->getResult(0).getType(), r))
    return false;
  if (x->numel != r.numel || lo->numel != r.numel || hi->numel != r.numel ||
      r.kind != RtValue::Kind::Float || x->kind != RtValue::Kind::Float ||
      lo->kind != RtValue::Kind::Float || hi->kind != RtValue::Kind::Float)
    return fail(op, "internal error: operand/result mismatch");
  for (int64_t k = 0; k < r.numel; ++k)
    r.f()[k] = nanMin(nanMax(x->f()[k], lo->f()[k]), hi->f()[k]);
  bind(op->getResult(0), std::move(r));
  return true;
}

template <class F> bool Interp::floatPredicate(Operation *op, F fn) {
  const RtValue *a = lookup(op, op->getOperand(0));
  if (!a)
    return false;
  RtValue r;
  if (!makeResult(op, op->getResult(0).getType(), r))
    return false;
  if (a->kind != RtValue::Kind::Float || r.kind != RtValue::Kind::Int ||
      a->numel != r.numel)
    return fail(op, "internal error: operand/result mismatch");
  for (int64_t k = 0; k < r.numel; ++k)
    r.i()[k] = fn(a->f()[k]) ? -1 : 0;
  bind(op->getResult(0), std::move(r));
  return true;
}

template <class F> bool Interp::intBinary(Operation *op, F fn) {
  const RtValue *a = lookup(op, op->getOperand(0));
  const RtValue *b = a ? lookup(op, op->getOperand(1)) : nullptr;
  if (!b)
    return false;
  RtValue r;
  if (!makeResult(op, op->getResult(0).getType(), r))
    return false;
  if (a->kind != RtValue::Kind::Int || b->kind != RtValue::Kind::Int ||
      r.kind != RtValue::Kind::Int || a->numel != r.numel ||
      b->numel != r.numel)
    return fail(op, "internal error: operand/result mismatch");
  const int64_t *pa = a->i(), *pb = b->i();
  int64_t *pr = r.i();
  const unsigned w = r.width;
  for (int64_t k = 0; k < r.numel; ++k)
    if (!fn(pa[k], pb[k], w, pr[k]))
      return fail(op, "integer division by zero" +
                          (r.isTile ? " (tile element " + llvm::Twine(k) + ")"
                                    : llvm::Twine()));
  bind(op->getResult(0), std::move(r));
  return true;
}

template <class F> bool Interp::intUnary(Operation *op, F fn) {
  const RtValue *a = lookup(op, op->getOperand(0));
  if (!a)
    return false;
  RtValue r;
  if (!makeResult(op, op->getResult(0).getType(), r))
    return false;
  if (a->kind != RtValue::Kind::Int || r.kind != RtValue::Kind::Int ||
      a->numel != r.numel)
    return fail(op, "internal error: operand/result mismatch");
  for (int64_t k = 0; k < r.numel; ++k)
    r.i()[k] = wrapSigned(fn(a->i()[k], r.width), r.width);
  bind(op->getResult(0), std::move(r));
  return true;
}

bool Interp::execCmpF(arith::CmpFOp op) {
  using P = arith::CmpFPredicate;
  const P pred = op.getPredicate();
  auto cmp = [pred](double a, double b) -> bool {
    const bool unord = std::isnan(a) || std::isnan(b);
    switch (pred) {
    case P::AlwaysFalse:
      return false;
    case P::OEQ:
      return !unord && a == b;
    case P::OGT:
      return !unord && a > b;
    case P::OGE:
      return !unord && a >= b;
    case P::OLT:
      return !unord && a < b;
    case P::OLE:
      return !unord && a <= b;
    case P::ONE:
      return !unord && a != b;
    case P::ORD:
      return !unord;
    case P::UEQ:
      return unord || a == b;
    case P::UGT:
      return unord || a > b;
    case P::UGE:
      return unord || a >= b;
    case P::ULT:
      return unord || a < b;
    case P::ULE:
      return unord || a <= b;
    case P::UNE:
      return unord || a != b;
    case P::UNO:
      return unord;
    case P::AlwaysTrue:
      return true;
    }
    return false;
  };
  const RtValue *a = lookup(op, op.getLhs());
  const RtValue *b = a ? lookup(op, op.getRhs()) : nullptr;
  if (!b)
    return false;
  RtValue r;
  if (!makeResult(op, op.getType(), r))
    return false;
  if (a->kind != RtValue::Kind::Float || b->kind != RtValue::Kind::Float ||
      a->numel != r.numel || b->numel != r.numel)
    return fail(op, "internal error: operand/result mismatch");
  for (int64_t k = 0; k < r.numel; ++k)
    r.i()[k] = cmp(a->f()[k], b->f()[k]) ? -1 : 0;
  bind(op.getResult(), std::move(r));
  return true;
}

bool Interp::execCmpI(arith::CmpIOp op) {
  using P = arith::CmpIPredicate;
  const P pred = op.getPredicate();
  const RtValue *a = lookup(op, op.getLhs());
  const RtValue *b = a ? lookup(op, op.getRhs()) : nullptr;
  if (!b)
    return false;
  RtValue r;
  if (!makeResult(op, op.getType(), r))
    return false;
  if (a->kind != RtValue::Kind::Int || b->kind != RtValue::Kind::Int ||
      a->numel != r.numel || b->numel != r.numel)
    return fail(op, "internal error: operand/result mismatch");
  const unsigned w = a->width;
  for (int64_t k = 0; k < r.numel; ++k) {
    const int64_t x = a->i()[k], y = b->i()[k];
    const uint64_t ux = wrapUnsigned(x, w), uy = wrapUnsigned(y, w);
    bool v = false;
    switch (pred) {
    case P::eq:
      v = x == y;
      break;
    case P::ne:
      v = x != y;
      break;
    case P::slt:
      v = x < y;
      break;
    case P::sle:
      v = x <= y;
      break;
    case P::sgt:
      v = x > y;
      break;
    case P::sge:
      v = x >= y;
      break;
    case P::ult:
      v = ux < uy;
      break;
    case P::ule:
      v = ux <= uy;
      break;
    case P::ugt:
      v = ux > uy;
      break;
    case P::uge:
      v = ux >= uy;
      break;
    }
    r.i()[k] = v ? -1 : 0;
  }
  bind(op.getResult(), std::move(r));
  return true;
}

bool Interp::execSelect(arith::SelectOp op) {
  const RtValue *c = lookup(op, op.getCondition());
  const RtValue *t = c ? lookup(op, op.getTrueValue()) : nullptr;
  const RtValue *f = t ? lookup(op, op.getFalseValue()) : nullptr;
  if (!f)
    return false;
  if (c->kind != RtValue::Kind::Int)
    return fail(op, "internal error: condition is not an integer");
  if (!c->isTile) {
    RtValue r = c->is ? *t : *f; // shares storage
    bind(op.getResult(), std::move(r));
    return true;
  }
  RtValue r;
  if (!makeResult(op, op.getType(), r))
    return false;
  if (c->numel != r.numel || t->numel != r.numel || f->numel != r.numel ||
      t->kind != r.kind || f->kind != r.kind)
    return fail(op, "internal error: operand/result mismatch");
  const int64_t *pc = c->i();
  if (r.kind == RtValue::Kind::Float)
    for (int64_t k = 0; k < r.numel; ++k)
      r.f()[k] = pc[k] ? t->f()[k] : f->f()[k];
  else
    for (int64_t k = 0; k < r.numel; ++k)
      r.i()[k] = pc[k] ? t->i()[k] : f->i()[k];
  bind(op.getResult(), std::move(r));
  return true;
}

bool Interp::execFloatCast(Operation *op) {
  if (auto trunc = llvm::dyn_cast<arith::TruncFOp>(op)) {
    if (auto mode = trunc.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even)
      return fail(op, "rounding mode '" + arith::stringifyRoundingMode(*mode) +
                          "' is not supported (only to_nearest_even)");
  }
  return floatUnary(op, [](double x) { return x; });
}

bool Interp::execIntToFloat(Operation *op, bool isSigned) {
  const RtValue *a = lookup(op, op->getOperand(0));
  if (!a)
    return false;
  RtValue r;
  if (!makeResult(op, op->getResult(0).getType(), r))
    return false;
  if (a->kind != RtValue::Kind::Int || r.kind != RtValue::Kind::Float ||
      a->numel != r.numel)
    return fail(op, "internal error: operand/result mismatch");
  const unsigned w = a->width;
  const DType dt = r.dtype;
  for (int64_t k = 0; k < r.numel; ++k) {
    const int64_t x = a->i()[k];
    const uint64_t ux = wrapUnsigned(x, w);
    const bool small =
        isSigned ? (x >= -(int64_t(1) << 53) && x <= (int64_t(1) << 53))
                 : ux <= (uint64_t(1) << 53);
    double v;
    if (small || f64Mode_ || dt == DType::f64) {
      v = isSigned ? static_cast<double>(x) : static_cast<double>(ux);
      v = roundElem(dt, v);
    } else if (dt == DType::f32) {
      v = isSigned ? static_cast<float>(x) : static_cast<float>(ux);
    } else {
      // A single correct rounding of a wide integer to a narrow format.
      const llvm::fltSemantics &sem =
          dt == DType::bf16  ? llvm::APFloat::BFloat()
          : dt == DType::f16 ? llvm::APFloat::IEEEhalf()
                             : llvm::APFloat::FloatTF32();
      llvm::APFloat f(sem);
      f.convertFromAPInt(
          llvm::APInt(64, isSigned ? static_cast<uint64_t>(x) : ux), isSigned,
          llvm::APFloat::rmNearestTiesToEven);
      v = f.convertToDouble();
    }
    r.f()[k] = v;
  }
  bind(op->getResult(0), std::move(r));
  return true;
}

bool Interp::execFloatToInt(Operation *op, bool isSigned) {
  // Saturating conversion toward zero, NaN -> 0, like the device's cvt.rzi.
  const RtValue *a = lookup(op, op->getOperand(0));
  if (!a)
    return false;
  RtValue r;
  if (!makeResult(op, op->getResult(0).getType(), r))
    return false;
  if (a->kind != RtValue::Kind::Float || r.kind != RtValue::Kind::Int ||
      a->numel != r.numel)
    return fail(op, "internal error: operand/result mismatch");
  const unsigned w = r.width;
  for (int64_t k = 0; k < r.numel; ++k) {
    const double t = std::trunc(a->f()[k]);
    int64_t v;
    if (std::isnan(t)) {
      v = 0;
    } else if (isSigned) {
      const double lo = -std::ldexp(1.0, w - 1), hi = std::ldexp(1.0, w - 1);
      if (t <= lo)
        v = wrapSigned(std::numeric_limits<int64_t>::min(), 64) >> (64 - w);
      else if (t >= hi)
        v = static_cast<int64_t>(wrapUnsigned(-1, w - 1));
      else
        v = static_cast<int64_t>(t);
    } else {
      const double hi = std::ldexp(1.0, w);
      uint64_t u;
      if (t <= 0)
        u = 0;
      else if (t >= hi)
        u = wrapUnsigned(-1, w);
      else
        u = static_cast<uint64_t>(t);
      v = wrapSigned(static_cast<int64_t>(u), w);
    }
    r.i()[k] = v;
  }
  bind(op->getResult(0), std::move(r));
  return true;
}

bool Interp::execIntCast(Operation *op, bool zeroExtend) {
  const RtValue *a = lookup(op, op->getOperand(0));
  if (!a)
    return false;
  RtValue r;
  if (!makeResult(op, op->getResult(0).getType(), r))
    return false;
  if (a->kind != RtValue::Kind::Int || r.kind != RtValue::Kind::Int ||
      a->numel != r.numel)
    return fail(op, "internal error: operand/result mismatch");
  const unsigned sw = a->width, dw = r.width;
  for (int64_t k = 0; k < r.numel; ++k) {
    int64_t x = a->i()[k];
    if (zeroExtend)
      x = static_cast<int64_t>(wrapUnsigned(x, sw));
    r.i()[k] = wrapSigned(x, dw);
  }
  bind(op->getResult(0), std::move(r));
  return true;
}

bool Interp::execBitcast(arith::BitcastOp op) {
  const RtValue *a = lookup(op, op.getIn());
  if (!a)
    return false;
  RtValue r;
  if (!makeResult(op, op.getType(), r))
    return false;
  if (a->numel != r.numel)
    return fail(op, "internal error: operand/result mismatch");
  for (int64_t k = 0; k < r.numel; ++k) {
    // To raw bits.
    uint64_t bits;
    if (a->kind == RtValue::Kind::Float) {
      double x = a->f()[k];
      switch (a->dtype) {
      case DType::f16:
        bits = toF16Bits(x);
        break;
      case DType::bf16:
        bits = toBF16Bits(x);
        break;
      case DType::tf32:
      case DType::f32:
        bits = toF32Bits(x);
        break;
      default:
        bits = std::bit_cast<uint64_t>(x);
        break;
      }
    } else {
      bits = wrapUnsigned(a->i()[k], a->width);
    }
    // From raw bits.
    if (r.kind == RtValue::Kind::Float) {
      double v;
      switch (r.dtype) {
      case DType::f16:
        v = fromF16Bits(static_cast<uint16_t>(bits));
        break;
      case DType::bf16:
        v = fromBF16Bits(static_cast<uint16_t>(bits));
        break;
      case DType::tf32:
      case DType::f32:
        v = fromF32Bits(static_cast<uint32_t>(bits));
        break;
      default:
        v = std::bit_cast<double>(bits);
        break;
      }
      r.f()[k] = v;
    } else {
      r.i()[k] = wrapSigned(static_cast<int64_t>(bits), r.width);
    }
  }
  bind(op.getResult(), std::move(r));
  return true;
}

//===----------------------------------------------------------------------===//
// tile: memory
//===----------------------------------------------------------------------===//

bool Interp::execLoad(tile::LoadOp op) {
  RtValue r;
  if (!makeResult(op, op.getType(), r))
    return false;
  double padding = op.getPadding() ? op.getPadding()->convertToDouble() : 0.0;
  if (!execViewAccess(op, op.getView(), op.getIndices(), r, false, padding))
    return false;
  bind(op.getResult(), std::move(r));
  return true;
}

bool Interp::execStore(tile::StoreOp op) {
  const RtValue *v = lookup(op, op.getValue());
  if (!v)
    return false;
  RtValue value = *v; // shares storage; keeps it alive
  return execViewAccess(op, op.getView(), op.getIndices(), value, true, 0.0);
}

bool Interp::execViewAccess(Operation *op, Value viewValue,
                            mlir::ValueRange indices, RtValue &t, bool isStore,
                            double padding) {
  const RtValue *vv = lookup(op, viewValue);
  if (!vv)
    return false;
  if (vv->kind != RtValue::Kind::View || vv->view < 0)
    return fail(op, "internal error: operand is not a view");
  const ViewInfo &view = views_[vv->view];
  const size_t rank = t.shape.size();
  if (rank == 0 || indices.size() != rank || view.sizes.size() != rank)
    return fail(op, "tile rank, view rank and index count differ");
  if ((t.kind == RtValue::Kind::Float) != isFloat(view.storage) ||
      t.kind == RtValue::Kind::View)
    return fail(op, "the tile element type does not match the view");
  llvm::SmallVector<int64_t, 4> idx(rank);
  for (size_t d = 0; d < rank; ++d)
    if (!scalarInt(op, indices[d], idx[d]))
      return false;

  // The in-bounds box of the tile: tile elements [lo, hi) along each dim.
  llvm::SmallVector<__int128, 4> origin(rank);
  llvm::SmallVector<int64_t, 4> lo(rank), hi(rank), ext(rank);
  bool empty = false, full = true;
  for (size_t d = 0; d < rank; ++d) {
    origin[d] = static_cast<__int128>(idx[d]) * t.shape[d];
    __int128 l = -origin[d],
             h = static_cast<__int128>(view.sizes[d]) - origin[d];
    l = std::max<__int128>(0, std::min<__int128>(l, t.shape[d]));
    h = std::max<__int128>(0, std::min<__int128>(h, t.shape[d]));
    lo[d] = static_cast<int64_t>(l);
    hi[d] = static_cast<int64_t>(h);
    ext[d] = hi[d] - lo[d];
    if (ext[d] <= 0)
      empty = true;
    if (lo[d] != 0 || hi[d] != t.shape[d])
      full = false;
  }

  const bool isF = t.kind == RtValue::Kind::Float;
  if (!isStore && !full) {
    if (isF) {
      double pad = roundElem(t.dtype, padding);
      std::fill(t.f(), t.f() + t.numel, pad);
    } else {
      int64_t pad = doubleToWrappedInt(padding, t.width);
      std::fill(t.i(), t.i() + t.numel, pad);
    }
  }
  if (empty)
    return true;

  // Address range over the box (affine in the coordinates: extremes at
  // corners), computed without overflow.
  const int64_t bufN = view.buffer->numElements();
  __int128 base = view.offset, minA = 0, maxA = 0;
  for (size_t d = 0; d < rank; ++d)
    base += (origin[d] + lo[d]) * static_cast<__int128>(view.strides[d]);
  minA = maxA = base;
  for (size_t d = 0; d < rank; ++d) {
    __int128 span = static_cast<__int128>(ext[d] - 1) * view.strides[d];
    if (span < 0)
      minA += span;
    else
      maxA += span;
  }
  if (minA < 0 || maxA >= bufN) {
    // Find the first offending element, in row-major tile order.
    llvm::SmallVector<int64_t, 4> e(lo.begin(), lo.end());
    while (true) {
      __int128 addr = view.offset;
      for (size_t d = 0; d < rank; ++d)
        addr += (origin[d] + e[d]) * static_cast<__int128>(view.strides[d]);
      if (addr < 0 || addr >= bufN) {
        std::string c = "[";
        for (size_t d = 0; d < rank; ++d)
          c += std::string(d ? ", " : "") + i128ToString(origin[d] + e[d]);
        c += "]";
        return fail(op, "element " + c + " of the view (tile element " +
                            joinInts(e) + ") is at address " +
                            i128ToString(addr) + ", outside the buffer of " +
                            llvm::Twine(bufN) + " elements (view sizes " +
                            joinInts(view.sizes) + ", strides " +
                            joinInts(view.strides) + ", offset " +
                            llvm::Twine(view.offset) + ")");
      }
      int64_t d = static_cast<int64_t>(rank) - 1;
      for (; d >= 0; --d) {
        if (++e[d] < hi[d])
          break;
        e[d] = lo[d];
      }
      if (d < 0)
        break;
    }
    return fail(op, "internal error: address range check");
  }

  // Fast path: every address of the box is inside the buffer.
  llvm::SmallVector<int64_t, 4> tileStrides = rowMajorStrides(t.shape);
  int64_t tileBase = 0;
  for (size_t d = 0; d < rank; ++d)
    tileBase += lo[d] * tileStrides[d];
  const int64_t inner = ext[rank - 1];
  const int64_t bStride = view.strides[rank - 1];
  const int64_t a0 = static_cast<int64_t>(base);
  Buffer *buffer = view.buffer;
  const unsigned width = t.width;
  visitDType(view.storage, [&](auto e) {
    using E = decltype(e);
    unsigned char *raw = static_cast<unsigned char *>(buffer->data());
    forEachRow(rank, ext.data(), view.strides.data(), tileStrides.data(), a0,
               tileBase, [&](int64_t a, int64_t ti) {
                 if constexpr (E::kFloat) {
                   if (isStore) {
                     const double *src = t.f() + ti;
                     for (int64_t k = 0; k < inner; ++k)
                       storeRaw<E>(raw, a + k * bStride, E::putF(src[k]));
                   } else {
                     double *dst = t.f() + ti;
                     for (int64_t k = 0; k < inner; ++k)
                       dst[k] = E::getF(loadRaw<E>(raw, a + k * bStride));
                   }
                 } else {
                   if (isStore) {
                     const int64_t *src = t.i() + ti;
                     for (int64_t k = 0; k < inner; ++k)
                       storeRaw<E>(raw, a + k * bStride, E::putI(src[k]));
                   } else {
                     int64_t *dst = t.i() + ti;
                     for (int64_t k = 0; k < inner; ++k)
                       dst[k] = wrapSigned(
                           E::getI(loadRaw<E>(raw, a + k * bStride)), width);
                   }
                 }
               });
  });
  return true;
}

//===----------------------------------------------------------------------===//
// tile: compute
//===----------------------------------------------------------------------===//

bool Interp::execMma(tile::MmaOp op) {
  const RtValue *a = lookup(op, op.getA());
  const RtValue *b = a ? lookup(op, op.getB()) : nullptr;
  const RtValue *c = b ? lookup(op, op.getAcc()) : nullptr;
  if (!c)
    return false;
  RtValue r;
  if (!makeResult(op, op.getType(), r))
    return false;
  if (a->shape.size() != 2 || b->shape.size() != 2 || c->shape.size() != 2 ||
      a->kind != RtValue::Kind::Float || b->kind != RtValue::Kind::Float ||
      c->kind != RtValue::Kind::Float)
    return fail(op, "internal error: mma operands must be 2-D float tiles");
  const int64_t M = a->shape[0], K = a->shape[1], N = b->shape[1];
  if (b->shape[0] != K || c->shape[0] != M || c->shape[1] != N ||
      r.numel != M * N)
    return fail(op, "internal error: mma shapes do not agree");
  const double *pa = a->f(), *pb = b->f(), *pc = c->f();
  double *pr = r.f();

  if (f64Mode_) {
    std::copy(pc, pc + M * N, pr);
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < K; ++k) {
        const double av = pa[i * K + k];
        const double *brow = pb + k * N;
        double *rrow = pr + i * N;
        for (int64_t j = 0; j < N; ++j)
          rrow[j] += av * brow[j];
      }
    bind(op.getResult(), std::move(r));
    return true;
  }

  // Device-faithful: exact products, f32 accumulation in k order.
  std::vector<float> acc(pc, pc + M * N);
  tile::MmaPrecision precision =
      op.getPrecision().value_or(tile::MmaPrecision::tf32);
  const bool f32Inputs = a->dtype == DType::f32;
  auto accumulate = [&](const double *A, const double *B) {
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < K; ++k) {
        const double av = A[i * K + k];
        const double *brow = B + k * N;
        float *arow = acc.data() + i * N;
        for (int64_t j = 0; j < N; ++j)
          arow[j] =
              static_cast<float>(static_cast<double>(arow[j]) + av * brow[j]);
      }
  };
  if (!f32Inputs || precision == tile::MmaPrecision::ieee) {
    accumulate(pa, pb);
  } else if (precision == tile::MmaPrecision::tf32) {
    std::vector<double> ta(pa, pa + M * K), tb(pb, pb + K * N);
    for (double &x : ta)
      x = roundToTF32RNA(x);
    for (double &x : tb)
      x = roundToTF32RNA(x);
    accumulate(ta.data(), tb.data());
  } else { // tf32x3
    std::vector<double> abig(M * K), asmall(M * K), bbig(K * N), bsmall(K * N);
    for (int64_t k = 0; k < M * K; ++k) {
      abig[k] = roundToTF32RNA(pa[k]);
      asmall[k] = roundToTF32RNA(pa[k] - abig[k]);
    }
    for (int64_t k = 0; k < K * N; ++k) {
      bbig[k] = roundToTF32RNA(pb[k]);
      bsmall[k] = roundToTF32RNA(pb[k] - bbig[k]);
    }
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < K; ++k) {
        const double ab = abig[i * K + k], as = asmall[i * K + k];
        const double *bb = bbig.data() + k * N, *bs = bsmall.data() + k * N;
        float *arow = acc.data() + i * N;
        for (int64_t j = 0; j < N; ++j)
          arow[j] = static_cast<float>(static_cast<double>(arow[j]) +
                                       (ab * bb[j] + ab * bs[j] + as * bb[j]));
      }
  }
  for (int64_t k = 0; k < M * N; ++k)
    pr[k] = acc[k];
  bind(op.getResult(), std::move(r));
  return true;
}

bool Interp::execReduceScan(Operation *op, tile::CombineKind kind, int64_t axis,
                            bool isScan, bool reverse) {
  const RtValue *s = lookup(op, op->getOperand(0));
  if (!s)
    return false;
  RtValue r;
  if (!makeResult(op, op->getResult(0).getType(), r))
    return false;
  const int64_t rank = static_cast<int64_t>(s->shape.size());
  if (axis < 0 || axis >= rank || s->kind != r.kind)
    return fail(op, "internal error: bad axis or kinds");
  int64_t outer = 1, inner = 1;
  const int64_t n = s->shape[axis];
  for (int64_t d = 0; d < axis; ++d)
    outer *= s->shape[d];
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= s->shape[d];
  if (r.numel != (isScan ? s->numel : outer * inner) || n <= 0)
    return fail(op, "internal error: result shape");

  // Sequential combine along the axis: out = combine(out, x), rounded.
  auto run = [&](auto *src, auto *dst, auto combine) {
    for (int64_t o = 0; o < outer; ++o) {
      auto *sBase = src + o * n * inner;
      if (isScan) {
        auto *dBase = dst + o * n * inner;
        for (int64_t step = 0; step < n; ++step) {
          const int64_t kk = reverse ? n - 1 - step : step;
          const int64_t prev = reverse ? kk + 1 : kk - 1;
          for (int64_t in = 0; in < inner; ++in)
            dBase[kk * inner + in] =
                step == 0
                    ? sBase[kk * inner + in]
                    : combine(dBase[prev * inner + in], sBase[kk * inner + in]);
        }
      } else {
        auto *dBase = dst + o * inner;
        for (int64_t in = 0; in < inner; ++in)
          dBase[in] = sBase[in];
        for (int64_t kk = 1; kk < n; ++kk)
          for (int64_t in = 0; in < inner; ++in)
            dBase[in] = combine(dBase[in], sBase[kk * inner + in]);
      }
    }
  };

  if (r.kind == RtValue::Kind::Float) {
    withRounder(r.dtype, [&](auto round) {
      switch (kind) {
      case tile::CombineKind::sum:
        run(s->f(), r.f(), [&](double x, double y) { return round(x + y); });
        break;
      case tile::CombineKind::prod:
        run(s->f(), r.f(), [&](double x, double y) { return round(x * y); });
        break;
      case tile::CombineKind::max:
        run(s->f(), r.f(), [](double x, double y) { return nanMax(x, y); });
        break;
      case tile::CombineKind::min:
        run(s->f(), r.f(), [](double x, double y) { return nanMin(x, y); });
        break;
      }
    });
  } else {
    const unsigned w = r.width;
    switch (kind) {
    case tile::CombineKind::sum:
      run(s->i(), r.i(),
          [w](int64_t x, int64_t y) { return wrapAdd(x, y, w); });
      break;
    case tile::CombineKind::prod:
      run(s->i(), r.i(),
          [w](int64_t x, int64_t y) { return wrapMul(x, y, w); });
      break;
    case tile::CombineKind::max:
      run(s->i(), r.i(), [](int64_t x, int64_t y) { return std::max(x, y); });
      break;
    case tile::CombineKind::min:
      run(s->i(), r.i(), [](int64_t x, int64_t y) { return std::min(x, y); });
      break;
    }
  }
  bind(op->getResult(0), std::move(r));
  return true;
}

/// Copies `src` into `dst` (row-major, shape `dstShape`) reading the source
/// with per-result-dimension strides `srcStrides`.
template <class T>
void gather(const T *src, T *dst, llvm::ArrayRef<int64_t> dstShape,
            llvm::ArrayRef<int64_t> srcStrides) {
  const size_t rank = dstShape.size();
  llvm::SmallVector<int64_t, 4> dstStrides = rowMajorStrides(dstShape);
  const int64_t inner = dstShape[rank - 1];
  const int64_t is = srcStrides[rank - 1];
  forEachRow(rank, dstShape.data(), srcStrides.data(), dstStrides.data(), 0, 0,
             [&](int64_t s, int64_t d) {
               for (int64_t k = 0; k < inner; ++k)
                 dst[d + k] = src[s + k * is];
             });
}

bool Interp::execBroadcast(tile::BroadcastOp op) {
  const RtValue *s = lookup(op, op.getSource());
  if (!s)
    return false;
  RtValue r;
  if (!makeResult(op, op.getType(), r))
    return false;
  if (s->shape.size() != r.shape.size() || s->kind != r.kind || !s->isTile)
    return fail(op, "internal error: broadcast ranks differ");
  llvm::SmallVector<int64_t, 4> st = rowMajorStrides(s->shape);
  for (size_t d = 0; d < st.size(); ++d) {
    if (s->shape[d] == 1)
      st[d] = 0;
    else if (s->shape[d] != r.shape[d])
      return fail(op, "internal error: broadcast shapes");
  }
  if (r.kind == RtValue::Kind::Float)
    gather(s->f(), r.f(), r.shape, st);
  else
    gather(s->i(), r.i(), r.shape, st);
  bind(op.getResult(), std::move(r));
  return true;
}

bool Interp::execReshape(tile::ReshapeOp op) {
  const RtValue *s = lookup(op, op.getSource());
  if (!s)
    return false;
  RtValue r;
  if (!describe(op.getType(), r))
    return fail(op, "unsupported result type");
  if (r.numel != s->numel || r.kind != s->kind || !s->isTile)
    return fail(op, "internal error: reshape element count");
  r.ft = s->ft; // same row-major storage
  r.it = s->it;
  bind(op.getResult(), std::move(r));
  return true;
}

bool Interp::execPermute(tile::PermuteOp op) {
  const RtValue *s = lookup(op, op.getSource());
  if (!s)
    return false;
  RtValue r;
  if (!makeResult(op, op.getType(), r))
    return false;
  llvm::ArrayRef<int64_t> perm = op.getPermutation();
  if (perm.size() != s->shape.size() || r.shape.size() != perm.size() ||
      r.kind != s->kind)
    return fail(op, "internal error: permutation rank");
  llvm::SmallVector<int64_t, 4> ss = rowMajorStrides(s->shape), st;
  llvm::SmallVector<bool, 4> seen(perm.size(), false);
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] < 0 || perm[i] >= static_cast<int64_t>(perm.size()) ||
        seen[perm[i]] || r.shape[i] != s->shape[perm[i]])
      return fail(op, "internal error: bad permutation");
    seen[perm[i]] = true;
    st.push_back(ss[perm[i]]);
  }
  if (r.kind == RtValue::Kind::Float)
    gather(s->f(), r.f(), r.shape, st);
  else
    gather(s->i(), r.i(), r.shape, st);
  bind(op.getResult(), std::move(r));
  return true;
}

bool Interp::execGather(tile::GatherOp op) {
  llvm::SmallVector<const RtValue *, 2> sources, indices;
  for (mlir::Value v : op.getSources()) {
    sources.push_back(lookup(op, v));
    if (!sources.back())
      return false;
  }
  for (mlir::Value v : op.getIndices()) {
    indices.push_back(lookup(op, v));
    if (!indices.back())
      return false;
  }
  // The sources share one shape: the element each result element reads
  // is found once for all of them.
  const llvm::SmallVector<int64_t, 4> &shape = sources.front()->shape;
  const llvm::SmallVector<int64_t, 4> &rshape = indices.front()->shape;
  llvm::ArrayRef<int64_t> axes = op.getAxes();
  if (axes.size() != indices.size())
    return fail(op, "internal error: gather shapes");
  for (size_t k = 0; k < axes.size(); ++k)
    if (indices[k]->shape != rshape ||
        axes[k] >= static_cast<int64_t>(shape.size()))
      return fail(op, "internal error: gather shapes");
  llvm::SmallVector<int64_t, 4> ss = rowMajorStrides(shape);
  llvm::SmallVector<int64_t, 4> coord(rshape.size(), 0), from;
  std::vector<int64_t> read;
  for (int64_t k = 0; k < indices.front()->numel; ++k) {
    from.assign(coord.begin(), coord.end());
    for (size_t a = 0; a < axes.size(); ++a) {
      const int64_t j = indices[a]->i()[k], n = shape[axes[a]];
      if (j < 0 || j >= n)
        return fail(op, "index " + std::to_string(j) + " at element " +
                            std::to_string(k) + " is outside [0, " +
                            std::to_string(n) + ") along axis " +
                            std::to_string(axes[a]));
      from[axes[a]] = j;
    }
    int64_t src = 0;
    for (size_t d = 0; d < from.size(); ++d)
      src += from[d] * ss[d];
    read.push_back(src);
    for (int64_t d = int64_t(coord.size()) - 1; d >= 0; --d) {
      if (++coord[d] < rshape[d])
        break;
      coord[d] = 0;
    }
  }
  // Bound only once all are made: binding may grow the environment, which
  // moves the sources the pointers above point to.
  llvm::SmallVector<RtValue, 2> results;
  for (auto [s, result] : llvm::zip(sources, op.getResults())) {
    RtValue &r = results.emplace_back();
    if (!makeResult(op, result.getType(), r))
      return false;
    if (r.kind != s->kind || r.shape != rshape || s->shape != shape)
      return fail(op, "internal error: gather shapes");
    for (int64_t k = 0; k < r.numel; ++k)
      if (r.kind == RtValue::Kind::Float)
        r.f()[k] = s->f()[read[k]];
      else
        r.i()[k] = s->i()[read[k]];
  }
  for (auto [result, r] : llvm::zip(op.getResults(), results))
    bind(result, std::move(r));
  return true;
}

bool Interp::execIota(tile::IotaOp op) {
  RtValue r;
  if (!makeResult(op, op.getType(), r))
    return false;
  if (r.kind != RtValue::Kind::Int)
    return fail(op, "iota needs an integer tile");
  // Row-major: the coordinate along dim is (k / inner) % size.
  llvm::ArrayRef<int64_t> shape = op.getType().getShape();
  int64_t dim = op.getDim(), inner = 1;
  for (int64_t d = dim + 1; d < int64_t(shape.size()); ++d)
    inner *= shape[d];
  for (int64_t k = 0; k < r.numel; ++k)
    r.i()[k] = wrapSigned(k / inner % shape[dim], r.width);
  bind(op.getResult(), std::move(r));
  return true;
}

bool Interp::execSplat(tile::SplatOp op) {
  const RtValue *s = lookup(op, op.getValue());
  if (!s)
    return false;
  RtValue r;
  if (!makeResult(op, op.getType(), r))
    return false;
  if (s->kind != r.kind || s->isTile)
    return fail(op, "internal error: splat operand");
  if (r.kind == RtValue::Kind::Float)
    std::fill(r.f(), r.f() + r.numel, roundElem(r.dtype, s->fs));
  else
    std::fill(r.i(), r.i() + r.numel, wrapSigned(s->is, r.width));
  bind(op.getResult(), std::move(r));
  return true;
}

//===----------------------------------------------------------------------===//
// scf
//===----------------------------------------------------------------------===//

bool Interp::execFor(scf::ForOp op) {
  int64_t lb = 0, ub = 0, step = 0;
  if (!scalarInt(op, op.getLowerBound(), lb) ||
      !scalarInt(op, op.getUpperBound(), ub) ||
      !scalarInt(op, op.getStep(), step))
    return false;
  const bool uns = op.getUnsignedCmp();
  RtValue ivProto;
  if (!describe(op.getInductionVar().getType(), ivProto) ||
      ivProto.kind != RtValue::Kind::Int)
    return fail(op, "unsupported induction variable type");
  const unsigned w = ivProto.width;
  if (uns ? wrapUnsigned(step, w) == 0 : step <= 0)
    return fail(op, "step must be positive, got " + llvm::Twine(step));

  llvm::SmallVector<RtValue, 4> iter;
  for (Value init : op.getInitArgs()) {
    const RtValue *v = lookup(op, init);
    if (!v)
      return false;
    iter.push_back(*v);
  }
  mlir::Block &body = *op.getBody();
  if (body.getNumArguments() != iter.size() + 1)
    return fail(op, "internal error: loop body arguments");
  auto less = [&](int64_t x, int64_t y) {
    return uns ? wrapUnsigned(x, w) < wrapUnsigned(y, w) : x < y;
  };
  llvm::SmallVector<RtValue, 4> yielded;
  for (int64_t iv = lb; less(iv, ub);) {
    ivProto.is = iv;
    env_[body.getArgument(0)] = ivProto;
    for (size_t k = 0; k < iter.size(); ++k)
      env_[body.getArgument(k + 1)] = std::move(iter[k]);
    if (!runBlock(body, yielded))
      return false;
    if (yielded.size() != iter.size())
      return fail(op, "internal error: yield arity");
    for (size_t k = 0; k < iter.size(); ++k)
      iter[k] = std::move(yielded[k]);
    const int64_t next = wrapAdd(iv, step, w);
    if (uns ? wrapUnsigned(next, w) <= wrapUnsigned(iv, w) : next <= iv)
      break; // the induction variable would wrap around: the loop is done
    iv = next;
  }
  for (auto [res, v] : llvm::zip(op.getResults(), iter))
    bind(res, std::move(v));
  return true;
}

bool Interp::execIf(scf::IfOp op) {
  int64_t cond = 0;
  if (!scalarInt(op, op.getCondition(), cond))
    return false;
  mlir::Region &region = cond ? op.getThenRegion() : op.getElseRegion();
  llvm::SmallVector<RtValue, 4> yielded;
  if (!region.empty() && !runBlock(region.front(), yielded))
    return false;
  if (yielded.size() != op.getNumResults())
    return fail(op, "internal error: yield arity");
  for (auto [res, v] : llvm::zip(op.getResults(), yielded))
    bind(res, std::move(v));
  return true;
}

bool Interp::execWhile(scf::WhileOp op) {
  llvm::SmallVector<RtValue, 4> args;
  for (Value init : op.getInits()) {
    const RtValue *v = lookup(op, init);
    if (!v)
      return false;
    args.push_back(*v);
  }
  mlir::Block &before = op.getBefore().front();
  mlir::Block &after = op.getAfter().front();
  llvm::SmallVector<RtValue, 4> out;
  while (true) {
    if (before.getNumArguments() != args.size())
      return fail(op, "internal error: while arity");
    for (size_t k = 0; k < args.size(); ++k)
      env_[before.getArgument(k)] = std::move(args[k]);
    if (!runBlock(before, out))
      return false;
    // out = [condition, forwarded...]
    if (out.empty() || out[0].kind != RtValue::Kind::Int)
      return fail(op, "internal error: scf.condition");
    const bool go = out[0].is != 0;
    args.assign(std::make_move_iterator(out.begin() + 1),
                std::make_move_iterator(out.end()));
    if (!go)
      break;
    if (after.getNumArguments() != args.size())
      return fail(op, "internal error: while arity");
    for (size_t k = 0; k < args.size(); ++k)
      env_[after.getArgument(k)] = std::move(args[k]);
    if (!runBlock(after, args))
      return false;
  }
  if (args.size() != op.getNumResults())
    return fail(op, "internal error: while results");
  for (auto [res, v] : llvm::zip(op.getResults(), args))
    bind(res, std::move(v));
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

Status tessera::interp::run(mlir::ModuleOp module,
                            const std::string &kernelName,
                            const std::vector<KernelArg> &args,
                            const LaunchConfig &config) {
  if (!module)
    return Status::error("no module to run");
  tile::KernelOp kernel;
  std::vector<std::string> names;
  module.walk([&](tile::KernelOp k) {
    names.push_back(("@" + k.getSymName()).str());
    if (!kernel && k.getSymName() == kernelName)
      kernel = k;
  });
  if (!kernel) {
    std::string list;
    for (const std::string &n : names)
      list += (list.empty() ? "" : ", ") + n;
    return Status::error("no tile.kernel named @" + kernelName +
                         " in the module" +
                         (list.empty() ? std::string(" (it has no kernels)")
                                       : " (kernels: " + list + ")"));
  }
  try {
    Interp interp(config);
    return interp.run(kernel, args);
  } catch (const std::bad_alloc &) {
    return Status::error("out of memory while interpreting @" + kernelName);
  } catch (const std::exception &e) {
    return Status::error(std::string("internal error while interpreting @") +
                         kernelName + ": " + e.what());
  }
}
