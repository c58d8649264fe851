//===- gemm_bench.cpp - Tessera GEMM against cuBLAS on the GPU ------------===//
//
//   tessera-gemm-bench KERNEL.ptx KERNEL.json [--sizes 4096,8192]
//                      [--no-time]
//   tessera-gemm-bench --tune A.ptx:A.json,B.ptx:B.json,... [--cache FILE]
//                      [--sizes 4096,8192] [--no-time]
//
// For each size n (M = N = K = n): fresh random inputs of the kernel's
// input type (bf16, f16 or f32), the output poisoned with NaN, then
// - correctness: the Tessera result against a float64 reference computed
//   on the GPU (cublasDgemm on the same inputs widened to f64), relative
//   L2 error within the bound of the input/output types; NaN fails;
// - speed: Tessera and cuBLAS (cublasGemmEx, same types, f32 compute; tf32
//   tensor cores for f32 inputs, as our f32 mma) timed in the same run with
//   CUDA events, 3 warm-up calls, median of 10. Reported: TFLOP/s, the
//   ratio to cuBLAS and the fraction of the H200's dense bf16/f16 Tensor
//   Core peak (989 TFLOP/s, datasheet; tf32: 494).
// At 8192 each bf16 input is 128 MB, past the 60 MB L2. The block tile is
// read from the kernel name (gemm_<in>_<out>_MxNxK).
//
// With --tune, the kernel of each size is chosen among the candidates by
// the runtime's autotuner (runtime/Autotuner.h) on that size's real
// arguments, keyed by shapeBucket({m, n, k}) and cached in FILE (default:
// defaultCachePath()); then it is checked and timed as above. A candidate's
// config is its PTX file name from the tile on, '_' read as '.':
// gemm_tune_128x256x64_w8_s4_hints.ptx -> 128x256x64.w8.s4.hints. Before
// each size's line: one "tune" line per candidate when it was tuned, and
//   autotune size=N bucket=B choice=CONFIG source=tuned|cache ms=T
//
//===----------------------------------------------------------------------===//

#include "runtime/Autotuner.h"
#include "runtime/Runtime.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
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

/// One compiled GEMM and its block tile.
struct Kernel {
  std::string config; // its name in the autotuner's cache (--tune)
  std::string ptx;
  rt::KernelInfo info;
  long blockM = 0, blockN = 0, blockK = 0;
};

/// Reads a kernel; its block tile is in its name (gemm_<in>_<out>_MxNxK).
/// Returns "" or what is wrong.
std::string loadKernel(const std::string &ptxPath, const std::string &jsonPath,
                       Kernel &k) {
  k.ptx = readFile(ptxPath);
  std::string error;
  auto info = rt::fromJson(readFile(jsonPath), &error);
  if (!info || info->args.size() != 3)
    return "bad kernel info" + (jsonPath.empty() ? "" : " " + jsonPath) + ": " +
           error;
  k.info = *info;
  size_t tileAt = k.info.name.rfind('_');
  if (tileAt == std::string::npos ||
      std::sscanf(k.info.name.c_str() + tileAt + 1, "%ldx%ldx%ld", &k.blockM,
                  &k.blockN, &k.blockK) != 3)
    return "kernel name " + k.info.name + " does not end in _MxNxK";
  return "";
}

/// "dir/gemm_tune_128x256x64_w8_s4_hints.ptx" -> "128x256x64.w8.s4.hints":
/// the file name from its tile on, so that the cached choice does not
/// depend on where the bundle lies; the whole stem when it has no tile.
std::string configName(const std::string &ptxPath) {
  std::string stem = ptxPath.substr(ptxPath.rfind('/') + 1);
  if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, ".ptx") == 0)
    stem.resize(stem.size() - 4);
  for (size_t at = 0; at < stem.size(); ++at) {
    long m, n, k;
    if ((at == 0 || stem[at - 1] == '_') && std::isdigit(stem[at]) &&
        std::sscanf(stem.c_str() + at, "%ldx%ldx%ld", &m, &n, &k) == 3) {
      stem = stem.substr(at);
      break;
    }
  }
  std::replace(stem.begin(), stem.end(), '_', '.');
  return stem;
}

uint16_t toBF16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return uint16_t((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

float fromBF16(uint16_t h) {
  uint32_t x = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

/// f32 -> f16, round to nearest even (inputs here are normal and small).
uint16_t toF16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = int32_t((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffff;
  if (exp <= 0)
    return uint16_t(sign); // |f| < 2^-14 flushes to zero here
  uint32_t h = sign | (uint32_t(exp) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h;
  return uint16_t(h);
}

float fromF16(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  int32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t x;
  if (exp == 0x1f)
    x = sign | 0x7f800000 | (mant << 13);
  else if (exp == 0) {
    float f = std::ldexp(float(mant), -24);
    std::memcpy(&x, &f, 4);
    x |= sign;
  } else
    x = sign | (uint32_t(exp - 15 + 127) << 23) | (mant << 13);
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Host storage of one matrix in a kernel element type.
struct Matrix {
  rt::ScalarType type;
  std::vector<unsigned char> bytes;
  std::vector<double> values; // what the bytes hold, widened

  Matrix(rt::ScalarType type, size_t n)
      : type(type), bytes(n * rt::scalarTypeSize(type)), values(n) {}
  void set(size_t i, float f) {
    if (type == rt::ScalarType::bf16) {
      uint16_t h = toBF16(f);
      std::memcpy(&bytes[2 * i], &h, 2);
      values[i] = fromBF16(h);
    } else if (type == rt::ScalarType::f16) {
      uint16_t h = toF16(f);
      std::memcpy(&bytes[2 * i], &h, 2);
      values[i] = fromF16(h);
    } else {
      std::memcpy(&bytes[4 * i], &f, 4);
      values[i] = f;
    }
  }
  double get(size_t i) const {
    uint16_t h;
    float f;
    switch (type) {
    case rt::ScalarType::bf16:
      std::memcpy(&h, &bytes[2 * i], 2);
      return fromBF16(h);
    case rt::ScalarType::f16:
      std::memcpy(&h, &bytes[2 * i], 2);
      return fromF16(h);
    default:
      std::memcpy(&f, &bytes[4 * i], 4);
      return f;
    }
  }
};

cudaDataType cudaType(rt::ScalarType t) {
  return t == rt::ScalarType::bf16  ? CUDA_R_16BF
         : t == rt::ScalarType::f16 ? CUDA_R_16F
                                    : CUDA_R_32F;
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
  auto usage = [] {
    std::fprintf(stderr,
                 "usage: tessera-gemm-bench KERNEL.ptx KERNEL.json "
                 "[--sizes 4096,8192] [--no-time]\n"
                 "       tessera-gemm-bench --tune A.ptx:A.json,B.ptx:B.json,"
                 "... [--cache FILE] [--sizes 4096,8192] [--no-time]\n");
    return 2;
  };
  std::vector<std::string> positional;
  std::string tuneList, cachePath;
  std::vector<int64_t> sizes = {4096, 8192};
  bool timeIt = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--tune" && i + 1 < argc) {
      tuneList = argv[++i];
    } else if (a == "--cache" && i + 1 < argc) {
      cachePath = argv[++i];
    } else if (a.rfind("--", 0) != 0 && positional.size() < 2) {
      positional.push_back(a);
    } else if (a == "--sizes" && i + 1 < argc) {
      sizes.clear();
      std::stringstream ss(argv[++i]);
      std::string s;
      while (std::getline(ss, s, ','))
        sizes.push_back(std::stoll(s));
    } else if (a == "--no-time") {
      timeIt = false;
    } else {
      std::fprintf(stderr, "unexpected argument '%s'\n", a.c_str());
      return 2;
    }
  }
  const bool tune = !tuneList.empty();
  if (tune ? !positional.empty() : positional.size() != 2)
    return usage();
  if (!tune && !cachePath.empty()) {
    std::fprintf(stderr, "--cache goes with --tune\n");
    return 2;
  }
  // The kernels: one, or the candidates of --tune.
  std::vector<Kernel> kernels;
  if (!tune) {
    kernels.emplace_back();
    if (std::string error =
            loadKernel(positional[0], positional[1], kernels.back());
        !error.empty()) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
  } else {
    std::stringstream ss(tuneList);
    std::string item;
    while (std::getline(ss, item, ',')) {
      size_t colon = item.find(':');
      if (colon == std::string::npos) {
        std::fprintf(stderr, "--tune: '%s' is not PTX:JSON\n", item.c_str());
        return 2;
      }
      std::string ptxPath = item.substr(0, colon),
                  jsonPath = item.substr(colon + 1);
      if (!std::ifstream(ptxPath) || !std::ifstream(jsonPath)) {
        std::fprintf(stderr, "--tune: cannot read %s or %s\n", ptxPath.c_str(),
                     jsonPath.c_str());
        return 2;
      }
      Kernel k;
      if (std::string error = loadKernel(ptxPath, jsonPath, k);
          !error.empty()) {
        std::fprintf(stderr, "--tune: %s\n", error.c_str());
        return 2;
      }
      k.config = configName(ptxPath);
      kernels.push_back(std::move(k));
    }
    if (kernels.empty())
      return usage();
  }
  // The autotuner's key: the kernel without its tile (gemm_bf16_f32); the
  // candidates must agree on it, and so on their element types.
  const std::string &first = kernels[0].info.name;
  const std::string kernelKey = first.substr(0, first.rfind('_'));
  for (const Kernel &k : kernels)
    if (k.info.name.substr(0, k.info.name.rfind('_')) != kernelKey ||
        k.info.args[0].type != kernels[0].info.args[0].type ||
        k.info.args[1].type != kernels[0].info.args[1].type ||
        k.info.args[2].type != kernels[0].info.args[2].type) {
      std::fprintf(stderr, "--tune: %s (%s) is not the same GEMM as %s\n",
                   k.info.name.c_str(), k.config.c_str(), first.c_str());
      return 2;
    }
  const rt::ScalarType in = kernels[0].info.args[0].type,
                       out = kernels[0].info.args[2].type;
  const bool f32In = in == rt::ScalarType::f32;
  // Relative L2 bound: f32 accumulation of exact products (~sqrt(K) ulps of
  // f32) for 16-bit inputs; tf32 input rounding (2^-11) for f32 inputs;
  // plus the rounding of the output type.
  const double bound =
      (f32In ? 2e-3 : 1e-4) + (out == rt::ScalarType::f32   ? 0
                               : out == rt::ScalarType::f16 ? 1e-3
                                                            : 8e-3);

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
  std::optional<rt::Autotuner> tuner;
  if (!tune) {
    const rt::KernelInfo &info = kernels[0].info;
    std::printf(
        "device %s; kernel %s (%d warps, %d B shared, %zu tensor maps)\n",
        runtime->deviceName().c_str(), info.name.c_str(), info.numWarps,
        info.sharedBytes, info.tma.size());
  } else {
    tuner.emplace(*runtime,
                  cachePath.empty() ? rt::defaultCachePath() : cachePath);
    std::printf("device %s; autotuning %s among %zu candidates (cache %s)\n",
                runtime->deviceName().c_str(), kernelKey.c_str(),
                kernels.size(), tuner->cachePath().c_str());
    for (const Kernel &k : kernels)
      std::printf("  candidate %-28s %s (%d warps, %d B shared, %zu tensor "
                  "maps)\n",
                  k.config.c_str(), k.info.name.c_str(), k.info.numWarps,
                  k.info.sharedBytes, k.info.tma.size());
  }
  std::printf("%-6s %10s %10s %10s %10s %8s %8s %10s %8s\n", "size",
              "tessera ms", "cuBLAS ms", "tessera TF", "cuBLAS TF", "ratio",
              "of peak", "rel err", "bound");
  const double peak = f32In ? 494.0 : 989.0;
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1, 1);
  int failures = 0;
  for (int64_t n : sizes) {
    const int64_t m = n, k = n;
    Matrix ha(in, m * k), hb(in, k * n);
    for (int64_t i = 0; i < m * k; ++i)
      ha.set(i, dist(rng));
    for (int64_t i = 0; i < k * n; ++i)
      hb.set(i, dist(rng));
    const size_t cbytes = m * n * rt::scalarTypeSize(out);
    rt::DevicePtr a = 0, b = 0, c = 0, cref = 0, a64 = 0, b64 = 0, c64 = 0;
    if (!runtime->alloc(ha.bytes.size(), a) ||
        !runtime->alloc(hb.bytes.size(), b) || !runtime->alloc(cbytes, c) ||
        !runtime->alloc(m * n * 4, cref) || !runtime->alloc(m * k * 8, a64) ||
        !runtime->alloc(k * n * 8, b64) || !runtime->alloc(m * n * 8, c64) ||
        !runtime->copyToDevice(a, ha.bytes.data(), ha.bytes.size()) ||
        !runtime->copyToDevice(b, hb.bytes.data(), hb.bytes.size()) ||
        !runtime->copyToDevice(a64, ha.values.data(), m * k * 8) ||
        !runtime->copyToDevice(b64, hb.values.data(), k * n * 8)) {
      std::fprintf(stderr, "allocation failed at %lld\n", (long long)n);
      return 1;
    }
    auto gridOf = [&](const Kernel &kk) -> std::array<int64_t, 3> {
      return {(m + kk.blockM - 1) / kk.blockM, (n + kk.blockN - 1) / kk.blockN,
              1};
    };
    std::vector<rt::Arg> args = {rt::ViewArg{a, {m, k}, {k, 1}},
                                 rt::ViewArg{b, {k, n}, {n, 1}},
                                 rt::ViewArg{c, {m, n}, {n, 1}}};
    size_t chosen = 0;
    if (tune) {
      // Every candidate runs on these arguments (it writes c, poisoned
      // below).
      std::vector<rt::TuneCandidate> candidates;
      for (const Kernel &kk : kernels)
        candidates.push_back({kk.config, kk.ptx, kk.info, gridOf(kk)});
      const std::string bucket = rt::shapeBucket({m, n, k});
      rt::TuneReport report;
      rt::Status st =
          tuner->select(kernelKey, bucket, candidates, args, chosen, &report);
      for (const std::string &w : report.warnings)
        std::printf("warning: %s\n", w.c_str());
      if (!st) {
        std::printf("FAIL: %s\n", st.message.c_str());
        return 1;
      }
      for (const rt::CandidateTiming &t : report.candidates) {
        if (t.ok)
          std::printf("tune   %-6lld %-28s %10.3f ms %8.1f TF\n", (long long)n,
                      t.config.c_str(), t.ms, 2.0 * m * n * k / t.ms / 1e9);
        else
          std::printf("tune   %-6lld %-28s failed: %s\n", (long long)n,
                      t.config.c_str(),
                      t.error.substr(0, t.error.find('\n')).c_str());
      }
      std::printf(
          "autotune size=%lld bucket=%s choice=%s source=%s ms=%.3f%s\n",
          (long long)n, bucket.c_str(), report.config.c_str(),
          report.fromCache ? "cache" : "tuned", report.ms,
          report.fromCache ? (" date=" + report.date).c_str() : "");
    }
    const Kernel &kernel = kernels[chosen];
    const std::string &ptx = kernel.ptx;
    const rt::KernelInfo *info = &kernel.info;
    const std::array<int64_t, 3> grid = gridOf(kernel);
    // Poison the output (all-ones bytes: NaN in every float type).
    CHECK_CUDA(cudaMemset(reinterpret_cast<void *>(c), 0xff, cbytes));
    if (rt::Status st = runtime->launch(ptx, *info, grid, args, true); !st) {
      std::fprintf(stderr, "tessera GEMM failed: %s\n", st.message.c_str());
      return 1;
    }
    // The float64 reference on the GPU; cuBLAS is column-major:
    // C^T (n x m) = B^T (n x k) * A^T (k x m).
    double one64 = 1, zero64 = 0;
    if (cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m), int(k),
                    &one64, reinterpret_cast<double *>(b64), int(n),
                    reinterpret_cast<double *>(a64), int(k), &zero64,
                    reinterpret_cast<double *>(c64),
                    int(n)) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "cublasDgemm failed\n");
      return 1;
    }
    Matrix hc(out, m * n);
    std::vector<double> ref(m * n);
    (void)runtime->copyToHost(hc.bytes.data(), c, cbytes);
    (void)runtime->copyToHost(ref.data(), c64, m * n * 8);
    double num = 0, den = 0;
    bool nan = false;
    for (int64_t i = 0; i < m * n; ++i) {
      double v = hc.get(i);
      nan |= std::isnan(v);
      num += (v - ref[i]) * (v - ref[i]);
      den += ref[i] * ref[i];
    }
    double err =
        nan ? std::numeric_limits<double>::quiet_NaN() : std::sqrt(num / den);
    bool ok = !nan && err <= bound;
    failures += !ok;

    double tOurs = 0, tTheirs = 0;
    if (timeIt) {
      std::vector<double> ours, theirs;
      rt::Status st = runtime->time(
          [&] { return runtime->launch(ptx, *info, grid, args, false); }, 3, 10,
          ours);
      if (!st) {
        std::fprintf(stderr, "tessera GEMM failed: %s\n", st.message.c_str());
        return 1;
      }
      float one = 1, zero = 0;
      auto gemm = [&] {
        return cublasGemmEx(
            handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m), int(k), &one,
            reinterpret_cast<void *>(b), cudaType(in), int(n),
            reinterpret_cast<void *>(a), cudaType(in), int(k), &zero,
            reinterpret_cast<void *>(cref), CUDA_R_32F, int(n),
            f32In ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F,
            CUBLAS_GEMM_DEFAULT);
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
      tOurs = median(ours);
      tTheirs = median(theirs);
    }
    const double flops = 2.0 * m * n * k;
    const double tfOurs = tOurs ? flops / tOurs / 1e9 : 0,
                 tfTheirs = tTheirs ? flops / tTheirs / 1e9 : 0;
    std::printf("%-6lld %10.3f %10.3f %10.1f %10.1f %7.1f%% %7.1f%% %10.2e "
                "%8.0e %s\n",
                (long long)n, tOurs, tTheirs, tfOurs, tfTheirs,
                tfTheirs ? 100.0 * tfOurs / tfTheirs : 0, 100.0 * tfOurs / peak,
                err, bound, ok ? "ok" : "FAIL");
    for (rt::DevicePtr p : {a, b, c, cref, a64, b64, c64})
      (void)runtime->free(p);
  }
  cublasDestroy(handle);
  return failures ? 1 : 0;
}
