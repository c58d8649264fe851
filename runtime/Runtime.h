//===- Runtime.h - JIT loading and launching of tile kernels ----*- C++ -*-===//
//
// An MLIR-free runtime: libcuda.so.1 is opened with dlopen and its entry
// points taken with cuGetProcAddress, so every binary starts on a machine
// without a driver and reports "no CUDA driver" clearly. PTX is loaded with
// cuModuleLoadDataEx (JIT info and error logs kept), modules are cached by
// their PTX text (found again by the text's address and length, compared
// in full), and launches check their arguments against the
// kernel's KernelInfo before anything reaches the driver.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_RUNTIME_H
#define TESSERA_RUNTIME_RUNTIME_H

#include "runtime/KernelInfo.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace tessera::rt {

/// The outcome of a runtime call: ok, or a message that says what failed
/// and why (driver error names, JIT logs, the offending argument).
struct Status {
  bool ok = true;
  std::string message;
  static Status success() { return {}; }
  static Status error(std::string message) {
    return {false, std::move(message)};
  }
  explicit operator bool() const { return ok; }
};

/// A device pointer (CUdeviceptr) as an integer.
using DevicePtr = uint64_t;

/// A view argument: device pointer plus sizes and strides (elements).
struct ViewArg {
  DevicePtr data = 0;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
};

/// One kernel argument, matching one ArgInfo: a view, or a scalar given as
/// int64_t (index, i64, i32 — range-checked), or double (f32, f64).
using Arg = std::variant<ViewArg, int64_t, double>;

/// The flattened, typed .param values of one launch.
struct PackedArgs {
  std::vector<std::array<unsigned char, 8>> storage;
  std::vector<void *> pointers; // what cuLaunchKernel takes
};

/// Checks `args` against `info` (count, kinds, ranks, null and misaligned
/// pointers, negative sizes, i32 range, and the tensor map rules of
/// tensorMapArgs) and packs them into the .param layout of the ABI, ending
/// with `tmaAddresses`: the device addresses of the encoded tensor maps,
/// one per `info.tma` entry (Runtime::launch encodes and uploads them).
/// Needs no driver.
Status packArgs(const KernelInfo &info, const std::vector<Arg> &args,
                PackedArgs &packed,
                const std::vector<DevicePtr> &tmaAddresses = {});

/// The arguments of one cuTensorMapEncodeTiled call, in the driver's order
/// (innermost dimension first) and with its enum values.
struct TensorMapArgs {
  int dataType = 0; // CUtensorMapDataType
  int rank = 0;
  DevicePtr address = 0;
  std::array<uint64_t, 5> globalDim{};      // elements
  std::array<uint64_t, 4> globalStrides{};  // bytes, of dimensions 1..rank-1
  std::array<uint32_t, 5> boxDim{};         // elements
  std::array<uint32_t, 5> elementStrides{}; // all 1
  int interleave = 0;                       // CU_TENSOR_MAP_INTERLEAVE_NONE
  int swizzle = 0;     // CUtensorMapSwizzle: 0 none, 1 32B, 2 64B, 3 128B
  int l2Promotion = 3; // CU_TENSOR_MAP_L2_PROMOTION_L2_256B
  int oobFill = 0;     // CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE: zeros
};

/// Checks `args` as packArgs does, and the view of each `info.tma` entry
/// against what a tensor map can describe (innermost stride 1; other
/// strides non-negative, multiples of 16 bytes and below 2^40 bytes; pointer
/// non-null and 16-byte aligned; sizes in [1, 2^32)), and computes the
/// encode call of each entry, in `info.tma` order. Needs no driver.
Status tensorMapArgs(const KernelInfo &info, const std::vector<Arg> &args,
                     std::vector<TensorMapArgs> &out);

/// Checks a launch configuration against the hardware limits (grid x up to
/// 2^31 - 1, y and z up to 65535, at least 1 each; block up to 1024
/// threads; dynamic shared memory up to `maxSharedBytes`). Needs no driver.
Status checkLaunchConfig(const std::array<int64_t, 3> &grid, int numWarps,
                         int sharedBytes, int maxSharedBytes);

/// The CUDA driver, loaded on first use. All methods are thread-compatible
/// (not thread-safe); one Runtime per thread of control.
class Runtime {
public:
  /// Loads libcuda.so.1 (or $TESSERA_LIBCUDA when set, for tests), takes
  /// its entry points, initialises the driver and retains the primary
  /// context of `device`. Errors: no CUDA driver, no GPU, bad device.
  static Status create(std::unique_ptr<Runtime> &out, int device = 0);
  ~Runtime();

  /// Device name, compute capability and limits.
  std::string deviceName() const;
  int computeCapability() const; // e.g. 90
  int maxSharedBytesPerBlock() const;
  /// Streaming multiprocessors (0 when the driver does not say).
  int multiprocessors() const;

  /// Loads (or finds in the cache) the module of `ptx` and returns the
  /// function `info.name`. JIT failures return the driver's error log.
  /// `jitInfoLog`, when given, receives ptxas's info log (registers,
  /// spills).
  Status load(const std::string &ptx, const KernelInfo &info,
              std::string *jitInfoLog = nullptr);

  /// How many blocks of `info.name` (loaded from `ptx` on first use) run at
  /// once on one multiprocessor, with its registers, warps and shared
  /// memory (cuOccupancyMaxActiveBlocksPerMultiprocessor).
  Status blocksPerMultiprocessor(const std::string &ptx, const KernelInfo &info,
                                 int &blocks);

  /// Launches `info.name` (loaded from `ptx` on first use) on `grid`, after
  /// packing and checking `args`; raises the kernel's dynamic shared memory
  /// limit when it needs more than the default 48 KB. Encodes the tensor
  /// maps of `info.tma` (cuTensorMapEncodeTiled) and passes their device
  /// copies, which are cached by content: launching the same views again
  /// copies nothing. Synchronous when `sync` (errors of the kernel itself
  /// are then reported here).
  Status launch(const std::string &ptx, const KernelInfo &info,
                const std::array<int64_t, 3> &grid,
                const std::vector<Arg> &args, bool sync = true);

  /// Device memory.
  Status alloc(size_t bytes, DevicePtr &out);
  Status free(DevicePtr ptr);
  Status copyToDevice(DevicePtr dst, const void *src, size_t bytes);
  Status copyToHost(void *dst, DevicePtr src, size_t bytes);
  Status synchronize();

  /// Times `fn` (which launches work) with CUDA events: `warmup` untimed
  /// calls, then `iters` timed ones; returns each call's milliseconds.
  Status time(const std::function<Status()> &fn, int warmup, int iters,
              std::vector<double> &millis);

  /// Each kernel's share of a call, for benchmarks: from
  /// `startKernelTimes`, every launch is bracketed by two CUDA events
  /// (which add a little time between launches: time whole calls without
  /// them). At most 65536 launches are recorded; a launch past that fails.
  struct KernelTime {
    std::string name;
    int launches = 0;
    double millis = 0; // summed over its launches
  };
  Status startKernelTimes();
  /// Waits for the recorded launches and gives each kernel's launches and
  /// summed time, in the order the kernels first ran; recording stops.
  Status stopKernelTimes(std::vector<KernelTime> &out);

  /// The number of modules in the cache (for tests).
  size_t cachedModules() const;
  /// The number of tensor maps in device memory (for tests).
  size_t cachedTensorMaps() const;

  struct Impl;

private:
  explicit Runtime(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace tessera::rt

#endif // TESSERA_RUNTIME_RUNTIME_H
