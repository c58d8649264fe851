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
// then, for each TmaInfo in `tma`, in order:
//   tensor map      -> .param .u64: the global address of a 128-byte
//                      CUtensorMap (64-byte aligned) that the runtime encodes
//                      at launch from the view argument `arg` (its pointer,
//                      sizes, strides and element type) and the entry's box
//                      and swizzle; out-of-bounds elements read as zero
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
  bool written = false;              // views: the kernel stores to it
};

/// A TMA (cp.async.bulk.tensor) tensor map over one view argument.
struct TmaInfo {
  int arg = 0;              // index into KernelInfo::args: a rank 1..5 view
  std::vector<int64_t> box; // tile shape in elements, outermost first
  int swizzle = 0;          // bytes: 0 (none), 32, 64 or 128
};

/// Tensor maps describe views of rank 1 to kMaxTmaRank, with boxes of 1 to
/// kMaxTmaBoxDim elements per dimension.
constexpr int kMaxTmaRank = 5;
constexpr int64_t kMaxTmaBoxDim = 256;

/// Empty when `tma` is valid for `args`: `arg` names a view of rank 1..5
/// and of an element type TMA copies (f16, bf16, f32, f64, i8, i16, i32,
/// i64), the box has one dimension per view dimension, each in [1, 256],
/// its innermost one a multiple of 16 bytes and, with a swizzle, at most the
/// swizzle span. Else what is wrong (not naming the kernel), and `field`
/// receives the offending field: "arg", "box", "box[i]" or "swizzle".
std::string checkTmaInfo(const TmaInfo &tma, const std::vector<ArgInfo> &args,
                         std::string *field = nullptr);

struct KernelInfo {
  std::string name;   // the PTX entry point
  std::string target; // "sm_90a", "sm_80"
  int numWarps = 4;
  int sharedBytes = 0; // dynamic shared memory per block
  std::vector<ArgInfo> args;
  std::vector<TmaInfo> tma; // one trailing .param .u64 each

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
