//===- conv_bench.cpp - the long convolution on the GPU: check, time, cuFFT
//-===//
//
//   tessera-conv-bench --lib DIR [--batch 16] [--channels 768]
//       [--seqlen 1024] [--dtype bf16|f16] [--gates none|pre,post]
//       [--input random|constant|impulse] [--rows 2] [--iters 20]
//       [--no-time] [--no-baseline]
//
// Runs conv::prepare and conv::convolve (the public entry points, kernels
// from the library folder DIR) on fresh inputs:
//   check: y poisoned with NaN first; after one convolution every element
//     must be finite, and sampled rows (the first, the last, random ones)
//     must match the float64 direct causal convolution within the dtype's
//     relative L2 bound (2e-3 f16, 1e-2 bf16). Inputs: random uniform, all
//     ones (constant) or a unit impulse at t = 0 (the output is then the
//     kernel itself); the kernel decays along the sequence.
//   time: CUDA events, 3 warm-ups, median of --iters, for convolve and for
//     the cuFFT baseline in the same run: the convolution as PyTorch users
//     write it (cast u to f32, rfft of u zero-padded to 2 L, product with
//     the precomputed spectrum, irfft, first L outputs, cast back; gates
//     applied in the casts), its elementwise kernels compiled by tile-compile
//     (conv::buildTorchBaseline) into the same library, every step timed.
//     The floor: reading u (and the gates) and writing y once at 4.27 TB/s.
//     After our time, each kernel's time per call and share
//     (bench/KernelTimes.h).
//
//===----------------------------------------------------------------------===//

#include "bench/Half.h"
#include "bench/KernelTimes.h"
#include "kernels-src/conv/ConvGpu.h"

#include <cuda_runtime.h>
#include <cufft.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace tessera;
using bench::fromHalf;
using bench::toHalf;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

#define CHECK_CUDA(x)                                                          \
  do {                                                                         \
    if (cudaError_t e = (x); e != cudaSuccess) {                               \
      std::printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e));                \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
#define CHECK_CUFFT(x)                                                         \
  do {                                                                         \
    if (cufftResult r = (x); r != CUFFT_SUCCESS) {                             \
      std::printf("FAIL: %s: cuFFT error %d\n", #x, int(r));                   \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

} // namespace

int main(int argc, char **argv) {
  int64_t B = 16, H = 768, L = 1024;
  std::string lib, gatesText = "none", input = "random", dtypeText = "bf16";
  int rows = 2, iters = 20;
  bool time = true, baseline = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--lib")
      lib = next();
    else if (a == "--batch")
      B = std::stoll(next());
    else if (a == "--channels")
      H = std::stoll(next());
    else if (a == "--seqlen")
      L = std::stoll(next());
    else if (a == "--dtype")
      dtypeText = next();
    else if (a == "--gates")
      gatesText = next();
    else if (a == "--input")
      input = next();
    else if (a == "--rows")
      rows = std::stoi(next());
    else if (a == "--iters")
      iters = std::stoi(next());
    else if (a == "--no-time")
      time = false;
    else if (a == "--no-baseline")
      baseline = false;
    else {
      std::fprintf(stderr, "error: unexpected argument %s\n", a.c_str());
      return 2;
    }
  }
  if (lib.empty() || (dtypeText != "bf16" && dtypeText != "f16") ||
      (gatesText != "none" && gatesText != "pre,post") ||
      (input != "random" && input != "constant" && input != "impulse")) {
    std::fprintf(stderr, "usage: tessera-conv-bench --lib DIR [--batch B] "
                         "[--channels H] [--seqlen L] [--dtype bf16|f16] "
                         "[--gates none|pre,post] [--input "
                         "random|constant|impulse]\n");
    return 2;
  }
  const bool bf16 = dtypeText == "bf16";
  const conv::ElementType dtype =
      bf16 ? conv::ElementType::bf16 : conv::ElementType::f16;
  const conv::Gates gates{gatesText == "pre,post", gatesText == "pre,post"};
  rt::KernelLibrary library;
  if (rt::Status st = library.open(lib); !st) {
    std::fprintf(stderr, "%s\n", st.message.c_str());
    return 2;
  }
  std::unique_ptr<rt::Runtime> runtime;
  if (rt::Status st = rt::Runtime::create(runtime); !st) {
    std::printf("SKIP: %s\n", st.message.c_str());
    return 0;
  }
  const conv::Shape shape{B, H, L};
  const int64_t M = conv::fftSize(L), n = B * H * L;
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> unit(-1, 1), gate(0.5, 1.5);
  std::normal_distribution<double> normal;

  auto alloc = [&](size_t bytes) {
    rt::DevicePtr p = 0;
    if (!runtime->alloc(bytes, p)) {
      std::printf("FAIL: device allocation of %zu bytes\n", bytes);
      std::exit(1);
    }
    return p;
  };
  // A (batch, channels, seqlen) activation: host values as the device holds
  // them, widened to double.
  auto activation = [&](auto fill, std::vector<double> &host) {
    std::vector<uint16_t> raw(static_cast<size_t>(n));
    host.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i) {
      raw[i] = toHalf(float(fill(i)), bf16);
      host[i] = fromHalf(raw[i], bf16);
    }
    rt::DevicePtr p = alloc(raw.size() * 2);
    (void)runtime->copyToDevice(p, raw.data(), raw.size() * 2);
    return DeviceTensor{p, {B, H, L}, {}};
  };
  std::vector<double> u, pre, post, k(size_t(H * L));
  DeviceTensor du = activation(
      [&](int64_t i) {
        return input == "random"     ? unit(rng)
               : input == "constant" ? 1.0
                                     : (i % L == 0 ? 1.0 : 0.0);
      },
      u);
  DeviceTensor dpre, dpost;
  if (gates.pre)
    dpre = activation([&](int64_t) { return gate(rng); }, pre);
  if (gates.post)
    dpost = activation([&](int64_t) { return gate(rng); }, post);
  // A kernel decaying along the sequence (as in Hyena), in f32.
  std::vector<float> kf(size_t(H * L));
  for (int64_t h = 0; h < H; ++h)
    for (int64_t t = 0; t < L; ++t) {
      kf[h * L + t] = float(normal(rng) * std::exp(-4.0 * t / L) / 8.0);
      k[h * L + t] = kf[h * L + t];
    }
  DeviceTensor dk{alloc(kf.size() * 4), {H, L}, {}};
  (void)runtime->copyToDevice(dk.ptr, kf.data(), kf.size() * 4);
  DeviceTensor spectrum{alloc(size_t(H * 4 * M) * 4), {H, 4, M}, {}};
  if (rt::Status st = conv::prepare(*runtime, shape, dk, spectrum); !st) {
    std::printf("FAIL: prepare: %s\n", st.message.c_str());
    return 1;
  }
  std::vector<uint16_t> poison(static_cast<size_t>(n), 0xffff);
  DeviceTensor dy{alloc(size_t(n) * 2), {B, H, L}, {}};
  (void)runtime->copyToDevice(dy.ptr, poison.data(), poison.size() * 2);
  conv::ConvArgs args;
  args.u = du;
  args.spectrum = spectrum;
  args.pre = dpre;
  args.post = dpost;
  args.y = dy;
  args.workspaceSize = conv::workspaceBytes(shape, gates);
  if (args.workspaceSize)
    args.workspace = alloc(args.workspaceSize);

  char text[160];
  std::snprintf(text, sizeof text,
                "batch %lld channels %lld seqlen %lld %s gates %s input %s",
                (long long)B, (long long)H, (long long)L, dtypeText.c_str(),
                gatesText.c_str(), input.c_str());
  if (rt::Status st =
          conv::convolve(*runtime, library, shape, dtype, gates, args);
      !st || !(st = runtime->synchronize())) {
    std::printf("FAIL: %s: %s\n", text, st.message.c_str());
    return 1;
  }
  std::vector<uint16_t> yRaw(static_cast<size_t>(n));
  (void)runtime->copyToHost(yRaw.data(), dy.ptr, yRaw.size() * 2);
  int64_t bad = 0;
  for (uint16_t v : yRaw)
    bad += !std::isfinite(fromHalf(v, bf16));

  // Sampled rows against the float64 direct causal convolution.
  std::vector<int64_t> picked = {0, B * H - 1};
  while (int(picked.size()) < rows)
    picked.push_back(int64_t(rng() % uint64_t(B * H)));
  double worst = 0;
  for (int64_t r : picked) {
    const int64_t h = r % H;
    std::vector<double> x(static_cast<size_t>(L));
    for (int64_t t = 0; t < L; ++t)
      x[t] = u[r * L + t] * (gates.pre ? pre[r * L + t] : 1.0);
    double num = 0, den = 0;
    for (int64_t t = 0; t < L; ++t) {
      double acc = 0;
      for (int64_t s = 0; s <= t; ++s)
        acc += k[h * L + s] * x[t - s];
      if (gates.post)
        acc *= post[r * L + t];
      double got = fromHalf(yRaw[r * L + t], bf16);
      num += (got - acc) * (got - acc);
      den += acc * acc;
    }
    worst = std::max(worst, std::sqrt(num / std::max(den, 1e-300)));
  }
  const double bound = bf16 ? 1e-2 : 2e-3;
  const bool pass = bad == 0 && worst < bound && std::isfinite(worst);
  std::printf("check %s: rel L2 %.2e over %zu rows (bound %.0e); %lld "
              "non-finite -> %s\n",
              text, worst, picked.size(), bound, (long long)bad,
              pass ? "PASS" : "FAIL");
  if (!pass) {
    std::printf("FAIL: %s\n", text);
    return 1;
  }
  if (!time)
    return 0;

  std::vector<double> ours;
  if (rt::Status st = runtime->time(
          [&] {
            return conv::convolve(*runtime, library, shape, dtype, gates, args);
          },
          3, iters, ours);
      !st) {
    std::printf("FAIL: timing: %s\n", st.message.c_str());
    return 1;
  }
  const double bytes = 2.0 * n * (2 + int(gates.pre) + int(gates.post));
  const double floorMs = bytes / 4.27e12 * 1e3, ms = median(ours);
  std::printf("time %s on %s: convolve %.3f ms (median of %d); %.1f MB "
              "moved at least -> HBM floor %.3f ms (%.1f%% of it)\n",
              text, runtime->deviceName().c_str(), ms, iters, bytes / 1e6,
              floorMs, 100.0 * floorMs / ms);
  if (!bench::printKernelTimes(*runtime, [&] {
        return conv::convolve(*runtime, library, shape, dtype, gates, args);
      }))
    return 1;
  if (!baseline)
    return 0;

  // The cuFFT baseline: x = pre * u padded (rows, 2L) f32, X = rfft(x)
  // (rows, L + 1) complex, X *= K, x = irfft(X), y = post * x[:, :L] / 2L.
  const int64_t R = B * H, N2 = 2 * L, F = L + 1;
  const std::string d = dtypeText;
  const std::string *ptx[3];
  const rt::KernelInfo *info[3];
  const std::string names[3] = {
      "fftconv_cast_pad_" + d + (gates.pre ? "_pre" : ""), "fftconv_mul",
      "fftconv_cast_back_" + d + (gates.post ? "_post" : "")};
  for (int i = 0; i < 3; ++i)
    if (rt::Status st = library.find(names[i], ptx[i], info[i]); !st) {
      std::printf("FAIL: baseline: %s\n", st.message.c_str());
      return 1;
    }
  rt::DevicePtr x = alloc(size_t(R * N2) * 4), X = alloc(size_t(R * F) * 8),
                K = alloc(size_t(H * F) * 8);
  cufftHandle fwd, inv, kplan;
  CHECK_CUFFT(cufftPlan1d(&fwd, int(N2), CUFFT_R2C, int(R)));
  CHECK_CUFFT(cufftPlan1d(&inv, int(N2), CUFFT_C2R, int(R)));
  CHECK_CUFFT(cufftPlan1d(&kplan, int(N2), CUFFT_R2C, int(H)));
  {
    // The precomputed spectrum K = rfft(k padded to 2L) (untimed).
    std::vector<float> kp(size_t(H * N2), 0.0f);
    for (int64_t h = 0; h < H; ++h)
      std::copy(kf.begin() + h * L, kf.begin() + (h + 1) * L,
                kp.begin() + h * N2);
    rt::DevicePtr kd = alloc(kp.size() * 4);
    (void)runtime->copyToDevice(kd, kp.data(), kp.size() * 4);
    CHECK_CUFFT(cufftExecR2C(kplan, reinterpret_cast<cufftReal *>(kd),
                             reinterpret_cast<cufftComplex *>(K)));
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  auto view2 = [](rt::DevicePtr p, int64_t rowsN, int64_t cols) {
    return rt::Arg(rt::ViewArg{p, {rowsN, cols}, {cols, 1}});
  };
  auto view3 = [](rt::DevicePtr p, int64_t rowsN, int64_t cols) {
    return rt::Arg(rt::ViewArg{p, {rowsN, cols, 2}, {2 * cols, 2, 1}});
  };
  DeviceTensor dy2{alloc(size_t(n) * 2), {B, H, L}, {}};
  auto runBaseline = [&]() -> rt::Status {
    std::vector<rt::Arg> a1 = {view2(du.ptr, R, L)};
    if (gates.pre)
      a1.push_back(view2(dpre.ptr, R, L));
    a1.push_back(view2(x, R, N2));
    if (rt::Status st = runtime->launch(*ptx[0], *info[0],
                                        {(N2 + 1023) / 1024, R, 1}, a1, false);
        !st)
      return st;
    if (cufftExecR2C(fwd, reinterpret_cast<cufftReal *>(x),
                     reinterpret_cast<cufftComplex *>(X)) != CUFFT_SUCCESS)
      return rt::Status::error("cufftExecR2C failed");
    if (rt::Status st = runtime->launch(
            *ptx[1], *info[1], {(F + 1023) / 1024, R, 1},
            {view3(X, R, F), view3(K, H, F), rt::Arg(int64_t(H))}, false);
        !st)
      return st;
    if (cufftExecC2R(inv, reinterpret_cast<cufftComplex *>(X),
                     reinterpret_cast<cufftReal *>(x)) != CUFFT_SUCCESS)
      return rt::Status::error("cufftExecC2R failed");
    std::vector<rt::Arg> a3 = {
        rt::ViewArg{x, {R, L}, {N2, 1}}}; // the first L of each 2L row
    if (gates.post)
      a3.push_back(view2(dpost.ptr, R, L));
    a3.push_back(rt::Arg(1.0 / double(N2)));
    a3.push_back(view2(dy2.ptr, R, L));
    return runtime->launch(*ptx[2], *info[2], {(L + 1023) / 1024, R, 1}, a3,
                           false);
  };
  if (rt::Status st = runBaseline(); !st || !(st = runtime->synchronize())) {
    std::printf("FAIL: baseline: %s\n", st.message.c_str());
    return 1;
  }
  // The baseline computes the same y (a sanity check of the comparison).
  std::vector<uint16_t> y2(static_cast<size_t>(n));
  (void)runtime->copyToHost(y2.data(), dy2.ptr, y2.size() * 2);
  double num = 0, den = 0;
  for (int64_t i = 0; i < n; ++i) {
    double a = fromHalf(y2[i], bf16), b = fromHalf(yRaw[i], bf16);
    num += (a - b) * (a - b);
    den += b * b;
  }
  std::vector<double> base;
  cudaEvent_t e0, e1;
  CHECK_CUDA(cudaEventCreate(&e0));
  CHECK_CUDA(cudaEventCreate(&e1));
  for (int i = 0; i < 3 + iters; ++i) {
    CHECK_CUDA(cudaEventRecord(e0));
    if (rt::Status st = runBaseline(); !st) {
      std::printf("FAIL: baseline: %s\n", st.message.c_str());
      return 1;
    }
    CHECK_CUDA(cudaEventRecord(e1));
    CHECK_CUDA(cudaEventSynchronize(e1));
    float msb = 0;
    CHECK_CUDA(cudaEventElapsedTime(&msb, e0, e1));
    if (i >= 3)
      base.push_back(msb);
  }
  const double bms = median(base);
  std::printf("baseline %s: cuFFT path %.3f ms (median of %d; rel L2 vs "
              "ours %.1e); ours %.3f ms -> %.2fx faster\n",
              text, bms, iters, std::sqrt(num / std::max(den, 1e-300)), ms,
              bms / ms);
  return 0;
}
