//===- KernelInfo.h - the kernel ABI shared by compiler and runtime -*- C++
//-*-===//
//
// What the runtime needs to launch a compiled tile kernel, written by the
// compiler next to the PTX (as JSON) and read back by the runtime. No MLIR.
//
// Parameter ABI of a kernel, argument by argument, in order:
//   view of rank r  -> .param .u64 pointer (global, `align` bytes aligned),
//                      then r x .param .u64 sizes, then r x .param .u64
//                      strides (in elements; sizes and strides are int64)
//   index, i64      -> .param .u64
//   i32             -> .param .u32
//   f32             -> .param .f32
//   f64             -> .param .f64
// Launch: block = (numWarps * 32, 1, 1), dynamic shared memory sharedBytes.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_KERNELINFO_H
#define TESSERA_RUNTIME_KERNELINFO_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::rt {

/// Element types of views and scalar arguments.
enum class ScalarType { f16, bf16, f32, f64, i1, i8, i16, i32, i64, index };

const char *scalarTypeName(ScalarType type);
std::optional<ScalarType> parseScalarType(const std::string &name);
/// Bytes of one element in memory.
int scalarTypeSize(ScalarType type);

struct ArgInfo {
  enum class Kind { View, Scalar };
  std::string name;
  Kind kind = Kind::Scalar;
  ScalarType type = ScalarType::i64; // element type for views
  int rank = 0;                      // views only
  int align = 16;                    // required pointer alignment (views)
};

struct KernelInfo {
  std::string name;   // the PTX entry point
  std::string target; // "sm_90a", "sm_80"
  int numWarps = 4;
  int sharedBytes = 0; // dynamic shared memory per block
  std::vector<ArgInfo> args;

  /// The number of .param entries the entry point takes.
  int numParams() const;
};

/// JSON text of `info` (one object), and its parse. Parse errors name the
/// offending key or position.
std::string toJson(const KernelInfo &info);
std::optional<KernelInfo> fromJson(const std::string &json,
                                   std::string *error = nullptr);

} // namespace tessera::rt

#endif // TESSERA_RUNTIME_KERNELINFO_H
