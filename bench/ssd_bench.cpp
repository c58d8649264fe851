//===- ssd_bench.cpp - the Mamba-2 SSD forward on the GPU: check and time -===//
//
//   tessera-ssd-bench --lib DIR [--batch 8] [--seqlen 4096] [--nheads 80]
//       [--headdim 64] [--dstate 128] [--ngroups 1] [--dtype bf16]
//       [--options layer|all|none|D,Dpc,z,bias,softplus,seq,h0,hT]
//       [--pairs 4] [--iters 20] [--no-time] [--segments 0]
//
// Runs ssd::forward (the public entry point, kernels from the library
// folder DIR) on fresh random inputs:
//   check: y and the final states poisoned with NaN first; after one
//     forward every element must be finite (all written, no NaN), and the
//     (batch, head) pairs sampled (the first, the last and random ones)
//     must match the float64 reference of the recurrence (whole sequence,
//     every channel) within the dtype's relative L2 bound: 1e-2 for bf16
//     and f16, 5e-3 for f32 inputs (tf32 Tensor Cores, docs/ssd.md).
//   time: CUDA events, 3 warm-up forwards, median of --iters; the bytes the
//     forward must move (inputs read once, y written once) and the time
//     that takes at the H200's measured 4.27 TB/s.
//   --segments: the split forward's segments (0: ssd::forward chooses,
//     with a workspace for them; 1: one walk over the sequence).
// Prints one "check" line (PASS/FAIL), one "time" line and one line of each
// kernel's time per call and share (bench/KernelTimes.h); exits 1 on FAIL.
//
//===----------------------------------------------------------------------===//

#include "bench/Half.h"
#include "bench/KernelTimes.h"
#include "kernels-src/ssd/SsdGpu.h"
#include "kernels-src/ssd/SsdReference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
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

struct Options {
  ssd::Shape shape{8, 4096, 80, 64, 128, 1};
  ssd::ElementType dtype = ssd::ElementType::bf16;
  std::string optionList = "layer";
  std::string lib;
  int pairs = 4, iters = 20;
  int64_t segments = 0;
  bool time = true;
};

/// A tensor on both sides: host values (as the device holds them, widened
/// to double) and the device copy.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<double> host;
  rt::DevicePtr ptr = 0;
  int bytes = 4;
  int64_t size() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};

} // namespace

int main(int argc, char **argv) {
  Options opt;
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
      opt.lib = next();
    else if (a == "--batch")
      opt.shape.batch = std::stoll(next());
    else if (a == "--seqlen")
      opt.shape.seqlen = std::stoll(next());
    else if (a == "--nheads")
      opt.shape.nheads = std::stoll(next());
    else if (a == "--headdim")
      opt.shape.headdim = std::stoll(next());
    else if (a == "--dstate")
      opt.shape.dstate = std::stoll(next());
    else if (a == "--ngroups")
      opt.shape.ngroups = std::stoll(next());
    else if (a == "--options")
      opt.optionList = next();
    else if (a == "--pairs")
      opt.pairs = std::stoi(next());
    else if (a == "--iters")
      opt.iters = std::stoi(next());
    else if (a == "--segments")
      opt.segments = std::stoll(next());
    else if (a == "--no-time")
      opt.time = false;
    else if (a == "--dtype") {
      std::string t = next();
      if (t == "bf16")
        opt.dtype = ssd::ElementType::bf16;
      else if (t == "f16")
        opt.dtype = ssd::ElementType::f16;
      else if (t == "f32")
        opt.dtype = ssd::ElementType::f32;
      else {
        std::fprintf(stderr, "error: --dtype is bf16, f16 or f32\n");
        return 2;
      }
    } else {
      std::fprintf(stderr, "error: unexpected argument %s\n", a.c_str());
      return 2;
    }
  }
  ssd::Options o;
  if (opt.lib.empty() || !ssd::parseOptionList(opt.optionList, o)) {
    std::fprintf(stderr, "usage: tessera-ssd-bench --lib DIR [shape] [--dtype "
                         "T] [--options LIST]\n");
    return 2;
  }
  rt::KernelLibrary lib;
  if (rt::Status st = lib.open(opt.lib); !st) {
    std::fprintf(stderr, "%s\n", st.message.c_str());
    return 2;
  }
  std::unique_ptr<rt::Runtime> runtime;
  if (rt::Status st = rt::Runtime::create(runtime); !st) {
    std::printf("SKIP: %s\n", st.message.c_str());
    return 0;
  }
  const ssd::Shape s = opt.shape;
  const int64_t Bt = s.batch, L = s.seqlen, H = s.nheads, P = s.headdim,
                N = s.dstate, G = s.ngroups;
  const int act = opt.dtype == ssd::ElementType::f32 ? 4 : 2;
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> unit(-1, 1), logDt(-6.9, -2.3),
      logA(0.0, 2.77);

  // Host values are rounded to what the device holds, so the reference
  // sees the same inputs.
  auto make = [&](std::vector<int64_t> shape, int bytes, auto fill) {
    Tensor t;
    t.shape = shape;
    t.bytes = bytes;
    const int64_t n = t.size();
    t.host.resize(n);
    std::vector<uint8_t> raw(size_t(n) * bytes);
    for (int64_t i = 0; i < n; ++i) {
      double v = fill(i);
      if (bytes == 2) {
        uint16_t h = toHalf(float(v), opt.dtype == ssd::ElementType::bf16);
        std::memcpy(raw.data() + i * 2, &h, 2);
        t.host[i] = fromHalf(h, opt.dtype == ssd::ElementType::bf16);
      } else {
        float f = float(v);
        std::memcpy(raw.data() + i * 4, &f, 4);
        t.host[i] = f;
      }
    }
    if (!runtime->alloc(raw.size(), t.ptr) ||
        !runtime->copyToDevice(t.ptr, raw.data(), raw.size())) {
      std::fprintf(stderr, "device allocation or copy failed\n");
      std::exit(1);
    }
    return t;
  };
  auto uniform = [&](int64_t) { return unit(rng); };
  // dt' = softplus(dt + bias) (or dt itself) lands in [1e-3, 0.1].
  Tensor bias = make(
      {H}, 4, [&](int64_t) { return o.hasDtBias ? 0.1 * unit(rng) : 0.0; });
  Tensor dt = make({Bt, L, H}, 4, [&](int64_t i) {
    double t = std::exp(logDt(rng));
    return o.dtSoftplus ? std::log(std::expm1(t)) - bias.host[i % H] : t;
  });
  Tensor x = make({Bt, L, H, P}, act, uniform);
  Tensor A = make({H}, 4, [&](int64_t) { return -std::exp(logA(rng)); });
  Tensor B = make({Bt, L, G, N}, act, uniform);
  Tensor C = make({Bt, L, G, N}, act, uniform);
  Tensor D, z, h0, seq;
  if (o.hasD)
    D = make(o.dPerChannel ? std::vector<int64_t>{H, P}
                           : std::vector<int64_t>{H},
             4, uniform);
  if (o.hasZ)
    z = make({Bt, L, H, P}, act, uniform);
  if (o.hasInitialStates)
    h0 = make({Bt, H, P, N}, 4, [&](int64_t) { return 0.5 * unit(rng); });
  std::vector<int32_t> seqIds;
  if (o.hasSeqIdx) {
    // Three packed sequences per row, boundaries at random positions.
    seqIds.resize(size_t(Bt * L));
    for (int64_t b = 0; b < Bt; ++b) {
      int64_t cut1 = int64_t(rng() % uint64_t(L)),
              cut2 = int64_t(rng() % uint64_t(L));
      if (cut1 > cut2)
        std::swap(cut1, cut2);
      for (int64_t t = 0; t < L; ++t)
        seqIds[b * L + t] = int32_t(t >= cut1) + int32_t(t >= cut2);
    }
    seq.shape = {Bt, L};
    if (!runtime->alloc(seqIds.size() * 4, seq.ptr) ||
        !runtime->copyToDevice(seq.ptr, seqIds.data(), seqIds.size() * 4)) {
      std::fprintf(stderr, "device allocation failed\n");
      return 1;
    }
  }
  // Outputs, poisoned with NaN (all bits set).
  auto poisoned = [&](std::vector<int64_t> shape, int bytes) {
    Tensor t;
    t.shape = shape;
    t.bytes = bytes;
    std::vector<uint8_t> raw(size_t(t.size()) * bytes, 0xff);
    if (!runtime->alloc(raw.size(), t.ptr) ||
        !runtime->copyToDevice(t.ptr, raw.data(), raw.size())) {
      std::fprintf(stderr, "device allocation failed\n");
      std::exit(1);
    }
    return t;
  };
  Tensor y = poisoned({Bt, L, H, P}, act), hT;
  if (o.returnFinalStates)
    hT = poisoned({Bt, H, P, N}, 4);

  auto dev = [](const Tensor &t) {
    return ssd::DeviceTensor{t.ptr, t.shape, {}};
  };
  ssd::DeviceArgs args;
  args.x = dev(x);
  args.dt = dev(dt);
  args.A = dev(A);
  args.B = dev(B);
  args.C = dev(C);
  args.y = dev(y);
  if (o.hasDtBias)
    args.dtBias = dev(bias);
  if (o.hasD)
    args.D = dev(D);
  if (o.hasZ)
    args.z = dev(z);
  if (o.hasInitialStates)
    args.initialStates = dev(h0);
  if (o.hasSeqIdx)
    args.seqIdx = dev(seq);
  if (o.returnFinalStates)
    args.finalStates = dev(hT);

  // The workspace of the split forward, for the segments it will run.
  const int64_t segments =
      opt.segments
          ? opt.segments
          : ssd::automaticSegments(*runtime, lib, s, o, opt.dtype, args);
  if (size_t bytes = ssd::workspaceBytes(s, o, opt.dtype, segments)) {
    Tensor w;
    if (!runtime->alloc(bytes, w.ptr)) {
      std::fprintf(stderr, "device allocation failed\n");
      return 1;
    }
    args.workspace = ssd::DeviceTensor{w.ptr, {int64_t(bytes)}, {}};
  }
  const ssd::Variant variant = ssd::fusedVariantFor(s, o, opt.dtype);
  const std::string name = segments > 1
                               ? ssd::segmentScanName(variant) + " (" +
                                     std::to_string(segments) + " segments)"
                               : ssd::fusedKernelName(variant);
  char shapeText[160];
  std::snprintf(shapeText, sizeof shapeText,
                "batch %lld seqlen %lld nheads %lld headdim %lld dstate %lld "
                "ngroups %lld %s options %s",
                (long long)Bt, (long long)L, (long long)H, (long long)P,
                (long long)N, (long long)G, ssd::name(opt.dtype),
                opt.optionList.c_str());
  if (rt::Status st =
          ssd::forward(*runtime, lib, s, o, opt.dtype, args, segments);
      !st || !(st = runtime->synchronize())) {
    std::printf("FAIL: %s: %s\n", shapeText, st.message.c_str());
    return 1;
  }

  // Every output element written and finite.
  std::vector<uint8_t> yRaw(size_t(y.size()) * act);
  (void)runtime->copyToHost(yRaw.data(), y.ptr, yRaw.size());
  auto yAt = [&](int64_t i) {
    if (act == 2) {
      uint16_t h;
      std::memcpy(&h, yRaw.data() + i * 2, 2);
      return fromHalf(h, opt.dtype == ssd::ElementType::bf16);
    }
    float f;
    std::memcpy(&f, yRaw.data() + i * 4, 4);
    return double(f);
  };
  int64_t bad = 0;
  for (int64_t i = 0; i < y.size(); ++i)
    bad += !std::isfinite(yAt(i));
  std::vector<float> hTHost;
  if (o.returnFinalStates) {
    hTHost.resize(size_t(hT.size()));
    (void)runtime->copyToHost(hTHost.data(), hT.ptr, hTHost.size() * 4);
    for (float v : hTHost)
      bad += !std::isfinite(v);
  }

  // Sampled (batch, head) pairs against the float64 recurrence.
  std::vector<std::pair<int64_t, int64_t>> pairs = {{0, 0}, {Bt - 1, H - 1}};
  while (int(pairs.size()) < opt.pairs)
    pairs.push_back(
        {int64_t(rng() % uint64_t(Bt)), int64_t(rng() % uint64_t(H))});
  const double bound = opt.dtype == ssd::ElementType::f32 ? 5e-3 : 1e-2;
  double worstY = 0, worstH = 0;
  for (auto [b, h] : pairs) {
    const int64_t g = h / (H / G);
    ssd::Shape one{1, L, 1, P, N, 1};
    ssd::HostInputs in;
    in.x.resize(L * P);
    in.dt.resize(L);
    in.B.resize(L * N);
    in.C.resize(L * N);
    for (int64_t t = 0; t < L; ++t) {
      in.dt[t] = dt.host[(b * L + t) * H + h];
      for (int64_t p = 0; p < P; ++p)
        in.x[t * P + p] = x.host[((b * L + t) * H + h) * P + p];
      for (int64_t n = 0; n < N; ++n) {
        in.B[t * N + n] = B.host[((b * L + t) * G + g) * N + n];
        in.C[t * N + n] = C.host[((b * L + t) * G + g) * N + n];
      }
    }
    in.A = {A.host[h]};
    if (o.hasDtBias)
      in.dtBias = {bias.host[h]};
    if (o.hasD) {
      if (o.dPerChannel)
        in.D.assign(D.host.begin() + h * P, D.host.begin() + (h + 1) * P);
      else
        in.D = {D.host[h]};
    }
    if (o.hasZ) {
      in.z.resize(L * P);
      for (int64_t t = 0; t < L; ++t)
        for (int64_t p = 0; p < P; ++p)
          in.z[t * P + p] = z.host[((b * L + t) * H + h) * P + p];
    }
    if (o.hasInitialStates)
      in.initialStates.assign(h0.host.begin() + (b * H + h) * P * N,
                              h0.host.begin() + (b * H + h + 1) * P * N);
    if (o.hasSeqIdx)
      in.seqIdx.assign(seqIds.begin() + b * L, seqIds.begin() + (b + 1) * L);
    ssd::HostOutputs ref = ssd::reference(one, o, in);
    double num = 0, den = 0;
    for (int64_t t = 0; t < L; ++t)
      for (int64_t p = 0; p < P; ++p) {
        double got = yAt(((b * L + t) * H + h) * P + p),
               want = ref.y[t * P + p];
        num += (got - want) * (got - want);
        den += want * want;
      }
    worstY = std::max(worstY, std::sqrt(num / std::max(den, 1e-300)));
    if (o.returnFinalStates) {
      num = den = 0;
      for (int64_t i = 0; i < P * N; ++i) {
        double got = hTHost[(b * H + h) * P * N + i], want = ref.finalStates[i];
        num += (got - want) * (got - want);
        den += want * want;
      }
      worstH = std::max(worstH, std::sqrt(num / std::max(den, 1e-300)));
    }
  }
  const bool pass = bad == 0 && worstY < bound && worstH < bound &&
                    std::isfinite(worstY) && std::isfinite(worstH);
  char statesText[48] = "";
  if (o.returnFinalStates)
    std::snprintf(statesText, sizeof statesText, ", final states %.2e", worstH);
  std::printf("check %s: %s; y rel L2 %.2e%s over %zu (batch, head) pairs "
              "(bound %.0e); %lld non-finite -> %s\n",
              shapeText, name.c_str(), worstY, statesText, pairs.size(), bound,
              (long long)bad, pass ? "PASS" : "FAIL");
  if (!pass) {
    std::printf("FAIL: %s\n", shapeText);
    return 1;
  }
  if (!opt.time)
    return 0;
  std::vector<double> millis;
  if (rt::Status st = runtime->time(
          [&] {
            return ssd::forward(*runtime, lib, s, o, opt.dtype, args, segments);
          },
          3, opt.iters, millis);
      !st) {
    std::printf("FAIL: timing: %s\n", st.message.c_str());
    return 1;
  }
  // At least: x, B, C, dt (and z) read once, y written once, the states.
  double bytes = double(act) * (2 * Bt * L * H * P + 2 * Bt * L * G * N) +
                 4.0 * Bt * L * H;
  if (o.hasZ)
    bytes += double(act) * Bt * L * H * P;
  bytes += 4.0 * Bt * H * P * N *
           (int(o.hasInitialStates) + int(o.returnFinalStates));
  const double floorMs = bytes / 4.27e12 * 1e3, ms = median(millis);
  std::printf("time %s on %s: forward %.3f ms (median of %d); %.1f MB moved "
              "at least -> HBM floor %.3f ms (%.1f%% of it)\n",
              shapeText, runtime->deviceName().c_str(), ms, opt.iters,
              bytes / 1e6, floorMs, 100.0 * floorMs / ms);
  if (!bench::printKernelTimes(*runtime, [&] {
        return ssd::forward(*runtime, lib, s, o, opt.dtype, args, segments);
      }))
    return 1;
  return 0;
}
