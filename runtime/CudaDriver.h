//===- CudaDriver.h - the few CUDA driver declarations we use ---*- C++ -*-===//
//
// Private to the runtime (and its fake driver in test/unit). The runtime
// builds without the CUDA toolkit, so it does not include <cuda.h>: the
// types, constants and function signatures it needs are declared here. Every
// numeric value was checked against cuda.h of CUDA 13.0; every signature is
// the one cuGetProcAddress returns for cudaVersion 12000 (kCudaVersion), so
// base names without _v2 suffixes are looked up (cuMemAlloc, not
// cuMemAlloc_v2).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_CUDADRIVER_H
#define TESSERA_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <cstdint>

namespace tessera::rt::cuda {

/// The driver API version whose entry points the runtime asks for.
constexpr int kCudaVersion = 12000;

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using cuuint32_t = uint32_t;
using cuuint64_t = uint64_t;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;

// CUresult values.
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_INVALID_CONTEXT = 201;
constexpr CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
constexpr CUresult CUDA_ERROR_ECC_UNCORRECTABLE = 214;
constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
constexpr CUresult CUDA_ERROR_LAUNCH_TIMEOUT = 702;
constexpr CUresult CUDA_ERROR_ASSERT = 710;
constexpr CUresult CUDA_ERROR_HARDWARE_STACK_ERROR = 714;
constexpr CUresult CUDA_ERROR_ILLEGAL_INSTRUCTION = 715;
constexpr CUresult CUDA_ERROR_MISALIGNED_ADDRESS = 716;
constexpr CUresult CUDA_ERROR_INVALID_ADDRESS_SPACE = 717;
constexpr CUresult CUDA_ERROR_INVALID_PC = 718;
constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
constexpr CUresult CUDA_ERROR_UNKNOWN = 999;

// CUjit_option.
enum CUjit_option : int {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_LOG_VERBOSE = 12,
};

// CUdevice_attribute.
constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// CUfunction_attribute.
constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

// CUevent_flags.
constexpr unsigned CU_EVENT_DEFAULT = 0;

// CUdriverProcAddress_flags and CUdriverProcAddressQueryResult.
constexpr cuuint64_t CU_GET_PROC_ADDRESS_DEFAULT = 0;
using CUdriverProcAddressQueryResult = int;
constexpr int CU_GET_PROC_ADDRESS_SUCCESS = 0;
constexpr int CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1;
constexpr int CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2;

// Tensor maps (TMA, CUDA 12.0): an opaque 128-byte, 64-byte-aligned object
// and the enums of cuTensorMapEncodeTiled (values as its documentation
// lists them).
struct alignas(64) CUtensorMap {
  cuuint64_t opaque[16];
};
static_assert(sizeof(CUtensorMap) == 128 && alignof(CUtensorMap) == 64);
enum CUtensorMapDataType : int {
  CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0,
  CU_TENSOR_MAP_DATA_TYPE_UINT16 = 1,
  CU_TENSOR_MAP_DATA_TYPE_UINT32 = 2,
  CU_TENSOR_MAP_DATA_TYPE_INT32 = 3,
  CU_TENSOR_MAP_DATA_TYPE_UINT64 = 4,
  CU_TENSOR_MAP_DATA_TYPE_INT64 = 5,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT64 = 8,
  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ = 10,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 = 11,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ = 12,
};
enum CUtensorMapInterleave : int {
  CU_TENSOR_MAP_INTERLEAVE_NONE = 0,
  CU_TENSOR_MAP_INTERLEAVE_16B = 1,
  CU_TENSOR_MAP_INTERLEAVE_32B = 2,
};
enum CUtensorMapSwizzle : int {
  CU_TENSOR_MAP_SWIZZLE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_32B = 1,
  CU_TENSOR_MAP_SWIZZLE_64B = 2,
  CU_TENSOR_MAP_SWIZZLE_128B = 3,
};
enum CUtensorMapL2promotion : int {
  CU_TENSOR_MAP_L2_PROMOTION_NONE = 0,
  CU_TENSOR_MAP_L2_PROMOTION_L2_64B = 1,
  CU_TENSOR_MAP_L2_PROMOTION_L2_128B = 2,
  CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3,
};
enum CUtensorMapFloatOOBfill : int {
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0, // out-of-bounds elements read as 0
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA = 1,
};

// Entry points. cuGetProcAddress_v2 is found with dlsym (falling back to
// the 4-argument cuGetProcAddress of CUDA 11.3-12.x), everything else
// through it.
using PFN_cuGetProcAddress_v2 = CUresult (*)(const char *symbol, void **pfn,
                                             int cudaVersion, cuuint64_t flags,
                                             CUdriverProcAddressQueryResult *);
using PFN_cuGetProcAddress_v1 = CUresult (*)(const char *symbol, void **pfn,
                                             int cudaVersion, cuuint64_t flags);

using PFN_cuGetErrorName = CUresult (*)(CUresult, const char **);
using PFN_cuGetErrorString = CUresult (*)(CUresult, const char **);
using PFN_cuInit = CUresult (*)(unsigned int);
using PFN_cuDriverGetVersion = CUresult (*)(int *);
using PFN_cuDeviceGetCount = CUresult (*)(int *);
using PFN_cuDeviceGet = CUresult (*)(CUdevice *, int);
using PFN_cuDeviceGetName = CUresult (*)(char *, int, CUdevice);
using PFN_cuDeviceGetAttribute = CUresult (*)(int *, int, CUdevice);
using PFN_cuDevicePrimaryCtxRetain = CUresult (*)(CUcontext *, CUdevice);
using PFN_cuDevicePrimaryCtxRelease = CUresult (*)(CUdevice); // _v2
using PFN_cuCtxSetCurrent = CUresult (*)(CUcontext);
using PFN_cuCtxSynchronize = CUresult (*)(void);
using PFN_cuModuleLoadDataEx = CUresult (*)(CUmodule *, const void *,
                                            unsigned int, CUjit_option *,
                                            void **);
using PFN_cuModuleUnload = CUresult (*)(CUmodule);
using PFN_cuModuleGetFunction = CUresult (*)(CUfunction *, CUmodule,
                                             const char *);
using PFN_cuFuncGetAttribute = CUresult (*)(int *, int, CUfunction);
using PFN_cuFuncSetAttribute = CUresult (*)(CUfunction, int, int);
using PFN_cuLaunchKernel = CUresult (*)(CUfunction, unsigned, unsigned,
                                        unsigned, unsigned, unsigned, unsigned,
                                        unsigned, CUstream, void **, void **);
using PFN_cuMemAlloc = CUresult (*)(CUdeviceptr *, size_t);               // _v2
using PFN_cuMemFree = CUresult (*)(CUdeviceptr);                          // _v2
using PFN_cuMemcpyHtoD = CUresult (*)(CUdeviceptr, const void *, size_t); // _v2
using PFN_cuMemcpyDtoH = CUresult (*)(void *, CUdeviceptr, size_t);       // _v2
using PFN_cuEventCreate = CUresult (*)(CUevent *, unsigned int);
using PFN_cuEventRecord = CUresult (*)(CUevent, CUstream);
using PFN_cuEventSynchronize = CUresult (*)(CUevent);
using PFN_cuEventElapsedTime = CUresult (*)(float *, CUevent, CUevent);
using PFN_cuEventDestroy = CUresult (*)(CUevent); // _v2
using PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor =
    CUresult (*)(int *, CUfunction, int blockSize, size_t dynamicSharedBytes);
using PFN_cuTensorMapEncodeTiled = CUresult (*)(
    CUtensorMap *, CUtensorMapDataType, cuuint32_t rank, void *globalAddress,
    const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
    const cuuint32_t *boxDim, const cuuint32_t *elementStrides,
    CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
    CUtensorMapFloatOOBfill);

/// X(name) for every entry point the runtime takes through cuGetProcAddress.
#define TESSERA_CUDA_ENTRY_POINTS(X)                                           \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuEventCreate)                                                             \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuEventDestroy)

/// Entry points only some kernels need: a driver without them still runs
/// every other kernel, and those that need them report it at launch.
#define TESSERA_CUDA_OPTIONAL_ENTRY_POINTS(X)                                  \
  X(cuTensorMapEncodeTiled)                                                    \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)

/// The entry points of one loaded driver.
struct Driver {
#define TESSERA_CUDA_FIELD(name) PFN_##name name = nullptr;
  TESSERA_CUDA_ENTRY_POINTS(TESSERA_CUDA_FIELD)
  TESSERA_CUDA_OPTIONAL_ENTRY_POINTS(TESSERA_CUDA_FIELD)
#undef TESSERA_CUDA_FIELD
};

} // namespace tessera::rt::cuda

#endif // TESSERA_RUNTIME_CUDADRIVER_H
