//===- FakeCuda.cpp - a fake libcuda for the runtime's unit tests ---------===//
//
// Loaded by the runtime through TESSERA_LIBCUDA, exactly as the real driver
// is: it exports cuGetProcAddress_v2 and hands out the entry points of a
// pretend device. "Device memory" is host memory, launches run nothing but
// are recorded, and the JIT accepts any PTX except that containing
// SYNTAX_ERROR, or an architecture-specific target (sm_90a) of another
// device. Events read a clock that each record advances by 0.5 ms and each
// launch by the "launch_us" setting plus "launch_us:<kernel>" (so tests
// can make one kernel faster than another); "launch_error:<kernel>" fails
// one kernel's launches. cuTensorMapEncodeTiled checks its arguments as
// the driver documents and writes them, recognisably, into the 128-byte
// map; every call is recorded. The tests steer and inspect it through the
// fake_cuda_* functions.
//
//===----------------------------------------------------------------------===//

#include "runtime/CudaDriver.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace tessera::rt::cuda;

namespace {

struct FakeModule {
  std::string ptx;
};
struct FakeFunction {
  FakeModule *module;
  std::string name;
  int paramCount;
};

struct TmaCall {
  int dataType = 0;
  unsigned rank = 0;
  unsigned long long address = 0;
  unsigned long long globalDim[5] = {};
  unsigned long long globalStrides[4] = {};
  unsigned boxDim[5] = {};
  unsigned elementStrides[5] = {};
  int interleave = 0, swizzle = 0, l2Promotion = 0, oobFill = 0;
  CUresult result = 0;
  unsigned char map[128] = {}; // what the call wrote (when it succeeded)
};

struct State {
  std::map<std::string, long long> values;
  std::string missing; // an entry point cuGetProcAddress pretends not to know
  std::vector<std::unique_ptr<FakeModule>> modules;
  std::vector<std::unique_ptr<FakeFunction>> functions;
  std::map<unsigned long long, std::vector<unsigned char>> memory;
  std::vector<unsigned long long> lastParams;
  std::string name = "Tessera Fake GPU";
  long long clock = 0; // microseconds
  std::map<CUevent, long long> events;
  long long nextEvent = 1;
  std::vector<TmaCall> tmaCalls;

  long long get(const std::string &key) const {
    auto it = values.find(key);
    return it == values.end() ? 0 : it->second;
  }
  void bump(const std::string &key) { ++values[key]; }
};

State &state() {
  static State s;
  return s;
}

void reset() {
  State &s = state();
  s = State();
  s.values["devices"] = 1;
  s.values["cc_major"] = 9;
  s.values["cc_minor"] = 0;
  s.values["shared_optin"] = 232448;
  s.values["multiprocessors"] = 132;
  s.values["blocks_per_sm"] = 2;
  s.values["shared_default"] = 49152;
  s.values["driver_version"] = 13000;
  s.values["max_threads"] = 1024;
  s.values["num_regs"] = 40;
}

struct Init {
  Init() { reset(); }
} init;

// --- entry points -----------------------------------------------------------

CUresult getErrorName(CUresult r, const char **out) {
  switch (r) {
  case CUDA_SUCCESS:
    *out = "CUDA_SUCCESS";
    return 0;
  case CUDA_ERROR_INVALID_VALUE:
    *out = "CUDA_ERROR_INVALID_VALUE";
    return 0;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *out = "CUDA_ERROR_OUT_OF_MEMORY";
    return 0;
  case CUDA_ERROR_NO_DEVICE:
    *out = "CUDA_ERROR_NO_DEVICE";
    return 0;
  case CUDA_ERROR_INVALID_PTX:
    *out = "CUDA_ERROR_INVALID_PTX";
    return 0;
  case CUDA_ERROR_NOT_FOUND:
    *out = "CUDA_ERROR_NOT_FOUND";
    return 0;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *out = "CUDA_ERROR_ILLEGAL_ADDRESS";
    return 0;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    *out = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    return 0;
  default:
    *out = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult getErrorString(CUresult r, const char **out) {
  switch (r) {
  case CUDA_ERROR_INVALID_VALUE:
    *out = "invalid argument";
    return 0;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *out = "out of memory";
    return 0;
  case CUDA_ERROR_NO_DEVICE:
    *out = "no CUDA-capable device is detected";
    return 0;
  case CUDA_ERROR_INVALID_PTX:
    *out = "a PTX JIT compilation failed";
    return 0;
  case CUDA_ERROR_NOT_FOUND:
    *out = "named symbol not found";
    return 0;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *out = "an illegal memory access was encountered";
    return 0;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    *out = "too many resources requested for launch";
    return 0;
  default:
    *out = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult fakeInit(unsigned) {
  state().bump("init_calls");
  return static_cast<CUresult>(state().get("init_error"));
}
CUresult driverGetVersion(int *v) {
  *v = static_cast<int>(state().get("driver_version"));
  return 0;
}
CUresult deviceGetCount(int *n) {
  *n = static_cast<int>(state().get("devices"));
  return 0;
}
CUresult deviceGet(CUdevice *d, int ordinal) {
  if (ordinal < 0 || ordinal >= state().get("devices"))
    return CUDA_ERROR_INVALID_DEVICE;
  *d = ordinal;
  return 0;
}
CUresult deviceGetName(char *name, int len, CUdevice) {
  std::snprintf(name, len, "%s", state().name.c_str());
  return 0;
}
CUresult deviceGetAttribute(int *v, int attr, CUdevice) {
  State &s = state();
  switch (attr) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *v = static_cast<int>(s.get("cc_major"));
    return 0;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *v = static_cast<int>(s.get("cc_minor"));
    return 0;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
    *v = static_cast<int>(s.get("shared_default"));
    return 0;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *v = static_cast<int>(s.get("shared_optin"));
    return 0;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *v = static_cast<int>(s.get("multiprocessors"));
    return 0;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}
CUresult primaryCtxRetain(CUcontext *ctx, CUdevice) {
  state().bump("ctx_retains");
  *ctx = reinterpret_cast<CUcontext>(uintptr_t(0x1000));
  return 0;
}
CUresult primaryCtxRelease(CUdevice) {
  state().bump("ctx_releases");
  return 0;
}
CUresult ctxSetCurrent(CUcontext) { return 0; }
CUresult ctxSynchronize() {
  state().bump("syncs");
  return static_cast<CUresult>(state().get("sync_error"));
}

void writeLog(void *buf, size_t size, const std::string &text) {
  if (!buf || size == 0)
    return;
  size_t n = std::min(size - 1, text.size());
  std::memcpy(buf, text.data(), n);
  static_cast<char *>(buf)[n] = '\0';
}

CUresult moduleLoadDataEx(CUmodule *mod, const void *image, unsigned n,
                          CUjit_option *options, void **values) {
  State &s = state();
  s.bump("module_loads");
  std::string ptx = static_cast<const char *>(image);
  void *infoBuf = nullptr, *errorBuf = nullptr;
  size_t infoSize = 0, errorSize = 0;
  for (unsigned i = 0; i < n; ++i) {
    switch (options[i]) {
    case CU_JIT_INFO_LOG_BUFFER:
      infoBuf = values[i];
      break;
    case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
      infoSize = reinterpret_cast<uintptr_t>(values[i]);
      break;
    case CU_JIT_ERROR_LOG_BUFFER:
      errorBuf = values[i];
      break;
    case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
      errorSize = reinterpret_cast<uintptr_t>(values[i]);
      break;
    case CU_JIT_LOG_VERBOSE:
      s.values["verbose"] =
          static_cast<long long>(reinterpret_cast<uintptr_t>(values[i]));
      break;
    }
  }
  if (ptx.find("SYNTAX_ERROR") != std::string::npos) {
    writeLog(errorBuf, errorSize,
             "ptxas application ptx input, line 7; error   : syntax error "
             "at 'SYNTAX_ERROR'\nptxas fatal   : Ptx assembly aborted due to "
             "errors\n");
    return CUDA_ERROR_INVALID_PTX;
  }
  int cc = static_cast<int>(s.get("cc_major") * 10 + s.get("cc_minor"));
  size_t t = ptx.find(".target sm_");
  if (t != std::string::npos) {
    int arch = std::atoi(ptx.c_str() + t + 11);
    size_t end = t + 11;
    while (end < ptx.size() && ptx[end] >= '0' && ptx[end] <= '9')
      ++end;
    bool specific = end < ptx.size() && ptx[end] == 'a';
    if (arch > cc || (specific && arch != cc)) {
      writeLog(errorBuf, errorSize,
               "ptxas fatal   : Unsupported .target 'sm_" +
                   std::to_string(arch) + (specific ? "a" : "") + "'\n");
      return CUDA_ERROR_INVALID_PTX;
    }
  }
  writeLog(infoBuf, infoSize,
           "ptxas info    : Compiling entry function\nptxas info    : Used " +
               std::to_string(s.get("num_regs")) + " registers\n");
  s.modules.push_back(std::make_unique<FakeModule>(FakeModule{ptx}));
  *mod = reinterpret_cast<CUmodule>(s.modules.back().get());
  return 0;
}

CUresult moduleUnload(CUmodule) {
  state().bump("module_unloads");
  return 0;
}

CUresult moduleGetFunction(CUfunction *fn, CUmodule mod, const char *name) {
  State &s = state();
  auto *m = reinterpret_cast<FakeModule *>(mod);
  std::string key = std::string(".entry ") + name + "(";
  size_t at = m->ptx.find(key);
  if (at == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  size_t close = m->ptx.find(')', at);
  int params = 0;
  for (size_t p = m->ptx.find(".param", at); p < close;
       p = m->ptx.find(".param", p + 1))
    ++params;
  s.functions.push_back(
      std::make_unique<FakeFunction>(FakeFunction{m, name, params}));
  *fn = reinterpret_cast<CUfunction>(s.functions.back().get());
  return 0;
}

CUresult funcGetAttribute(int *v, int attr, CUfunction) {
  State &s = state();
  switch (attr) {
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *v = static_cast<int>(s.get("static_shared"));
    return 0;
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *v = static_cast<int>(s.get("max_threads"));
    return 0;
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *v = static_cast<int>(s.get("num_regs"));
    return 0;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

// Records the block size and shared memory it was asked about.
CUresult occupancyMaxActiveBlocks(int *blocks, CUfunction, int blockSize,
                                  size_t sharedBytes) {
  State &s = state();
  s.values["occupancy_block_size"] = blockSize;
  s.values["occupancy_shared_bytes"] = static_cast<long long>(sharedBytes);
  *blocks = static_cast<int>(s.get("blocks_per_sm"));
  return 0;
}

CUresult funcSetAttribute(CUfunction, int attr, int value) {
  State &s = state();
  if (attr != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    return CUDA_ERROR_INVALID_VALUE;
  s.bump("set_shared_calls");
  s.values["set_shared_value"] = value;
  return 0;
}

CUresult launchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                      unsigned bx, unsigned by, unsigned bz, unsigned shared,
                      CUstream, void **params, void **extra) {
  State &s = state();
  auto *fn = reinterpret_cast<FakeFunction *>(f);
  s.bump("launches");
  s.values["grid_x"] = gx;
  s.values["grid_y"] = gy;
  s.values["grid_z"] = gz;
  s.values["block_x"] = bx;
  s.values["block_y"] = by;
  s.values["block_z"] = bz;
  s.values["shared"] = shared;
  s.values["extra_null"] = extra == nullptr;
  s.values["param_count"] = fn->paramCount;
  s.lastParams.clear();
  for (int i = 0; i < fn->paramCount; ++i) {
    unsigned long long v = 0;
    std::memcpy(&v, params[i], 8); // the runtime gives 8-byte slots
    s.lastParams.push_back(v);
  }
  if (shared > static_cast<unsigned>(std::max(s.get("shared_default"),
                                              s.get("set_shared_value"))))
    return CUDA_ERROR_INVALID_VALUE;
  if (long long e = s.get("launch_error:" + fn->name))
    return static_cast<CUresult>(e);
  s.clock += s.get("launch_us") + s.get("launch_us:" + fn->name);
  return static_cast<CUresult>(s.get("launch_error"));
}

CUresult memAlloc(CUdeviceptr *p, size_t bytes) {
  State &s = state();
  if (bytes > (size_t(1) << 34))
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::vector<unsigned char> block(bytes + 256);
  auto base = reinterpret_cast<uintptr_t>(block.data());
  CUdeviceptr aligned = (base + 255) & ~uintptr_t(255);
  s.memory[aligned] = std::move(block); // the buffer does not move
  *p = aligned;
  s.bump("allocs");
  s.values["live_allocations"] = static_cast<long long>(s.memory.size());
  return 0;
}

CUresult memFree(CUdeviceptr p) {
  State &s = state();
  if (!s.memory.erase(p))
    return CUDA_ERROR_INVALID_VALUE;
  s.bump("frees");
  s.values["live_allocations"] = static_cast<long long>(s.memory.size());
  return 0;
}

unsigned char *lookup(CUdeviceptr p, size_t bytes) {
  State &s = state();
  auto it = s.memory.upper_bound(p);
  if (it == s.memory.begin())
    return nullptr;
  --it;
  size_t usable = it->second.size() - 256;
  if (p - it->first + bytes > usable)
    return nullptr;
  return reinterpret_cast<unsigned char *>(p);
}

CUresult memcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes) {
  state().bump("htod_copies");
  unsigned char *d = lookup(dst, bytes);
  if (!d)
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(d, src, bytes);
  return static_cast<CUresult>(state().get("sync_error"));
}

CUresult memcpyDtoH(void *dst, CUdeviceptr src, size_t bytes) {
  unsigned char *s = lookup(src, bytes);
  if (!s)
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(dst, s, bytes);
  return static_cast<CUresult>(state().get("sync_error"));
}

CUresult eventCreate(CUevent *e, unsigned) {
  State &s = state();
  *e = reinterpret_cast<CUevent>(uintptr_t(s.nextEvent++));
  s.events[*e] = -1;
  s.bump("events_created");
  return 0;
}
CUresult eventRecord(CUevent e, CUstream) {
  State &s = state();
  if (!s.events.count(e))
    return CUDA_ERROR_INVALID_VALUE;
  s.events[e] = s.clock += 500;
  return 0;
}
CUresult eventSynchronize(CUevent e) {
  return state().events.count(e) ? 0 : CUDA_ERROR_INVALID_VALUE;
}
CUresult eventElapsedTime(float *ms, CUevent a, CUevent b) {
  State &s = state();
  if (!s.events.count(a) || !s.events.count(b) || s.events[a] < 0 ||
      s.events[b] < 0)
    return CUDA_ERROR_INVALID_VALUE;
  *ms = static_cast<float>(s.events[b] - s.events[a]) / 1000.0f;
  return 0;
}
CUresult eventDestroy(CUevent e) {
  State &s = state();
  s.bump("events_destroyed");
  return s.events.erase(e) ? 0 : CUDA_ERROR_INVALID_VALUE;
}

/// Bytes of one element of a CUtensorMapDataType; 0 if not one.
int tmaElementBytes(int type) {
  static const int kBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  return type >= 0 && type < 13 ? kBytes[type] : 0;
}

// Layout of the fake map: "FAKETMAP", then data type, rank, interleave,
// swizzle, L2 promotion and OOB fill (a byte each) at 8, the address at 16,
// globalDim (5 x u64) at 24, globalStrides (4 x u64) at 64, boxDim (5 x u16)
// at 96, elementStrides (5 x u8) at 106; the rest zero.
CUresult tensorMapEncodeTiled(
    CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *address,
    const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
    const cuuint32_t *boxDim, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
  State &s = state();
  s.bump("tma_encodes");
  TmaCall call;
  call.dataType = type;
  call.rank = rank;
  call.address = reinterpret_cast<uintptr_t>(address);
  call.interleave = interleave;
  call.swizzle = swizzle;
  call.l2Promotion = l2Promotion;
  call.oobFill = oobFill;
  for (unsigned i = 0; i < rank && i < 5; ++i) {
    call.globalDim[i] = globalDim ? globalDim[i] : 0;
    call.boxDim[i] = boxDim ? boxDim[i] : 0;
    call.elementStrides[i] = elementStrides ? elementStrides[i] : 0;
    if (i + 1 < rank)
      call.globalStrides[i] = globalStrides ? globalStrides[i] : 0;
  }

  // The requirements cuTensorMapEncodeTiled documents (no interleave).
  int elem = tmaElementBytes(type);
  unsigned span = swizzle == CU_TENSOR_MAP_SWIZZLE_32B    ? 32
                  : swizzle == CU_TENSOR_MAP_SWIZZLE_64B  ? 64
                  : swizzle == CU_TENSOR_MAP_SWIZZLE_128B ? 128
                                                          : 0;
  bool ok = map && reinterpret_cast<uintptr_t>(map) % 64 == 0 && elem &&
            rank >= 1 && rank <= 5 && call.address && call.address % 16 == 0 &&
            globalDim && boxDim && elementStrides &&
            (rank == 1 || globalStrides) &&
            interleave == CU_TENSOR_MAP_INTERLEAVE_NONE && swizzle >= 0 &&
            swizzle <= 3 && l2Promotion >= 0 && l2Promotion <= 3 &&
            oobFill >= 0 && oobFill <= 1;
  for (unsigned i = 0; ok && i < rank; ++i) {
    ok = call.globalDim[i] >= 1 && call.globalDim[i] <= (1ull << 32) &&
         call.boxDim[i] >= 1 && call.boxDim[i] <= 256 &&
         call.elementStrides[i] >= 1 && call.elementStrides[i] <= 8;
    if (ok && i + 1 < rank)
      ok = call.globalStrides[i] % 16 == 0 &&
           call.globalStrides[i] < (1ull << 40);
  }
  if (ok) {
    unsigned innerBytes = call.boxDim[0] * elem;
    ok = innerBytes % 16 == 0 && (span == 0 || innerBytes <= span);
  }
  call.result =
      ok ? static_cast<CUresult>(s.get("tma_error")) : CUDA_ERROR_INVALID_VALUE;
  if (call.result == 0) {
    unsigned char *m = call.map;
    std::memcpy(m, "FAKETMAP", 8);
    const int small[] = {type,        static_cast<int>(rank),
                         interleave,  swizzle,
                         l2Promotion, oobFill};
    for (int i = 0; i < 6; ++i)
      m[8 + i] = static_cast<unsigned char>(small[i]);
    std::memcpy(m + 16, &call.address, 8);
    std::memcpy(m + 24, call.globalDim, 40);
    std::memcpy(m + 64, call.globalStrides, 32);
    for (int i = 0; i < 5; ++i) {
      uint16_t box = static_cast<uint16_t>(call.boxDim[i]);
      std::memcpy(m + 96 + 2 * i, &box, 2);
      m[106 + i] = static_cast<unsigned char>(call.elementStrides[i]);
    }
    std::memcpy(map, m, 128);
  }
  s.tmaCalls.push_back(call);
  return call.result;
}

struct Symbol {
  const char *name;
  void *fn;
};

template <typename F> void *fnptr(F f) { return reinterpret_cast<void *>(f); }

const Symbol kSymbols[] = {
    {"cuGetErrorName", fnptr(getErrorName)},
    {"cuGetErrorString", fnptr(getErrorString)},
    {"cuInit", fnptr(fakeInit)},
    {"cuDriverGetVersion", fnptr(driverGetVersion)},
    {"cuDeviceGetCount", fnptr(deviceGetCount)},
    {"cuDeviceGet", fnptr(deviceGet)},
    {"cuDeviceGetName", fnptr(deviceGetName)},
    {"cuDeviceGetAttribute", fnptr(deviceGetAttribute)},
    {"cuDevicePrimaryCtxRetain", fnptr(primaryCtxRetain)},
    {"cuDevicePrimaryCtxRelease", fnptr(primaryCtxRelease)},
    {"cuCtxSetCurrent", fnptr(ctxSetCurrent)},
    {"cuCtxSynchronize", fnptr(ctxSynchronize)},
    {"cuModuleLoadDataEx", fnptr(moduleLoadDataEx)},
    {"cuModuleUnload", fnptr(moduleUnload)},
    {"cuModuleGetFunction", fnptr(moduleGetFunction)},
    {"cuFuncGetAttribute", fnptr(funcGetAttribute)},
    {"cuFuncSetAttribute", fnptr(funcSetAttribute)},
    {"cuLaunchKernel", fnptr(launchKernel)},
    {"cuMemAlloc", fnptr(memAlloc)},
    {"cuMemFree", fnptr(memFree)},
    {"cuMemcpyHtoD", fnptr(memcpyHtoD)},
    {"cuMemcpyDtoH", fnptr(memcpyDtoH)},
    {"cuEventCreate", fnptr(eventCreate)},
    {"cuEventRecord", fnptr(eventRecord)},
    {"cuEventSynchronize", fnptr(eventSynchronize)},
    {"cuEventElapsedTime", fnptr(eventElapsedTime)},
    {"cuEventDestroy", fnptr(eventDestroy)},
    {"cuTensorMapEncodeTiled", fnptr(tensorMapEncodeTiled)},
    {"cuOccupancyMaxActiveBlocksPerMultiprocessor",
     fnptr(occupancyMaxActiveBlocks)},
};

} // namespace

extern "C" {

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                             cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status) {
  State &s = state();
  s.values["gpa_version"] = cudaVersion;
  s.values["gpa_flags"] = static_cast<long long>(flags);
  *pfn = nullptr;
  if (s.missing != symbol)
    for (const Symbol &sym : kSymbols)
      if (std::strcmp(sym.name, symbol) == 0) {
        *pfn = sym.fn;
        if (status)
          *status = CU_GET_PROC_ADDRESS_SUCCESS;
        return 0;
      }
  if (status)
    *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_ERROR_NOT_FOUND;
}

// The test's handle on the fake.
void fake_cuda_reset() { reset(); }
void fake_cuda_set(const char *key, long long value) {
  state().values[key] = value;
}
long long fake_cuda_get(const char *key) { return state().get(key); }
void fake_cuda_set_missing(const char *symbol) { state().missing = symbol; }
void fake_cuda_set_device_name(const char *name) { state().name = name; }
int fake_cuda_param_count() {
  return static_cast<int>(state().lastParams.size());
}
unsigned long long fake_cuda_param(int i) {
  const auto &p = state().lastParams;
  return i >= 0 && static_cast<size_t>(i) < p.size() ? p[i] : 0;
}
int fake_cuda_tma_calls() { return static_cast<int>(state().tmaCalls.size()); }
/// Field `field` (element `index` of the arrays) of encode call `call`.
unsigned long long fake_cuda_tma_arg(int call, const char *field, int index) {
  const auto &calls = state().tmaCalls;
  if (call < 0 || static_cast<size_t>(call) >= calls.size())
    return ~0ull;
  const TmaCall &c = calls[call];
  std::string f = field;
  bool in5 = index >= 0 && index < 5, in4 = index >= 0 && index < 4;
  if (f == "data_type")
    return c.dataType;
  if (f == "rank")
    return c.rank;
  if (f == "address")
    return c.address;
  if (f == "global_dim" && in5)
    return c.globalDim[index];
  if (f == "global_strides" && in4)
    return c.globalStrides[index];
  if (f == "box_dim" && in5)
    return c.boxDim[index];
  if (f == "element_strides" && in5)
    return c.elementStrides[index];
  if (f == "interleave")
    return c.interleave;
  if (f == "swizzle")
    return c.swizzle;
  if (f == "l2_promotion")
    return c.l2Promotion;
  if (f == "oob_fill")
    return c.oobFill;
  if (f == "result")
    return static_cast<unsigned long long>(c.result);
  return ~0ull;
}
/// Copies the 128 bytes encode call `call` wrote; false if there is none.
bool fake_cuda_tma_map(int call, void *out) {
  const auto &calls = state().tmaCalls;
  if (call < 0 || static_cast<size_t>(call) >= calls.size())
    return false;
  std::memcpy(out, calls[call].map, 128);
  return true;
}
}
