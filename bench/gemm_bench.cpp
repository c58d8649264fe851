//===- gemm_bench.cpp - Tessera GEMM against cuBLAS on the GPU
//-------------===//
//
//   tessera-gemm-bench KERNEL.ptx KERNEL.json [--sizes 4096,8192]
//
// Times the compiled Tessera GEMM (bf16 in, f32 out) and cuBLAS
// (cublasGemmEx, bf16 in, f32 compute and out) on the same inputs in the
// same run: CUDA events, 3 warm-up calls, median of 10. Inputs are fresh
// random bf16 (at 8192 each matrix is 128 MB, past the 60 MB L2). Checks
// the two results agree, then prints TFLOP/s, the ratio to cuBLAS and the
// fraction of the H200's measured bf16 peak (718 TFLOP/s, DESIGN.md).
//
//===----------------------------------------------------------------------===//

#include "runtime/Runtime.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace tessera;

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

uint16_t toBF16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return uint16_t((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

#define CHECK_CUDA(x)                                                          \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e),  \
                   __FILE__, __LINE__);                                        \
      return 1;                                                                \
    }                                                                          \
  } while (0)

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: tessera-gemm-bench KERNEL.ptx KERNEL.json "
                         "[--sizes 4096,8192]\n");
    return 2;
  }
  std::string ptx = readFile(argv[1]), json = readFile(argv[2]);
  std::vector<int64_t> sizes = {4096, 8192};
  if (argc >= 5 && std::string(argv[3]) == "--sizes") {
    sizes.clear();
    std::stringstream ss(argv[4]);
    std::string s;
    while (std::getline(ss, s, ','))
      sizes.push_back(std::stoll(s));
  }
  std::string error;
  auto info = rt::fromJson(json, &error);
  if (!info) {
    std::fprintf(stderr, "bad kernel info: %s\n", error.c_str());
    return 2;
  }
  std::unique_ptr<rt::Runtime> runtime;
  if (rt::Status st = rt::Runtime::create(runtime); !st) {
    std::printf("SKIP: %s\n", st.message.c_str());
    return 0;
  }
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasCreate failed\n");
    return 1;
  }
  std::printf("device %s; kernel %s (%d warps, %d B shared)\n",
              runtime->deviceName().c_str(), info->name.c_str(), info->numWarps,
              info->sharedBytes);
  std::printf("%-6s %12s %12s %10s %10s %10s %10s\n", "size", "tessera ms",
              "cuBLAS ms", "tessera TF", "cuBLAS TF", "ratio", "rel diff");
  const double peak = 718.0;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1, 1);
  int failures = 0;
  for (int64_t n : sizes) {
    const int64_t m = n, k = n;
    std::vector<uint16_t> ha(m * k), hb(k * n);
    for (auto &v : ha)
      v = toBF16(dist(rng));
    for (auto &v : hb)
      v = toBF16(dist(rng));
    rt::DevicePtr a = 0, b = 0, c = 0, cref = 0;
    size_t abytes = ha.size() * 2, bbytes = hb.size() * 2, cbytes = m * n * 4;
    if (!runtime->alloc(abytes, a) || !runtime->alloc(bbytes, b) ||
        !runtime->alloc(cbytes, c) || !runtime->alloc(cbytes, cref) ||
        !runtime->copyToDevice(a, ha.data(), abytes) ||
        !runtime->copyToDevice(b, hb.data(), bbytes)) {
      std::fprintf(stderr, "allocation failed at %lld\n", (long long)n);
      return 1;
    }
    std::array<int64_t, 3> grid = {(m + 63) / 64, (n + 63) / 64, 1};
    std::vector<rt::Arg> args = {rt::ViewArg{a, {m, k}, {k, 1}},
                                 rt::ViewArg{b, {k, n}, {n, 1}},
                                 rt::ViewArg{c, {m, n}, {n, 1}}};
    std::vector<double> ours, theirs;
    rt::Status st = runtime->time(
        [&] { return runtime->launch(ptx, *info, grid, args, false); }, 3, 10,
        ours);
    if (!st) {
      std::fprintf(stderr, "tessera GEMM failed: %s\n", st.message.c_str());
      return 1;
    }
    // cuBLAS is column-major: C^T (n x m) = B^T (n x k) * A^T (k x m).
    float one = 1, zero = 0;
    auto gemm = [&] {
      return cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m),
                          int(k), &one, reinterpret_cast<void *>(b),
                          CUDA_R_16BF, int(n), reinterpret_cast<void *>(a),
                          CUDA_R_16BF, int(k), &zero,
                          reinterpret_cast<void *>(cref), CUDA_R_32F, int(n),
                          CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    };
    cudaEvent_t e0, e1;
    CHECK_CUDA(cudaEventCreate(&e0));
    CHECK_CUDA(cudaEventCreate(&e1));
    for (int i = 0; i < 13; ++i) {
      CHECK_CUDA(cudaEventRecord(e0));
      if (gemm() != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "cublasGemmEx failed\n");
        return 1;
      }
      CHECK_CUDA(cudaEventRecord(e1));
      CHECK_CUDA(cudaEventSynchronize(e1));
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
      if (i >= 3)
        theirs.push_back(ms);
    }
    std::vector<float> hc(m * n), hr(m * n);
    (void)runtime->copyToHost(hc.data(), c, cbytes);
    (void)runtime->copyToHost(hr.data(), cref, cbytes);
    double num = 0, den = 0;
    for (size_t i = 0; i < hc.size(); ++i) {
      num += double(hc[i] - hr[i]) * (hc[i] - hr[i]);
      den += double(hr[i]) * hr[i];
    }
    double diff = std::sqrt(num / den);
    failures += !(diff < 1e-4);
    double flops = 2.0 * m * n * k;
    double tOurs = median(ours), tTheirs = median(theirs);
    double tfOurs = flops / tOurs / 1e9, tfTheirs = flops / tTheirs / 1e9;
    std::printf("%-6lld %12.3f %12.3f %10.1f %10.1f %9.1f%% %10.2e  (peak "
                "%.1f%%)\n",
                (long long)n, tOurs, tTheirs, tfOurs, tfTheirs,
                100.0 * tfOurs / tfTheirs, diff, 100.0 * tfOurs / peak);
    (void)runtime->free(a);
    (void)runtime->free(b);
    (void)runtime->free(c);
    (void)runtime->free(cref);
  }
  cublasDestroy(handle);
  return failures ? 1 : 0;
}
