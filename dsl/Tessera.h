//===- Tessera.h - the embedded C++ tile DSL --------------------*- C++ -*-===//
//
// Kernel authors write tile kernels in C++ against this header; each call
// builds level-1 `tile` IR, with the C++ call site as the op's location.
// Misuse (shape or dtype mismatch, bad hints...) throws tessera::dsl::Error
// whose message starts with "file:line:col: error:".
//
//   KernelModule module;
//   module.kernel("scale", {view("x", f32, 1), scalar("alpha", f32)},
//                 [&](KernelArgs &args) {
//     View x = args["x"];
//     Scalar i = program_id(0);
//     Tile t = load(x, {i}, {128});
//     store(x, {i}, t * args["alpha"]);
//   });
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DSL_TESSERA_H
#define TESSERA_DSL_TESSERA_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Value.h"

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <source_location>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::dsl {

using Loc = std::source_location;
using Shape = std::vector<int64_t>;

/// A misuse of the DSL; what() starts with the C++ location of the call.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class DType { f16, bf16, tf32, f32, f64, i1, i8, i16, i32, i64, index };
inline constexpr DType f16 = DType::f16, bf16 = DType::bf16, tf32 = DType::tf32,
                       f32 = DType::f32, f64 = DType::f64, i1 = DType::i1,
                       i8 = DType::i8, i16 = DType::i16, i32 = DType::i32,
                       i64 = DType::i64, index = DType::index;
const char *name(DType dtype);
bool isFloat(DType dtype);

/// L2 eviction policy of a load or store.
enum class Cache { normal, evict_first, evict_last };

/// Optional hints of a load (designated initializers read well:
/// `load(a, {i, k}, {64, 32}, {.latency = 3, .cache = Cache::evict_last})`).
struct LoadOptions {
  std::optional<double> padding;
  std::optional<int> latency;
  std::optional<Cache> cache;
  bool allow_tma = false;
  /// Issued where written: not hoisted out of its loop nor issued ahead
  /// (tile.load's `at_use`).
  bool at_use = false;
};
struct StoreOptions {
  std::optional<int> latency;
  std::optional<Cache> cache;
  bool allow_tma = false;
};

/// How f32 inputs of mma are multiplied.
enum class Precision { tf32, tf32x3, ieee };

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// A scalar value: an index, integer, float or i1 condition.
class Scalar {
public:
  Scalar() = default;
  explicit Scalar(mlir::Value value) : value_(value) {}
  /// An index constant (inside a kernel body).
  Scalar(int64_t constant, Loc loc = Loc::current());
  Scalar(int constant, Loc loc = Loc::current())
      : Scalar(int64_t(constant), loc) {}

  mlir::Value value() const { return value_; }
  DType dtype() const;

private:
  mlir::Value value_;
};

/// A tile: a ranked tensor value with static power-of-two dimensions.
class Tile {
public:
  Tile() = default;
  explicit Tile(mlir::Value value) : value_(value) {}

  mlir::Value value() const { return value_; }
  Shape shape() const;
  int64_t rank() const { return static_cast<int64_t>(shape().size()); }
  DType dtype() const;

private:
  mlir::Value value_;
};

/// A global tensor view argument: run-time sizes and strides.
class View {
public:
  View() = default;
  explicit View(mlir::Value value) : value_(value) {}

  mlir::Value value() const { return value_; }
  int64_t rank() const;
  DType dtype() const;
  /// The run-time size along `axis` (an index scalar).
  Scalar dim(int64_t axis, Loc loc = Loc::current()) const;

private:
  mlir::Value value_;
};

/// Operands that remember where in the C++ source they were used, so that
/// operators (which cannot take a default location argument) still attach
/// the caller's location to the ops they build.
struct TileAt {
  TileAt(const Tile &tile, Loc loc = Loc::current()) : tile(tile), loc(loc) {}
  Tile tile;
  Loc loc;
};
struct ScalarAt {
  ScalarAt(const Scalar &scalar, Loc loc = Loc::current())
      : scalar(scalar), loc(loc) {}
  Scalar scalar;
  Loc loc;
};

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// One kernel parameter: a view (element type, rank) or a scalar.
struct Param {
  std::string name;
  DType dtype;
  int64_t rank; // 0 for scalars
};
inline Param view(std::string name, DType dtype, int64_t rank) {
  return {std::move(name), dtype, rank};
}
inline Param scalar(std::string name, DType dtype) {
  return {std::move(name), dtype, 0};
}

/// A kernel argument inside the body: converts to View or Scalar.
class Arg {
public:
  Arg(mlir::Value value, const Param &param) : value_(value), param_(param) {}
  operator View() const;
  operator Scalar() const;
  const Param &param() const { return param_; }

private:
  mlir::Value value_;
  Param param_;
};

class KernelArgs {
public:
  Arg operator[](size_t index) const;
  Arg operator[](const std::string &name) const;
  size_t size() const { return args_.size(); }

private:
  friend class KernelModule;
  std::vector<Arg> args_;
};

/// A module of kernels under construction. Owns its MLIR context unless one
/// is given.
class KernelModule {
public:
  explicit KernelModule(mlir::MLIRContext *context = nullptr);
  ~KernelModule();
  KernelModule(const KernelModule &) = delete;
  KernelModule &operator=(const KernelModule &) = delete;

  /// Builds `tile.kernel @name(params...)` with `body`, then verifies it.
  /// Throws Error on misuse, located at the offending C++ call.
  void kernel(const std::string &name, const std::vector<Param> &params,
              const std::function<void(KernelArgs &)> &body,
              Loc loc = Loc::current());

  mlir::ModuleOp module() const;
  mlir::MLIRContext *context() const { return context_; }
  /// The IR as text (with locations when `debugInfo`).
  std::string str(bool debugInfo = false) const;
  /// Moves the module out (the KernelModule is empty afterwards).
  mlir::OwningOpRef<mlir::ModuleOp> release();

private:
  std::unique_ptr<mlir::MLIRContext> ownedContext_;
  mlir::MLIRContext *context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
};

/// A context with every dialect a tile kernel may use loaded.
std::unique_ptr<mlir::MLIRContext> makeContext();

//===----------------------------------------------------------------------===//
// Program structure
//===----------------------------------------------------------------------===//

Scalar program_id(int axis, Loc loc = Loc::current());
Scalar num_programs(int axis, Loc loc = Loc::current());

/// Asks the compiler for registers that fit `blocks` (1 to 32) programs of
/// this kernel on one SM (tile.kernel's min_blocks_per_sm, PTX
/// .minnctapersm): ptxas spills rather than exceed them. Called anywhere
/// in the kernel's body.
void min_blocks_per_sm(int64_t blocks, Loc loc = Loc::current());
/// Runs this kernel on `warps` warps (a power of two, 1 to 32;
/// tile.kernel's num_warps) instead of the compile option's, so the
/// kernels of one module may differ. Called in the kernel's body, outside
/// loops and branches.
void num_warps(int64_t warps, Loc loc = Loc::current());

/// Scalar constants of a given type.
Scalar constant(double value, DType dtype, Loc loc = Loc::current());

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Loads the tile of `shape` at tile index `index` (element offset
/// index[d] * shape[d]), reading `padding` (default 0) outside the bounds.
Tile load(const View &view, const std::vector<Scalar> &index,
          const Shape &shape, const LoadOptions &options = {},
          Loc loc = Loc::current());
/// Stores `tile` at tile index `index`, masked to the view's bounds.
void store(const View &view, const std::vector<Scalar> &index, const Tile &tile,
           const StoreOptions &options = {}, Loc loc = Loc::current());

//===----------------------------------------------------------------------===//
// Tile construction and shape
//===----------------------------------------------------------------------===//

Tile full(const Shape &shape, double value, DType dtype,
          Loc loc = Loc::current());
Tile zeros(const Shape &shape, DType dtype, Loc loc = Loc::current());
/// A constant tile from row-major values.
Tile constant(const Shape &shape, DType dtype,
              const std::vector<double> &values, Loc loc = Loc::current());
Tile splat(const Scalar &value, const Shape &shape, Loc loc = Loc::current());
/// [0, 1, ..., n-1].
Tile iota(int64_t n, DType dtype = i32, Loc loc = Loc::current());
Tile reshape(const Tile &tile, const Shape &shape, Loc loc = Loc::current());
Tile broadcast_to(const Tile &tile, const Shape &shape,
                  Loc loc = Loc::current());
Tile permute(const Tile &tile, const std::vector<int64_t> &permutation,
             Loc loc = Loc::current());
/// result[i] = tile[i with i[axis] replaced by indices[i]]; `indices` is an
/// integer tile shaped like the result.
Tile gather(const Tile &tile, const Tile &indices, int64_t axis,
            Loc loc = Loc::current());
/// result[i] = tile[i with i[axes[k]] replaced by indices[k][i]] for every
/// k: a gather along several axes at once (one exchange between threads).
Tile gather(const Tile &tile, const std::vector<Tile> &indices,
            const std::vector<int64_t> &axes, Loc loc = Loc::current());
/// Several tiles of one shape and dtype gathered through the same indices
/// (the planes of a complex tile): one exchange between threads for all.
std::vector<Tile> gather(const std::vector<Tile> &tiles,
                         const std::vector<Tile> &indices,
                         const std::vector<int64_t> &axes,
                         Loc loc = Loc::current());
/// Swaps the last two dimensions.
Tile transpose(const Tile &tile, Loc loc = Loc::current());
/// Converts the element type (float <-> float rounds to nearest even,
/// float -> int truncates toward zero, int -> int sign-extends or wraps).
Tile cast(const Tile &tile, DType dtype, Loc loc = Loc::current());
Scalar cast(const Scalar &scalar, DType dtype, Loc loc = Loc::current());

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

/// a (MxK) * b (KxN) + acc (MxN, f32).
Tile mma(const Tile &a, const Tile &b, const Tile &acc,
         std::optional<Precision> precision = std::nullopt,
         Loc loc = Loc::current());

/// Reductions along `axis`; the axis stays with size 1.
Tile sum(const Tile &tile, int64_t axis, Loc loc = Loc::current());
Tile prod(const Tile &tile, int64_t axis, Loc loc = Loc::current());
Tile max(const Tile &tile, int64_t axis, Loc loc = Loc::current());
Tile min(const Tile &tile, int64_t axis, Loc loc = Loc::current());

/// Inclusive scans along `axis`.
Tile cumsum(const Tile &tile, int64_t axis, bool reverse = false,
            Loc loc = Loc::current());
Tile cumprod(const Tile &tile, int64_t axis, bool reverse = false,
             Loc loc = Loc::current());
Tile cummax(const Tile &tile, int64_t axis, bool reverse = false,
            Loc loc = Loc::current());

/// Elementwise math (f32 math on f16/bf16 is rounded back to the type).
Tile exp(const Tile &x, Loc loc = Loc::current());
Tile exp2(const Tile &x, Loc loc = Loc::current());
Tile log(const Tile &x, Loc loc = Loc::current());
Tile log2(const Tile &x, Loc loc = Loc::current());
Tile log1p(const Tile &x, Loc loc = Loc::current());
Tile sqrt(const Tile &x, Loc loc = Loc::current());
Tile rsqrt(const Tile &x, Loc loc = Loc::current());
Tile tanh(const Tile &x, Loc loc = Loc::current());
Tile sin(const Tile &x, Loc loc = Loc::current());
Tile cos(const Tile &x, Loc loc = Loc::current());
Tile abs(const Tile &x, Loc loc = Loc::current());
/// Elementwise max/min of two tiles (NaN-propagating for floats).
Tile maximum(const TileAt &a, const Tile &b);
Tile minimum(const TileAt &a, const Tile &b);
Tile maximum(const TileAt &a, double b);
Tile minimum(const TileAt &a, double b);
/// cond ? a : b, elementwise; operands broadcast against each other.
Tile where(const TileAt &cond, const Tile &a, const Tile &b);
Tile where(const TileAt &cond, const Tile &a, double b);
Tile where(const TileAt &cond, double a, const Tile &b);

// Elementwise arithmetic with numpy-style broadcasting; a double or scalar
// operand is splatted in the tile's element type.
Tile operator+(const TileAt &a, const Tile &b);
Tile operator-(const TileAt &a, const Tile &b);
Tile operator*(const TileAt &a, const Tile &b);
Tile operator/(const TileAt &a, const Tile &b);
/// Remainder with the sign of the dividend (C's %; remsi / remf).
Tile operator%(const TileAt &a, const Tile &b);
Tile operator%(const TileAt &a, double b);
Tile operator+(const TileAt &a, double b);
Tile operator-(const TileAt &a, double b);
Tile operator*(const TileAt &a, double b);
Tile operator/(const TileAt &a, double b);
Tile operator+(double a, const TileAt &b);
Tile operator-(double a, const TileAt &b);
Tile operator*(double a, const TileAt &b);
Tile operator/(double a, const TileAt &b);
Tile operator+(const TileAt &a, const Scalar &b);
Tile operator-(const TileAt &a, const Scalar &b);
Tile operator*(const TileAt &a, const Scalar &b);
Tile operator/(const TileAt &a, const Scalar &b);
Tile operator-(const TileAt &a);
// Comparisons give i1 tiles.
Tile operator<(const TileAt &a, const Tile &b);
Tile operator<=(const TileAt &a, const Tile &b);
Tile operator>(const TileAt &a, const Tile &b);
Tile operator>=(const TileAt &a, const Tile &b);
Tile operator==(const TileAt &a, const Tile &b);
Tile operator!=(const TileAt &a, const Tile &b);
Tile operator<(const TileAt &a, double b);
Tile operator<=(const TileAt &a, double b);
Tile operator>(const TileAt &a, double b);
Tile operator>=(const TileAt &a, double b);
Tile operator&&(const TileAt &a, const Tile &b);
Tile operator||(const TileAt &a, const Tile &b);

// Scalar arithmetic (index or integer or float scalars of the same type).
Scalar operator+(const ScalarAt &a, const Scalar &b);
Scalar operator-(const ScalarAt &a, const Scalar &b);
Scalar operator*(const ScalarAt &a, const Scalar &b);
Scalar operator/(const ScalarAt &a, const Scalar &b);
Scalar operator%(const ScalarAt &a, const Scalar &b);
Scalar operator<(const ScalarAt &a, const Scalar &b);
Scalar operator<=(const ScalarAt &a, const Scalar &b);
Scalar operator>(const ScalarAt &a, const Scalar &b);
Scalar operator>=(const ScalarAt &a, const Scalar &b);
Scalar operator==(const ScalarAt &a, const Scalar &b);
Scalar operator!=(const ScalarAt &a, const Scalar &b);
Scalar ceil_div(const Scalar &a, const Scalar &b, Loc loc = Loc::current());
Scalar min(const Scalar &a, const Scalar &b, Loc loc = Loc::current());
Scalar max(const Scalar &a, const Scalar &b, Loc loc = Loc::current());

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

namespace detail {
using Values = std::vector<mlir::Value>;
Values forLoop(const Scalar &lo, const Scalar &hi, const Scalar &step,
               const Values &init,
               const std::function<Values(mlir::Value, const Values &)> &body,
               Loc loc);
Values ifElse(const Scalar &cond, const Values &types,
              const std::function<Values()> &thenBody,
              const std::function<Values()> &elseBody, Loc loc);
} // namespace detail

/// for i in [lo, hi) step 1: body(i).
void for_range(const Scalar &lo, const Scalar &hi,
               const std::function<void(Scalar)> &body,
               Loc loc = Loc::current());
/// A loop carrying one tile: returns the tile after the last iteration.
Tile for_range(const Scalar &lo, const Scalar &hi, const Tile &init,
               const std::function<Tile(Scalar, Tile)> &body,
               Loc loc = Loc::current());
/// A loop carrying N tiles.
template <size_t N, typename Body>
std::array<Tile, N> for_range(const Scalar &lo, const Scalar &hi,
                              const std::array<Tile, N> &init, Body body,
                              Loc loc = Loc::current()) {
  detail::Values values;
  for (const Tile &t : init)
    values.push_back(t.value());
  detail::Values out = detail::forLoop(
      lo, hi, Scalar(int64_t(1), loc), values,
      [&](mlir::Value iv, const detail::Values &carried) {
        std::array<Tile, N> in;
        for (size_t i = 0; i < N; ++i)
          in[i] = Tile(carried[i]);
        std::array<Tile, N> next = body(Scalar(iv), in);
        detail::Values result;
        for (const Tile &t : next)
          result.push_back(t.value());
        return result;
      },
      loc);
  std::array<Tile, N> result;
  for (size_t i = 0; i < N; ++i)
    result[i] = Tile(out[i]);
  return result;
}

/// if (cond) then_body();
void if_then(const Scalar &cond, const std::function<void()> &thenBody,
             Loc loc = Loc::current());
/// cond ? then_body() : else_body(), both giving a tile of the same type.
Tile if_else(const Scalar &cond, const std::function<Tile()> &thenBody,
             const std::function<Tile()> &elseBody, Loc loc = Loc::current());
/// cond ? then_body() : else_body(), both giving as many tiles, of the same
/// types.
std::vector<Tile> if_else(const Scalar &cond,
                          const std::function<std::vector<Tile>()> &thenBody,
                          const std::function<std::vector<Tile>()> &elseBody,
                          Loc loc = Loc::current());

} // namespace tessera::dsl

#endif // TESSERA_DSL_TESSERA_H
