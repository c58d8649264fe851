//===- Runtime.cpp - JIT loading and launching of tile kernels ------------===//
//
// libcuda.so.1 is opened with dlopen (or $TESSERA_LIBCUDA), cuGetProcAddress
// is taken with dlsym and every other entry point through it, so nothing
// here links against the driver or needs the CUDA toolkit to build.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runtime.h"

#include "runtime/CudaDriver.h"
#include "runtime/Ptx.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <limits>
#include <unordered_map>

namespace tessera::rt {

using namespace cuda;

//===----------------------------------------------------------------------===//
// Host-side checks (no driver needed)
//===----------------------------------------------------------------------===//

namespace {

std::string describeArg(const KernelInfo &info, size_t i) {
  const ArgInfo &arg = info.args[i];
  std::string s = "kernel '" + info.name + "', argument " + std::to_string(i) +
                  " '" + arg.name + "' (";
  if (arg.kind == ArgInfo::Kind::View)
    s += "rank-" + std::to_string(arg.rank) + " " + scalarTypeName(arg.type) +
         " view";
  else
    s += std::string(scalarTypeName(arg.type)) + " scalar";
  return s + ")";
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

/// Checks what packArgs and load rely on: a name, a sane warp count, and
/// argument descriptions the ABI defines.
Status validateInfo(const KernelInfo &info) {
  if (info.name.empty())
    return Status::error("KernelInfo has an empty kernel name");
  if (info.numWarps < 1 || info.numWarps > 32)
    return Status::error("kernel '" + info.name + "': num_warps " +
                         std::to_string(info.numWarps) +
                         " is out of range [1, 32]");
  if (info.sharedBytes < 0)
    return Status::error("kernel '" + info.name + "': negative shared_bytes " +
                         std::to_string(info.sharedBytes));
  for (size_t i = 0; i < info.args.size(); ++i) {
    const ArgInfo &arg = info.args[i];
    if (scalarTypeSize(arg.type) == 0)
      return Status::error(describeArg(info, i) + ": invalid element type");
    if (arg.kind == ArgInfo::Kind::View) {
      if (arg.rank < 0 || arg.rank > 64)
        return Status::error(describeArg(info, i) + ": invalid rank " +
                             std::to_string(arg.rank));
      if (arg.align <= 0 || (arg.align & (arg.align - 1)))
        return Status::error(describeArg(info, i) + ": invalid alignment " +
                             std::to_string(arg.align) +
                             " (must be a power of two)");
    } else if (arg.kind == ArgInfo::Kind::Scalar) {
      switch (arg.type) {
      case ScalarType::index:
      case ScalarType::i64:
      case ScalarType::i32:
      case ScalarType::f32:
      case ScalarType::f64:
        break;
      default:
        return Status::error(describeArg(info, i) +
                             ": scalar type not in the kernel ABI (index, "
                             "i64, i32, f32 or f64)");
      }
    } else {
      return Status::error(describeArg(info, i) + ": invalid argument kind");
    }
  }
  for (size_t t = 0; t < info.tma.size(); ++t) {
    std::string problem = checkTmaInfo(info.tma[t], info.args);
    if (!problem.empty())
      return Status::error("kernel '" + info.name + "': tensor map " +
                           std::to_string(t) + " (TMA): " + problem);
  }
  return Status::success();
}

const char *argKindName(const Arg &arg) {
  switch (arg.index()) {
  case 0:
    return "a view";
  case 1:
    return "an integer scalar";
  case 2:
    return "a floating-point scalar";
  }
  return "an empty argument";
}

using Slot = std::array<unsigned char, 8>;

template <typename T> void put(Slot &slot, T value) {
  static_assert(sizeof(T) <= 8);
  slot.fill(0);
  std::memcpy(slot.data(), &value, sizeof(T));
}

/// The CUtensorMapDataType of a view's element type; -1 when TMA has none.
int tensorMapDataType(ScalarType type) {
  switch (type) {
  case ScalarType::f16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case ScalarType::bf16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case ScalarType::f32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case ScalarType::f64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  // Integers are only copied, so signedness does not matter.
  case ScalarType::i8:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case ScalarType::i16:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case ScalarType::i32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case ScalarType::i64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  default:
    return -1;
  }
}

/// "kernel 'k': argument 'a' (TMA): "
std::string tmaPrefix(const KernelInfo &info, const TmaInfo &tma) {
  return "kernel '" + info.name + "': argument '" + info.args[tma.arg].name +
         "' (TMA): ";
}

/// Checks that `view` (already checked against its ArgInfo) is something a
/// tensor map can describe, and computes the encode call for `tma`: the
/// driver lists dimensions innermost first, the view outermost first.
Status computeTensorMap(const KernelInfo &info, const TmaInfo &tma,
                        const ViewArg &view, TensorMapArgs &out) {
  const ArgInfo &arg = info.args[tma.arg];
  const std::string what = tmaPrefix(info, tma);
  const int rank = arg.rank;
  const int64_t elem = scalarTypeSize(arg.type);
  constexpr int64_t kMaxStrideBytes = int64_t(1) << 40;
  if (view.data == 0)
    return Status::error(what + "null pointer");
  if (view.data % 16 != 0)
    return Status::error(what + "pointer " + hex(view.data) +
                         " is not 16-byte aligned");
  for (int d = 0; d < rank; ++d)
    if (view.sizes[d] < 1 || view.sizes[d] >= (int64_t(1) << 32))
      return Status::error(what + "size " + std::to_string(view.sizes[d]) +
                           " in dimension " + std::to_string(d) +
                           " is out of range: tensor maps need sizes in [1, "
                           "2^32)");
  if (view.strides[rank - 1] != 1)
    return Status::error(what + "innermost stride must be 1, got " +
                         std::to_string(view.strides[rank - 1]));
  for (int d = 0; d < rank - 1; ++d) {
    int64_t stride = view.strides[d];
    std::string which = "stride " + std::to_string(stride) + " in dimension " +
                        std::to_string(d);
    if (stride < 0)
      return Status::error(what + which + " is negative");
    if (stride >= kMaxStrideBytes / elem)
      return Status::error(what + which + " (of " + std::to_string(elem) +
                           "-byte elements) is 2^40 bytes or more");
    if (stride * elem % 16 != 0)
      return Status::error(what + which + " is " +
                           std::to_string(stride * elem) +
                           " bytes, not a multiple of 16");
  }

  out = TensorMapArgs();
  out.dataType = tensorMapDataType(arg.type);
  out.rank = rank;
  out.address = view.data;
  for (int i = 0; i < rank; ++i) {
    int d = rank - 1 - i;
    out.globalDim[i] = static_cast<uint64_t>(view.sizes[d]);
    out.boxDim[i] = static_cast<uint32_t>(tma.box[d]);
    out.elementStrides[i] = 1;
    if (i > 0)
      out.globalStrides[i - 1] = static_cast<uint64_t>(view.strides[d] * elem);
  }
  out.interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  out.swizzle = tma.swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                : tma.swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                : tma.swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                    : CU_TENSOR_MAP_SWIZZLE_NONE;
  out.l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  out.oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  return Status::success();
}

void finishPacking(PackedArgs &packed, std::vector<Slot> storage) {
  // The storage is complete before any pointer into it is taken.
  packed.storage = std::move(storage);
  packed.pointers.reserve(packed.storage.size());
  for (auto &slot : packed.storage)
    packed.pointers.push_back(slot.data());
}

/// The bytes [first, last) a view's elements span (strides in elements,
/// any sign); empty when a size is 0.
struct ByteSpan {
  uint64_t first = 0, last = 0;
};
ByteSpan spanOf(const ViewArg &view, ScalarType type) {
  const int64_t bytes = scalarTypeSize(type);
  int64_t low = 0, high = 0;
  for (size_t d = 0; d < view.sizes.size(); ++d) {
    if (view.sizes[d] == 0)
      return {};
    const int64_t reach = (view.sizes[d] - 1) * view.strides[d];
    (reach < 0 ? low : high) += reach;
  }
  return {view.data + uint64_t(low * bytes),
          view.data + uint64_t((high + 1) * bytes)};
}

/// Whether two elements of `view` may share an address: with the
/// dimensions of more than one element ordered by |stride|, each stride
/// must pass the reach of the smaller ones (stride 0 never does).
bool overlapsItself(const ViewArg &view) {
  std::vector<std::pair<int64_t, int64_t>> dims; // |stride|, size
  for (size_t d = 0; d < view.sizes.size(); ++d)
    if (view.sizes[d] > 1)
      dims.push_back({view.strides[d] < 0 ? -view.strides[d] : view.strides[d],
                      view.sizes[d]});
  std::sort(dims.begin(), dims.end());
  int64_t reach = 0; // of the dimensions so far, in elements
  for (auto [stride, size] : dims) {
    if (stride <= reach)
      return true;
    reach += (size - 1) * stride;
  }
  return false;
}

/// A view the kernel writes must not overlap another view argument: the
/// compiler reorders and prefetches loads assuming distinct views do not
/// alias, so an overlap would silently give a wrong answer. (Conservative:
/// the byte ranges the views span, which interleaved views share.) Nor
/// itself: tile-order-global-memory orders a program's accesses to one
/// view by its tiles, which must then be its elements' addresses.
Status checkNoAliasing(const KernelInfo &info, const std::vector<Arg> &args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const auto *a = std::get_if<ViewArg>(&args[i]);
    if (!a || !info.args[i].written)
      continue;
    if (overlapsItself(*a))
      return Status::error(describeArg(info, i) +
                           " (written by the kernel) maps two elements to one "
                           "address (a zero or overlapping stride); views a "
                           "kernel writes must not overlap themselves");
    const ByteSpan sa = spanOf(*a, info.args[i].type);
    for (size_t j = 0; j < args.size(); ++j) {
      const auto *b = std::get_if<ViewArg>(&args[j]);
      if (j == i || !b)
        continue;
      const ByteSpan sb = spanOf(*b, info.args[j].type);
      if (sa.first < sa.last && sb.first < sb.last && sa.first < sb.last &&
          sb.first < sa.last)
        return Status::error(
            describeArg(info, i) + " (written by the kernel) overlaps " +
            describeArg(info, j) + ": bytes [" + hex(sa.first) + ", " +
            hex(sa.last) + ") and [" + hex(sb.first) + ", " + hex(sb.last) +
            "); views a kernel writes must not alias its other arguments");
    }
  }
  return Status::success();
}

/// Checks `args` and packs their regular .params into `storage`; computes
/// the encode call of each tensor map into `maps`.
Status checkAndPack(const KernelInfo &info, const std::vector<Arg> &args,
                    std::vector<Slot> &storage,
                    std::vector<TensorMapArgs> &maps) {
  storage.clear();
  maps.clear();
  if (Status s = validateInfo(info); !s)
    return s;
  if (args.size() != info.args.size()) {
    std::string names;
    for (const ArgInfo &a : info.args)
      names += (names.empty() ? "" : ", ") + a.name;
    return Status::error("kernel '" + info.name + "' takes " +
                         std::to_string(info.args.size()) + " arguments (" +
                         names + "), got " + std::to_string(args.size()));
  }

  storage.reserve(info.numParams());
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgInfo &want = info.args[i];
    const Arg &arg = args[i];
    if (want.kind == ArgInfo::Kind::View) {
      const ViewArg *view = std::get_if<ViewArg>(&arg);
      if (!view)
        return Status::error(describeArg(info, i) + ": expected a view, got " +
                             argKindName(arg));
      if (view->sizes.size() != static_cast<size_t>(want.rank) ||
          view->strides.size() != static_cast<size_t>(want.rank))
        return Status::error(
            describeArg(info, i) + ": view rank mismatch: expected rank " +
            std::to_string(want.rank) + ", got " +
            std::to_string(view->sizes.size()) + " sizes and " +
            std::to_string(view->strides.size()) + " strides");
      if (view->data == 0)
        return Status::error(describeArg(info, i) + ": null pointer");
      if (view->data % static_cast<uint64_t>(want.align) != 0)
        return Status::error(describeArg(info, i) + ": pointer " +
                             hex(view->data) + " is misaligned: the kernel " +
                             "requires " + std::to_string(want.align) +
                             "-byte alignment");
      for (size_t d = 0; d < view->sizes.size(); ++d)
        if (view->sizes[d] < 0)
          return Status::error(describeArg(info, i) + ": negative size " +
                               std::to_string(view->sizes[d]) +
                               " in dimension " + std::to_string(d));
      storage.emplace_back();
      put<uint64_t>(storage.back(), view->data);
      for (int64_t size : view->sizes) {
        storage.emplace_back();
        put<int64_t>(storage.back(), size);
      }
      for (int64_t stride : view->strides) {
        storage.emplace_back();
        put<int64_t>(storage.back(), stride);
      }
      continue;
    }

    // Scalars.
    const int64_t *integer = std::get_if<int64_t>(&arg);
    const double *real = std::get_if<double>(&arg);
    storage.emplace_back();
    auto &slot = storage.back();
    switch (want.type) {
    case ScalarType::index:
    case ScalarType::i64:
    case ScalarType::i32:
      if (!integer)
        return Status::error(describeArg(info, i) +
                             ": expected an integer scalar, got " +
                             argKindName(arg));
      if (want.type == ScalarType::i32) {
        if (*integer < std::numeric_limits<int32_t>::min() ||
            *integer > std::numeric_limits<int32_t>::max())
          return Status::error(describeArg(info, i) + ": value " +
                               std::to_string(*integer) +
                               " is out of the i32 range [-2147483648, "
                               "2147483647]");
        put<int32_t>(slot, static_cast<int32_t>(*integer));
      } else {
        put<int64_t>(slot, *integer);
      }
      break;
    case ScalarType::f32:
    case ScalarType::f64: {
      // Floating-point parameters take doubles, and integers (converted).
      if (!real && !integer)
        return Status::error(describeArg(info, i) +
                             ": expected a floating-point scalar, got " +
                             argKindName(arg));
      double v = real ? *real : static_cast<double>(*integer);
      if (want.type == ScalarType::f32) {
        if (std::isfinite(v) && std::fabs(v) > FLT_MAX)
          return Status::error(describeArg(info, i) + ": value " +
                               std::to_string(v) + " overflows f32");
        put<float>(slot, static_cast<float>(v));
      } else {
        put<double>(slot, v);
      }
      break;
    }
    default:
      return Status::error(describeArg(info, i) +
                           ": scalar type not in the kernel ABI");
    }
  }

  if (Status s = checkNoAliasing(info, args); !s)
    return s;
  std::vector<TensorMapArgs> computed(info.tma.size());
  for (size_t t = 0; t < info.tma.size(); ++t) {
    const TmaInfo &tma = info.tma[t];
    if (Status s = computeTensorMap(info, tma, std::get<ViewArg>(args[tma.arg]),
                                    computed[t]);
        !s)
      return s;
  }
  maps = std::move(computed);
  return Status::success();
}
} // namespace

Status packArgs(const KernelInfo &info, const std::vector<Arg> &args,
                PackedArgs &packed,
                const std::vector<DevicePtr> &tmaAddresses) {
  packed.storage.clear();
  packed.pointers.clear();
  std::vector<Slot> storage;
  std::vector<TensorMapArgs> maps;
  if (Status s = checkAndPack(info, args, storage, maps); !s)
    return s;
  if (tmaAddresses.size() != info.tma.size())
    return Status::error(
        "kernel '" + info.name + "' has " + std::to_string(info.tma.size()) +
        " tensor maps (TMA), but " + std::to_string(tmaAddresses.size()) +
        " tensor map addresses were given");
  for (size_t t = 0; t < tmaAddresses.size(); ++t) {
    if (tmaAddresses[t] == 0 || tmaAddresses[t] % 64 != 0)
      return Status::error(
          tmaPrefix(info, info.tma[t]) + "tensor map " + std::to_string(t) +
          " address " + hex(tmaAddresses[t]) +
          (tmaAddresses[t] == 0 ? " is null" : " is not 64-byte aligned"));
    storage.emplace_back();
    put<uint64_t>(storage.back(), tmaAddresses[t]);
  }
  finishPacking(packed, std::move(storage));
  return Status::success();
}

Status tensorMapArgs(const KernelInfo &info, const std::vector<Arg> &args,
                     std::vector<TensorMapArgs> &out) {
  out.clear();
  std::vector<Slot> storage;
  return checkAndPack(info, args, storage, out);
}

Status checkLaunchConfig(const std::array<int64_t, 3> &grid, int numWarps,
                         int sharedBytes, int maxSharedBytes) {
  static const char *kAxis[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    int64_t limit = d == 0 ? (int64_t(1) << 31) - 1 : 65535;
    if (grid[d] < 1 || grid[d] > limit)
      return Status::error("grid." + std::string(kAxis[d]) + " = " +
                           std::to_string(grid[d]) +
                           " is out of range: grid dimension " + kAxis[d] +
                           " must be in [1, " + std::to_string(limit) + "]");
  }
  if (numWarps < 1 || numWarps > 32)
    return Status::error("block size of " + std::to_string(numWarps) +
                         " warps (" + std::to_string(int64_t(numWarps) * 32) +
                         " threads) is out of range: 1 to 32 warps (at most "
                         "1024 threads per block)");
  if (sharedBytes < 0)
    return Status::error("negative dynamic shared memory size " +
                         std::to_string(sharedBytes));
  if (sharedBytes > maxSharedBytes)
    return Status::error(
        "dynamic shared memory of " + std::to_string(sharedBytes) +
        " bytes exceeds the device limit of " +
        std::to_string(std::max(maxSharedBytes, 0)) + " bytes per block");
  return Status::success();
}

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

namespace {
/// Errors after which the context is unusable.
bool isStickyError(CUresult r) {
  switch (r) {
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
    return true;
  default:
    return false;
  }
}

constexpr int kDefaultSharedLimit = 48 * 1024;
constexpr size_t kJitLogBytes = 64 * 1024;
/// Tensor maps kept in device memory before the cache starts over.
constexpr size_t kMaxCachedTensorMaps = 4096;
// Launches startKernelTimes records (two events each) before launch fails.
constexpr size_t kMaxTimedLaunches = 65536;

/// The bytes of an encode call's arguments: a cache key.
std::string tensorMapKey(const TensorMapArgs &a) {
  std::string key;
  auto add = [&](const auto &v) {
    key.append(reinterpret_cast<const char *>(&v), sizeof v);
  };
  add(a.dataType);
  add(a.rank);
  add(a.address);
  add(a.globalDim);
  add(a.globalStrides);
  add(a.boxDim);
  add(a.elementStrides);
  add(a.interleave);
  add(a.swizzle);
  add(a.l2Promotion);
  add(a.oobFill);
  return key;
}

/// "data type 9, rank 2, ..., globalDim [64 100], ..." for error messages.
std::string describeTensorMap(const TensorMapArgs &a) {
  auto list = [&](const auto &values, int n) {
    std::string out = "[";
    for (int i = 0; i < n; ++i)
      out += (i ? " " : "") + std::to_string(values[i]);
    return out + "]";
  };
  return "data type " + std::to_string(a.dataType) + ", rank " +
         std::to_string(a.rank) + ", address " + hex(a.address) +
         ", globalDim " + list(a.globalDim, a.rank) + ", globalStrides " +
         list(a.globalStrides, std::max(a.rank - 1, 0)) + ", boxDim " +
         list(a.boxDim, a.rank) + ", swizzle " + std::to_string(a.swizzle) +
         "; innermost dimension first";
}
} // namespace

struct Runtime::Impl {
  struct Function {
    CUfunction fn = nullptr;
    int staticShared = 0;
    int maxThreads = 1024;
    int numRegs = 0;
    int dynamicSharedLimit = kDefaultSharedLimit; // as set on the function
    const detail::PtxEntry *entry = nullptr;      // its .params, when known
  };
  struct Module {
    std::string ptx;
    CUmodule module = nullptr;
    std::string infoLog;
    detail::PtxSummary summary;
    std::unordered_map<std::string, Function> functions;
  };

  void *lib = nullptr;
  bool driverInitialized = false; // after cuInit the library stays loaded
  std::string libPath;
  Driver d;
  int driverVersion = 0;
  CUdevice device = 0;
  CUcontext context = nullptr;
  bool retained = false;
  std::string name;
  int cc = 0;
  int maxShared = kDefaultSharedLimit;
  int multiprocessors = 0;
  std::vector<std::unique_ptr<Module>> modules; // loaded, this device's
  // The modules by the address of the PTX text they were last asked for
  // with, and by its length: a kernel library passes the same string on
  // every launch, so one comparison of the text finds its module, however
  // the launches alternate between modules. (Hashing the text, a quarter
  // to three quarters of a megabyte for the SSD and conv modules, took
  // longer than the kernels of a call that alternated two modules.)
  std::unordered_map<const char *, Module *> byText;
  std::unordered_multimap<size_t, Module *> bySize;
  // Device copies of encoded tensor maps, by their 128 bytes; and the same
  // copies by the arguments that encoded them, so that a repeated launch
  // neither encodes nor copies.
  std::unordered_map<std::string, DevicePtr> tensorMaps;
  std::unordered_map<std::string, DevicePtr> tensorMapsByArgs;
  // startKernelTimes: the events around each launch since, by kernel name.
  struct TimedLaunch {
    std::string name;
    CUevent start = nullptr, end = nullptr;
  };
  bool recordKernelTimes = false;
  std::vector<TimedLaunch> timedLaunches;

  void destroyEvents(const TimedLaunch &t) {
    for (CUevent e : {t.start, t.end})
      if (e && d.cuEventDestroy)
        d.cuEventDestroy(e);
  }
  void dropLastTimedLaunch() {
    destroyEvents(timedLaunches.back());
    timedLaunches.pop_back();
  }
  void destroyTimedLaunches() {
    for (const TimedLaunch &t : timedLaunches)
      destroyEvents(t);
    timedLaunches.clear();
  }

  ~Impl() {
    if (retained) {
      if (d.cuCtxSetCurrent)
        d.cuCtxSetCurrent(context);
      destroyTimedLaunches();
      if (d.cuMemFree)
        for (auto &[bytes, ptr] : tensorMaps)
          d.cuMemFree(ptr);
      for (auto &m : modules)
        if (m->module && d.cuModuleUnload)
          d.cuModuleUnload(m->module);
      if (d.cuCtxSetCurrent)
        d.cuCtxSetCurrent(nullptr);
      if (d.cuDevicePrimaryCtxRelease)
        d.cuDevicePrimaryCtxRelease(device);
    }
    // Unloading a driver that has been initialised is not safe (its threads
    // and atexit handlers); only a library that never got that far goes.
    if (lib && !driverInitialized)
      dlclose(lib);
  }

  /// "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)".
  std::string errorText(CUresult r) const {
    const char *errName = nullptr, *errString = nullptr;
    if (d.cuGetErrorName && d.cuGetErrorName(r, &errName) != CUDA_SUCCESS)
      errName = nullptr;
    if (d.cuGetErrorString && d.cuGetErrorString(r, &errString) != CUDA_SUCCESS)
      errString = nullptr;
    std::string s = errName ? errName : "CUDA error " + std::to_string(r);
    if (errString)
      s += std::string(" (") + errString + ")";
    if (isStickyError(r))
      s += "; the CUDA context is now unusable and every later call in this "
           "process fails (run under compute-sanitizer to find the fault)";
    return s;
  }

  Status check(CUresult r, const std::string &what) const {
    if (r == CUDA_SUCCESS)
      return Status::success();
    return Status::error(what + " failed: " + errorText(r));
  }

  Status activate() const {
    return check(d.cuCtxSetCurrent(context), "cuCtxSetCurrent");
  }

  Status open(int requested);
  Status tensorMapAddress(const KernelInfo &info, const TmaInfo &tma,
                          const TensorMapArgs &args, DevicePtr &out);
  Status dropTensorMaps();
  Status getModule(const std::string &ptx, Module *&out, std::string *infoLog);
  /// Raises the function's dynamic shared memory limit to what `info`
  /// launches with, when that is above the default 48 KB.
  Status raiseSharedLimit(Function &f, const KernelInfo &info);
  Status getFunction(const std::string &ptx, const KernelInfo &info,
                     Function *&out, std::string *infoLog);
  std::string jitHint(const detail::PtxSummary &summary, CUresult r) const;
};

Status Runtime::Impl::open(int requested) {
  const char *env = std::getenv("TESSERA_LIBCUDA");
  libPath = env && *env ? env : "libcuda.so.1";
  dlerror();
  lib = dlopen(libPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    return Status::error("no CUDA driver: cannot load " + libPath + " (" +
                         (why ? why : "unknown dlopen error") +
                         "); install the NVIDIA driver, or set "
                         "TESSERA_LIBCUDA to the path of libcuda.so.1");
  }

  PFN_cuGetProcAddress_v2 gpa2 = reinterpret_cast<PFN_cuGetProcAddress_v2>(
      dlsym(lib, "cuGetProcAddress_v2"));
  PFN_cuGetProcAddress_v1 gpa1 = nullptr;
  if (!gpa2)
    gpa1 = reinterpret_cast<PFN_cuGetProcAddress_v1>(
        dlsym(lib, "cuGetProcAddress"));
  if (!gpa2 && !gpa1)
    return Status::error("no CUDA driver: " + libPath +
                         " exports neither cuGetProcAddress_v2 nor "
                         "cuGetProcAddress (not a CUDA driver, or one older "
                         "than CUDA 11.3)");

  auto resolve = [&](const char *symbol, void **fn) -> std::string {
    *fn = nullptr;
    CUresult r;
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SUCCESS;
    if (gpa2)
      r = gpa2(symbol, fn, kCudaVersion, CU_GET_PROC_ADDRESS_DEFAULT, &found);
    else
      r = gpa1(symbol, fn, kCudaVersion, CU_GET_PROC_ADDRESS_DEFAULT);
    if (r == CUDA_SUCCESS && found == CU_GET_PROC_ADDRESS_SUCCESS && *fn)
      return "";
    *fn = nullptr;
    if (r == CUDA_ERROR_STUB_LIBRARY)
      return "no CUDA driver: " + libPath +
             " is the CUDA toolkit's stub library, not a driver "
             "(cuGetProcAddress returned CUDA_ERROR_STUB_LIBRARY)";
    std::string why = found == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                          ? "the driver is older than CUDA 12.0"
                      : found == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND
                          ? "symbol not found"
                          : "cuGetProcAddress "
                            "returned " +
                                std::to_string(r);
    return std::string("the CUDA driver ") + libPath + " has no " + symbol +
           " for CUDA 12.0 (" + why + ")";
  };
#define TESSERA_RESOLVE(fname)                                                 \
  if (std::string why = resolve(#fname, reinterpret_cast<void **>(&d.fname));  \
      !why.empty())                                                            \
    return Status::error(why);
  TESSERA_CUDA_ENTRY_POINTS(TESSERA_RESOLVE)
#undef TESSERA_RESOLVE
  // Optional: left null when missing, reported by the launch that needs it.
#define TESSERA_RESOLVE_OPTIONAL(fname)                                        \
  resolve(#fname, reinterpret_cast<void **>(&d.fname));
  TESSERA_CUDA_OPTIONAL_ENTRY_POINTS(TESSERA_RESOLVE_OPTIONAL)
#undef TESSERA_RESOLVE_OPTIONAL

  driverInitialized = true;
  CUresult r = d.cuInit(0);
  if (r == CUDA_ERROR_STUB_LIBRARY)
    return Status::error("no CUDA driver: " + libPath +
                         " is the CUDA toolkit's stub library, not a driver (" +
                         errorText(r) + ")");
  if (r == CUDA_ERROR_NO_DEVICE)
    return Status::error("no CUDA GPU: cuInit reports " + errorText(r));
  if (r != CUDA_SUCCESS)
    return Status::error("the CUDA driver failed to initialise: cuInit: " +
                         errorText(r));

  if (Status s =
          check(d.cuDriverGetVersion(&driverVersion), "cuDriverGetVersion");
      !s)
    return s;

  int count = 0;
  if (Status s = check(d.cuDeviceGetCount(&count), "cuDeviceGetCount"); !s)
    return s;
  if (count <= 0)
    return Status::error("no CUDA GPU: the CUDA driver (" + libPath +
                         ") sees no devices");
  if (requested < 0 || requested >= count)
    return Status::error("bad device ordinal " + std::to_string(requested) +
                         ": this machine " + "has " + std::to_string(count) +
                         " CUDA device" + (count == 1 ? "" : "s") +
                         " (valid ordinals 0 to " + std::to_string(count - 1) +
                         ")");
  if (Status s = check(d.cuDeviceGet(&device, requested),
                       "cuDeviceGet(" + std::to_string(requested) + ")");
      !s)
    return s;

  char buf[256] = {};
  if (Status s = check(d.cuDeviceGetName(buf, sizeof buf - 1, device),
                       "cuDeviceGetName");
      !s)
    return s;
  name = buf;
  int major = 0, minor = 0, optin = 0, plain = 0;
  if (Status s = check(
          d.cuDeviceGetAttribute(
              &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
          "cuDeviceGetAttribute(compute capability)");
      !s)
    return s;
  if (Status s = check(
          d.cuDeviceGetAttribute(
              &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
          "cuDeviceGetAttribute(compute capability)");
      !s)
    return s;
  cc = major * 10 + minor;
  if (d.cuDeviceGetAttribute(&plain,
                             CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
                             device) != CUDA_SUCCESS)
    plain = kDefaultSharedLimit;
  if (d.cuDeviceGetAttribute(
          &optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
          device) != CUDA_SUCCESS)
    optin = 0;
  maxShared = std::max(plain, optin);
  if (d.cuDeviceGetAttribute(&multiprocessors,
                             CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                             device) != CUDA_SUCCESS)
    multiprocessors = 0;

  if (Status s = check(d.cuDevicePrimaryCtxRetain(&context, device),
                       "cuDevicePrimaryCtxRetain");
      !s)
    return s;
  retained = true;
  return activate();
}

std::string Runtime::Impl::jitHint(const detail::PtxSummary &summary,
                                   CUresult r) const {
  std::string hint;
  int arch = 0;
  std::string suffix;
  std::string thisDevice = name + " (sm_" + std::to_string(cc) + ")";
  if (detail::parseSmTarget(summary.target, arch, suffix)) {
    if (!suffix.empty() && arch != cc)
      hint += "\nnote: the PTX targets " + summary.target +
              ", whose architecture-specific features run only on "
              "compute capability " +
              std::to_string(arch / 10) + "." + std::to_string(arch % 10) +
              "; this device is " + thisDevice;
    else if (arch > cc)
      hint += "\nnote: the PTX targets " + summary.target +
              ", newer than this device (" + thisDevice + ")";
  }
  if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
    hint += "\nnote: the PTX is ISA version " +
            (summary.version.empty() ? std::string("?") : summary.version) +
            ", newer than this driver (CUDA " +
            std::to_string(driverVersion / 1000) + "." +
            std::to_string(driverVersion % 1000 / 10) + ") supports";
  return hint;
}

Status Runtime::Impl::getModule(const std::string &ptx, Module *&out,
                                std::string *infoLog) {
  if (ptx.empty())
    return Status::error("empty PTX");
  auto sameText = [&](const Module *m) {
    return m->ptx.size() == ptx.size() &&
           std::memcmp(m->ptx.data(), ptx.data(), ptx.size()) == 0;
  };
  out = nullptr;
  if (auto it = byText.find(ptx.data());
      it != byText.end() && sameText(it->second))
    out = it->second;
  if (!out) {
    if (ptx.find('\0') != std::string::npos)
      return Status::error("the PTX text contains a NUL byte");
    for (auto [it, end] = bySize.equal_range(ptx.size()); it != end; ++it)
      if (sameText(it->second)) {
        out = it->second;
        break;
      }
  }
  if (!out) {
    auto m = std::make_unique<Module>();
    m->summary = detail::summarizePtx(ptx);
    std::vector<char> infoBuf(kJitLogBytes, 0), errorBuf(kJitLogBytes, 0);
    CUjit_option options[] = {
        CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
        CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        CU_JIT_LOG_VERBOSE};
    void *values[] = {
        infoBuf.data(), reinterpret_cast<void *>(uintptr_t(kJitLogBytes - 1)),
        errorBuf.data(), reinterpret_cast<void *>(uintptr_t(kJitLogBytes - 1)),
        reinterpret_cast<void *>(uintptr_t(1))};
    CUresult r = d.cuModuleLoadDataEx(&m->module, ptx.c_str(),
                                      sizeof options / sizeof options[0],
                                      options, values);
    std::string errorLog(errorBuf.data(),
                         strnlen(errorBuf.data(), kJitLogBytes));
    m->infoLog.assign(infoBuf.data(), strnlen(infoBuf.data(), kJitLogBytes));
    while (!errorLog.empty() &&
           (errorLog.back() == '\n' || errorLog.back() == ' '))
      errorLog.pop_back();
    if (r != CUDA_SUCCESS) {
      if (infoLog)
        *infoLog = m->infoLog;
      std::string target =
          m->summary.target.empty() ? "no .target" : m->summary.target;
      return Status::error(
          "JIT compilation of the PTX (" + target +
          ", entries: " + m->summary.entryNames() + ") for " + name + " (sm_" +
          std::to_string(cc) + ") failed: cuModuleLoadDataEx: " + errorText(r) +
          "\nJIT error log:\n" +
          (errorLog.empty() ? std::string("(empty)") : errorLog) +
          jitHint(m->summary, r));
    }
    m->ptx = ptx;
    out = m.get();
    bySize.emplace(ptx.size(), out);
    modules.push_back(std::move(m));
  }
  // Addresses of strings long gone stay until the map is cleared; the
  // comparison above never trusts them.
  if (byText.size() >= 4096)
    byText.clear();
  byText[ptx.data()] = out;
  if (infoLog)
    *infoLog = out->infoLog;
  return Status::success();
}

Status Runtime::Impl::getFunction(const std::string &ptx,
                                  const KernelInfo &info, Function *&out,
                                  std::string *infoLog) {
  if (Status s = validateInfo(info); !s)
    return s;
  Module *m = nullptr;
  if (Status s = getModule(ptx, m, infoLog); !s)
    return s;
  auto it = m->functions.find(info.name);
  if (it == m->functions.end()) {
    Function f;
    CUresult r = d.cuModuleGetFunction(&f.fn, m->module, info.name.c_str());
    if (r == CUDA_ERROR_NOT_FOUND)
      return Status::error("kernel '" + info.name +
                           "' not found in the PTX module (its entry points: " +
                           m->summary.entryNames() + ")");
    if (Status s = check(r, "cuModuleGetFunction('" + info.name + "')"); !s)
      return s;
    if (d.cuFuncGetAttribute(&f.staticShared,
                             CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                             f.fn) != CUDA_SUCCESS)
      f.staticShared = 0;
    if (d.cuFuncGetAttribute(&f.maxThreads,
                             CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                             f.fn) != CUDA_SUCCESS)
      f.maxThreads = 1024;
    if (d.cuFuncGetAttribute(&f.numRegs, CU_FUNC_ATTRIBUTE_NUM_REGS, f.fn) !=
        CUDA_SUCCESS)
      f.numRegs = 0;
    f.entry = m->summary.find(info.name);
    it = m->functions.emplace(info.name, f).first;
  }
  // Checked on every call: the same entry may come with another KernelInfo.
  if (it->second.entry) {
    std::string mismatch = detail::checkParamsMatch(info, *it->second.entry);
    if (!mismatch.empty())
      return Status::error(mismatch);
  }
  out = &it->second;
  return Status::success();
}

Status Runtime::Impl::tensorMapAddress(const KernelInfo &info,
                                       const TmaInfo &tma,
                                       const TensorMapArgs &args,
                                       DevicePtr &out) {
  out = 0;
  std::string argsKey = tensorMapKey(args);
  if (auto it = tensorMapsByArgs.find(argsKey); it != tensorMapsByArgs.end()) {
    out = it->second;
    return Status::success();
  }
  std::string what = tmaPrefix(info, tma);
  if (!d.cuTensorMapEncodeTiled)
    return Status::error(what + "the CUDA driver " + libPath +
                         " has no cuTensorMapEncodeTiled (tensor maps need a "
                         "CUDA 12.0 driver or newer)");
  CUtensorMap map{}; // zeroed, so that equal maps have equal bytes
  CUresult r = d.cuTensorMapEncodeTiled(
      &map, static_cast<CUtensorMapDataType>(args.dataType),
      static_cast<cuuint32_t>(args.rank),
      reinterpret_cast<void *>(static_cast<uintptr_t>(args.address)),
      args.globalDim.data(), args.globalStrides.data(), args.boxDim.data(),
      args.elementStrides.data(),
      static_cast<CUtensorMapInterleave>(args.interleave),
      static_cast<CUtensorMapSwizzle>(args.swizzle),
      static_cast<CUtensorMapL2promotion>(args.l2Promotion),
      static_cast<CUtensorMapFloatOOBfill>(args.oobFill));
  if (r != CUDA_SUCCESS)
    return Status::error(what + "cuTensorMapEncodeTiled (" +
                         describeTensorMap(args) + ") failed: " + errorText(r));

  std::string bytes(reinterpret_cast<const char *>(&map), sizeof map);
  auto it = tensorMaps.find(bytes);
  if (it == tensorMaps.end()) {
    CUdeviceptr p = 0;
    // cuMemAlloc aligns to at least 256 bytes; the kernel needs 64.
    if (Status s = check(d.cuMemAlloc(&p, sizeof map),
                         what + "cuMemAlloc of a tensor map");
        !s)
      return s;
    if (Status s = check(d.cuMemcpyHtoD(p, &map, sizeof map),
                         what + "cuMemcpyHtoD of a tensor map to " + hex(p));
        !s) {
      d.cuMemFree(p);
      return s;
    }
    it = tensorMaps.emplace(std::move(bytes), p).first;
  }
  tensorMapsByArgs.emplace(std::move(argsKey), it->second);
  out = it->second;
  return Status::success();
}

Status Runtime::Impl::dropTensorMaps() {
  // Launches still in flight may read them.
  if (Status s = check(d.cuCtxSynchronize(),
                       "cuCtxSynchronize (before freeing cached tensor maps)");
      !s)
    return s;
  for (auto &[bytes, ptr] : tensorMaps)
    d.cuMemFree(ptr);
  tensorMaps.clear();
  tensorMapsByArgs.clear();
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Runtime
//===----------------------------------------------------------------------===//

Runtime::Runtime(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Runtime::~Runtime() = default;

Status Runtime::create(std::unique_ptr<Runtime> &out, int device) {
  out.reset();
  auto impl = std::make_unique<Impl>();
  if (Status s = impl->open(device); !s)
    return s;
  out.reset(new Runtime(std::move(impl)));
  return Status::success();
}

std::string Runtime::deviceName() const { return impl_->name; }
int Runtime::computeCapability() const { return impl_->cc; }
int Runtime::maxSharedBytesPerBlock() const { return impl_->maxShared; }
int Runtime::multiprocessors() const { return impl_->multiprocessors; }

Status Runtime::load(const std::string &ptx, const KernelInfo &info,
                     std::string *jitInfoLog) {
  if (Status s = impl_->activate(); !s)
    return s;
  Impl::Function *f = nullptr;
  return impl_->getFunction(ptx, info, f, jitInfoLog);
}

Status Runtime::Impl::raiseSharedLimit(Function &f, const KernelInfo &info) {
  if (info.sharedBytes + f.staticShared <= kDefaultSharedLimit ||
      f.dynamicSharedLimit >= info.sharedBytes)
    return Status::success();
  if (Status s =
          check(d.cuFuncSetAttribute(
                    f.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    info.sharedBytes),
                "kernel '" + info.name +
                    "': cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
                    std::to_string(info.sharedBytes) + ")");
      !s)
    return s;
  f.dynamicSharedLimit = info.sharedBytes;
  return Status::success();
}

Status Runtime::blocksPerMultiprocessor(const std::string &ptx,
                                        const KernelInfo &info, int &blocks) {
  blocks = 0;
  Impl &im = *impl_;
  if (!im.d.cuOccupancyMaxActiveBlocksPerMultiprocessor)
    return Status::error("this CUDA driver has no "
                         "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  if (Status s = im.activate(); !s)
    return s;
  Impl::Function *f = nullptr;
  if (Status s = im.getFunction(ptx, info, f, nullptr); !s)
    return s;
  if (Status s = im.raiseSharedLimit(*f, info); !s)
    return s;
  return im.check(
      im.d.cuOccupancyMaxActiveBlocksPerMultiprocessor(
          &blocks, f->fn, info.numWarps * 32, size_t(info.sharedBytes)),
      "kernel '" + info.name +
          "': cuOccupancyMaxActiveBlocksPerMultiprocessor");
}

Status Runtime::launch(const std::string &ptx, const KernelInfo &info,
                       const std::array<int64_t, 3> &grid,
                       const std::vector<Arg> &args, bool sync) {
  Impl &im = *impl_;
  if (Status s = im.activate(); !s)
    return s;
  std::vector<Slot> storage;
  std::vector<TensorMapArgs> maps;
  if (Status s = checkAndPack(info, args, storage, maps); !s)
    return s;
  Impl::Function *f = nullptr;
  if (Status s = im.getFunction(ptx, info, f, nullptr); !s)
    return s;

  int maxDynamic = std::max(0, im.maxShared - f->staticShared);
  if (Status s =
          checkLaunchConfig(grid, info.numWarps, info.sharedBytes, maxDynamic);
      !s)
    return Status::error(
        "kernel '" + info.name + "': " + s.message +
        (f->staticShared
             ? " (" + std::to_string(im.maxShared) + " bytes minus " +
                   std::to_string(f->staticShared) + " of static shared memory)"
             : std::string()));
  int threads = info.numWarps * 32;
  if (threads > f->maxThreads)
    return Status::error(
        "kernel '" + info.name + "': a block of " + std::to_string(threads) +
        " threads (num_warps " + std::to_string(info.numWarps) +
        ") is more than it can run: it uses " + std::to_string(f->numRegs) +
        " registers per thread, which allows at most " +
        std::to_string(f->maxThreads) + " threads per block");
  if (Status s = im.raiseSharedLimit(*f, info); !s)
    return s;

  if (!maps.empty()) {
    if (im.cc < 90)
      return Status::error("kernel '" + info.name +
                           "' uses TMA tensor maps, which need compute "
                           "capability 9.0 or newer; this device is " +
                           im.name + " (sm_" + std::to_string(im.cc) + ")");
    // Bounded, and emptied only between launches: the maps of this launch
    // must all stay alive.
    if (im.tensorMapsByArgs.size() + maps.size() > kMaxCachedTensorMaps)
      if (Status s = im.dropTensorMaps(); !s)
        return s;
    for (size_t t = 0; t < maps.size(); ++t) {
      DevicePtr address = 0;
      if (Status s = im.tensorMapAddress(info, info.tma[t], maps[t], address);
          !s)
        return s;
      storage.emplace_back();
      put<uint64_t>(storage.back(), address);
    }
  }
  PackedArgs packed;
  finishPacking(packed, std::move(storage));

  auto config = [&] {
    return " (grid " + std::to_string(grid[0]) + "x" + std::to_string(grid[1]) +
           "x" + std::to_string(grid[2]) + ", block " +
           std::to_string(threads) + ", dynamic shared memory " +
           std::to_string(info.sharedBytes) + " bytes)";
  };
  Impl::TimedLaunch *timed = nullptr;
  if (im.recordKernelTimes) {
    if (im.timedLaunches.size() >= kMaxTimedLaunches)
      return Status::error("launch of kernel '" + info.name + "': more than " +
                           std::to_string(kMaxTimedLaunches) +
                           " launches recorded since startKernelTimes; "
                           "collect them with stopKernelTimes");
    im.timedLaunches.push_back({info.name, nullptr, nullptr});
    timed = &im.timedLaunches.back();
    Status s = im.check(im.d.cuEventCreate(&timed->start, CU_EVENT_DEFAULT),
                        "kernel times: cuEventCreate");
    if (s)
      s = im.check(im.d.cuEventCreate(&timed->end, CU_EVENT_DEFAULT),
                   "kernel times: cuEventCreate");
    if (s)
      s = im.check(im.d.cuEventRecord(timed->start, nullptr),
                   "kernel times: cuEventRecord");
    if (!s) {
      im.dropLastTimedLaunch();
      return s;
    }
  }
  CUresult r = im.d.cuLaunchKernel(
      f->fn, static_cast<unsigned>(grid[0]), static_cast<unsigned>(grid[1]),
      static_cast<unsigned>(grid[2]), static_cast<unsigned>(threads), 1, 1,
      static_cast<unsigned>(info.sharedBytes), nullptr, packed.pointers.data(),
      nullptr);
  if (r != CUDA_SUCCESS) {
    // Only launches that ran, with both events recorded, are kept.
    if (timed)
      im.dropLastTimedLaunch();
    return Status::error("launch of kernel '" + info.name + "'" + config() +
                         " failed: cuLaunchKernel: " + im.errorText(r));
  }
  if (timed) {
    Status s = im.check(im.d.cuEventRecord(timed->end, nullptr),
                        "kernel times: cuEventRecord after the launch of '" +
                            info.name + "'");
    if (!s) {
      im.dropLastTimedLaunch();
      return s;
    }
  }
  if (sync) {
    r = im.d.cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
      return Status::error("kernel '" + info.name + "'" + config() +
                           " failed: " + im.errorText(r));
  }
  return Status::success();
}

Status Runtime::alloc(size_t bytes, DevicePtr &out) {
  out = 0;
  if (bytes == 0)
    return Status::error("alloc of 0 bytes");
  if (Status s = impl_->activate(); !s)
    return s;
  CUdeviceptr p = 0;
  if (Status s =
          impl_->check(impl_->d.cuMemAlloc(&p, bytes),
                       "cuMemAlloc of " + std::to_string(bytes) + " bytes");
      !s)
    return s;
  out = p;
  return Status::success();
}

Status Runtime::free(DevicePtr ptr) {
  if (ptr == 0)
    return Status::success();
  if (Status s = impl_->activate(); !s)
    return s;
  return impl_->check(impl_->d.cuMemFree(ptr), "cuMemFree(" + hex(ptr) + ")");
}

Status Runtime::copyToDevice(DevicePtr dst, const void *src, size_t bytes) {
  if (bytes == 0)
    return Status::success();
  if (dst == 0 || src == nullptr)
    return Status::error(std::string("copyToDevice: null ") +
                         (dst == 0 ? "device destination" : "host source") +
                         " pointer");
  if (Status s = impl_->activate(); !s)
    return s;
  return impl_->check(impl_->d.cuMemcpyHtoD(dst, src, bytes),
                      "cuMemcpyHtoD of " + std::to_string(bytes) +
                          " bytes to " + hex(dst));
}

Status Runtime::copyToHost(void *dst, DevicePtr src, size_t bytes) {
  if (bytes == 0)
    return Status::success();
  if (dst == nullptr || src == 0)
    return Status::error(
        std::string("copyToHost: null ") +
        (dst == nullptr ? "host destination" : "device source") + " pointer");
  if (Status s = impl_->activate(); !s)
    return s;
  return impl_->check(impl_->d.cuMemcpyDtoH(dst, src, bytes),
                      "cuMemcpyDtoH of " + std::to_string(bytes) +
                          " bytes from " + hex(src));
}

Status Runtime::synchronize() {
  if (Status s = impl_->activate(); !s)
    return s;
  return impl_->check(impl_->d.cuCtxSynchronize(), "cuCtxSynchronize");
}

Status Runtime::time(const std::function<Status()> &fn, int warmup, int iters,
                     std::vector<double> &millis) {
  millis.clear();
  if (!fn)
    return Status::error("time: no function to time");
  if (warmup < 0 || iters < 1)
    return Status::error("time: needs warmup >= 0 and iters >= 1 (got " +
                         std::to_string(warmup) + " and " +
                         std::to_string(iters) + ")");
  Impl &im = *impl_;
  if (Status s = im.activate(); !s)
    return s;

  for (int i = 0; i < warmup; ++i)
    if (Status s = fn(); !s)
      return Status::error("time: warm-up call " + std::to_string(i) +
                           " failed: " + s.message);
  if (Status s = im.check(im.d.cuCtxSynchronize(), "time: after warm-up, "
                                                   "cuCtxSynchronize");
      !s)
    return s;

  // Two events per timed call, recorded around it; one synchronisation at
  // the end so that the GPU never waits for the host between calls.
  struct Events {
    const Driver &d;
    std::vector<CUevent> list;
    ~Events() {
      for (CUevent e : list)
        d.cuEventDestroy(e);
    }
  } events{im.d, {}};
  events.list.reserve(2 * static_cast<size_t>(iters));
  for (int i = 0; i < 2 * iters; ++i) {
    CUevent e = nullptr;
    if (Status s = im.check(im.d.cuEventCreate(&e, CU_EVENT_DEFAULT),
                            "time: cuEventCreate");
        !s)
      return s;
    events.list.push_back(e);
  }
  for (int i = 0; i < iters; ++i) {
    if (Status s = im.check(im.d.cuEventRecord(events.list[2 * i], nullptr),
                            "time: cuEventRecord");
        !s)
      return s;
    if (Status s = fn(); !s)
      return Status::error("time: timed call " + std::to_string(i) +
                           " failed: " + s.message);
    if (Status s = im.check(im.d.cuEventRecord(events.list[2 * i + 1], nullptr),
                            "time: cuEventRecord");
        !s)
      return s;
  }
  if (Status s = im.check(im.d.cuEventSynchronize(events.list.back()),
                          "time: cuEventSynchronize (the timed work failed)");
      !s)
    return s;
  millis.reserve(iters);
  for (int i = 0; i < iters; ++i) {
    float ms = 0;
    if (Status s = im.check(im.d.cuEventElapsedTime(&ms, events.list[2 * i],
                                                    events.list[2 * i + 1]),
                            "time: cuEventElapsedTime");
        !s) {
      millis.clear();
      return s;
    }
    millis.push_back(ms);
  }
  return Status::success();
}

Status Runtime::startKernelTimes() {
  Impl &im = *impl_;
  if (Status s = im.activate(); !s)
    return s;
  im.destroyTimedLaunches();
  im.recordKernelTimes = true;
  return Status::success();
}

Status Runtime::stopKernelTimes(std::vector<KernelTime> &out) {
  out.clear();
  Impl &im = *impl_;
  im.recordKernelTimes = false;
  // The events go whatever happens below (the context, the wait or a
  // reading failing).
  struct Drop {
    Impl &im;
    ~Drop() { im.destroyTimedLaunches(); }
  } drop{im};
  if (Status s = im.activate(); !s)
    return s;
  if (Status s = im.check(im.d.cuCtxSynchronize(),
                          "kernel times: cuCtxSynchronize (the timed work "
                          "failed)");
      !s)
    return s;
  std::unordered_map<std::string, size_t> at;
  for (const Impl::TimedLaunch &t : im.timedLaunches) {
    float ms = 0;
    if (Status s = im.check(im.d.cuEventElapsedTime(&ms, t.start, t.end),
                            "kernel times: cuEventElapsedTime");
        !s) {
      out.clear();
      return s;
    }
    auto [it, fresh] = at.try_emplace(t.name, out.size());
    if (fresh)
      out.push_back({t.name, 0, 0.0});
    KernelTime &k = out[it->second];
    ++k.launches;
    k.millis += ms;
  }
  return Status::success();
}

size_t Runtime::cachedModules() const { return impl_->modules.size(); }

size_t Runtime::cachedTensorMaps() const { return impl_->tensorMaps.size(); }

} // namespace tessera::rt
