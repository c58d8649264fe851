//===- Interpreter.h - reference interpreter of level-1 tile IR -*- C++ -*-===//
//
// Runs a tile.kernel over host buffers for a whole grid of program instances.
// Device-faithful mode rounds every op result to its declared element type
// (round-to-nearest-even), runs tile.mma with products in the input type and
// f32 accumulation, and evaluates math functions in f32; Float64 mode skips
// all rounding, for references. Errors (out-of-bounds addresses, bad
// arguments, unsupported ops) come back as a Status naming the op and its
// location; the interpreter never crashes on bad input.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_INTERPRETER_INTERPRETER_H
#define TESSERA_INTERPRETER_INTERPRETER_H

#include "interpreter/Numerics.h"

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tessera::interp {

/// A contiguous row-major host array with typed storage.
class Buffer {
public:
  Buffer(DType dtype, std::vector<int64_t> shape);

  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  /// Row-major strides in elements.
  std::vector<int64_t> strides() const;
  int64_t numElements() const { return numElements_; }

  /// Element `linear` converted to double.
  double get(int64_t linear) const;
  /// Stores `value` rounded (RNE) to the storage type; integers truncate
  /// toward zero and wrap to the width.
  void set(int64_t linear, double value);
  /// Exact integer access (no trip through double): integer elements are
  /// returned sign-extended (i1 as 0 or 1); stores wrap to the width. On a
  /// float buffer these convert like get/set.
  int64_t getInt(int64_t linear) const;
  void setInt(int64_t linear, int64_t value);
  /// An index outside [0, numElements()) reads NaN (0 for integers) and
  /// writes nothing: buffers never touch memory they do not own.

  /// Fills floats with NaN and integers with 0x5A5A... so that tests can
  /// check every output element was overwritten.
  void poison();
  /// True if element `linear` still holds the poison pattern.
  bool isPoison(int64_t linear) const;

  void *data() { return storage_.data(); }
  const void *data() const { return storage_.data(); }

private:
  DType dtype_;
  std::vector<int64_t> shape_;
  int64_t numElements_;
  std::vector<unsigned char> storage_;
};

/// A kernel argument of type !tile.view: a buffer seen with its own sizes,
/// strides (in elements) and element offset; by default the whole buffer.
struct ViewArg {
  Buffer *buffer = nullptr;
  std::vector<int64_t> sizes;   // empty: buffer->shape()
  std::vector<int64_t> strides; // empty: buffer->strides() (row-major
                                // strides of `sizes` if their rank differs)
  int64_t offset = 0;
};

/// Integer and index scalars are passed as int64_t, float scalars as double.
using KernelArg = std::variant<ViewArg, int64_t, double>;

enum class Mode { DeviceFaithful, Float64 };

struct LaunchConfig {
  std::array<int64_t, 3> grid = {1, 1, 1};
  Mode mode = Mode::DeviceFaithful;
};

struct Status {
  bool ok = true;
  std::string message;
  static Status success() { return {}; }
  static Status error(std::string message) {
    return {false, std::move(message)};
  }
  explicit operator bool() const { return ok; }
};

/// Runs kernel `kernelName` of `module` on every program instance of the grid.
Status run(mlir::ModuleOp module, const std::string &kernelName,
           const std::vector<KernelArg> &args, const LaunchConfig &config);

} // namespace tessera::interp

#endif // TESSERA_INTERPRETER_INTERPRETER_H
