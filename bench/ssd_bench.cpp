//===- ssd_bench.cpp - time the compiled Mamba-2 SSD forward on the GPU ---===//
//
//   tessera-ssd-bench SSD.ptx SSD.json [--batch 8] [--seqlen 4096]
//                     [--nheads 80] [--ngroups 1]
//
// Times the three SSD kernels of `tessera print ssd-layer` (D per head,
// dt_bias, softplus; headdim, dstate and chunk from the kernel names),
// compiled with tile-compile, on fresh random inputs: CUDA events, 3
// warm-up forwards, median of 10, for the whole forward and each kernel.
// Prints the bytes the forward must move at least (inputs read once, y
// written once) and the time that takes at the H200's measured 4.27 TB/s.
// Correctness is checked elsewhere (the GPU cases run each kernel against
// the interpreter); this is the speed of the same PTX at real shapes.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runtime.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace tessera;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

uint16_t toBF16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return uint16_t((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: tessera-ssd-bench SSD.ptx SSD.json [--batch "
                         "B] [--seqlen L] [--nheads H] [--ngroups G]\n");
    return 2;
  }
  std::ifstream ptxFile(argv[1]), infoFile(argv[2]);
  std::stringstream ptxText;
  ptxText << ptxFile.rdbuf();
  const std::string ptx = ptxText.str();
  int64_t batch = 8, seqlen = 4096, nheads = 80, ngroups = 1;
  for (int i = 3; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    int64_t v = std::stoll(argv[i + 1]);
    if (a == "--batch")
      batch = v;
    else if (a == "--seqlen")
      seqlen = v;
    else if (a == "--nheads")
      nheads = v;
    else if (a == "--ngroups")
      ngroups = v;
    else {
      std::fprintf(stderr, "unexpected argument %s\n", a.c_str());
      return 2;
    }
  }
  // One kernel description per line: chunk_state, state_passing, chunk_scan.
  std::vector<rt::KernelInfo> infos(3);
  std::string line, error;
  bool found[3] = {false, false, false};
  const char *prefixes[3] = {"ssd_chunk_state_", "ssd_state_passing_",
                             "ssd_chunk_scan_"};
  while (std::getline(infoFile, line)) {
    if (line.empty())
      continue;
    std::string object = line;
    while (object.find('}') == std::string::npos ||
           std::count(object.begin(), object.end(), '{') !=
               std::count(object.begin(), object.end(), '}')) {
      if (!std::getline(infoFile, line))
        break;
      object += "\n" + line;
    }
    auto info = rt::fromJson(object, &error);
    if (!info) {
      std::fprintf(stderr, "bad kernel info: %s\n", error.c_str());
      return 2;
    }
    for (int k = 0; k < 3; ++k)
      if (info->name.rfind(prefixes[k], 0) == 0) {
        infos[k] = *info;
        found[k] = true;
      }
  }
  if (!found[0] || !found[1] || !found[2]) {
    std::fprintf(stderr, "the info file must describe the three SSD kernels\n");
    return 2;
  }
  // ..._q<chunk>_p<headdim>_n<dstate>_...
  long chunk = 0, headdim = 0, dstate = 0;
  const std::string &name = infos[2].name;
  size_t q = name.find("_q");
  if (q == std::string::npos || std::sscanf(name.c_str() + q, "_q%ld_p%ld_n%ld",
                                            &chunk, &headdim, &dstate) != 3) {
    std::fprintf(stderr, "cannot read chunk/headdim/dstate from %s\n",
                 name.c_str());
    return 2;
  }
  std::unique_ptr<rt::Runtime> runtime;
  if (rt::Status st = rt::Runtime::create(runtime); !st) {
    std::printf("SKIP: %s\n", st.message.c_str());
    return 0;
  }
  const int64_t B = batch, L = seqlen, H = nheads, P = headdim, N = dstate,
                G = ngroups, Q = chunk, nc = (L + Q - 1) / Q;
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> unit(-1, 1), logDt(-6.9f, -2.3f),
      logA(0.0f, 2.77f);
  // Device buffers: bf16 activations, f32 parameters and intermediates.
  struct Buf {
    rt::DevicePtr ptr = 0;
    std::vector<int64_t> shape;
  };
  auto alloc = [&](std::vector<int64_t> shape, int bytes, bool bf16Random,
                   auto fill) -> Buf {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    Buf b{0, shape};
    if (!runtime->alloc(n * bytes, b.ptr)) {
      std::fprintf(stderr, "allocation failed\n");
      std::exit(1);
    }
    if (bytes == 2) {
      std::vector<uint16_t> h(n);
      for (auto &v : h)
        v = toBF16(unit(rng));
      (void)bf16Random;
      (void)runtime->copyToDevice(b.ptr, h.data(), n * 2);
    } else {
      std::vector<float> h(n);
      for (auto &v : h)
        v = fill();
      (void)runtime->copyToDevice(b.ptr, h.data(), n * 4);
    }
    return b;
  };
  auto zero = [] { return 0.0f; };
  Buf x = alloc({B, L, H, P}, 2, true, zero);
  Buf dt = alloc({B, L, H}, 4, false, [&] {
    float t = std::exp(logDt(rng));
    return std::log(std::expm1(t));
  });
  Buf A = alloc({H}, 4, false, [&] { return -std::exp(logA(rng)); });
  Buf Bm = alloc({B, L, G, N}, 2, true, zero);
  Buf C = alloc({B, L, G, N}, 2, true, zero);
  Buf D = alloc({H}, 4, false, [&] { return unit(rng); });
  Buf bias = alloc({H}, 4, false, zero);
  Buf y = alloc({B, L, H, P}, 2, true, zero);
  Buf states = alloc({B, nc, H, P, N}, 4, false, zero);
  Buf prev = alloc({B, nc, H, P, N}, 4, false, zero);
  Buf dAcs = alloc({B, H, nc, Q}, 4, false, zero);
  Buf dtOut = alloc({B, H, nc, Q}, 4, false, zero);
  auto view = [](const Buf &b) {
    std::vector<int64_t> strides(b.shape.size(), 1);
    for (int64_t d = int64_t(b.shape.size()) - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * b.shape[d + 1];
    return rt::Arg(rt::ViewArg{b.ptr, b.shape, strides});
  };
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<rt::Arg> a1 = {view(x),      view(dt),   view(A),    view(Bm),
                             view(bias),   -inf,       inf,        H / G,
                             view(states), view(dAcs), view(dtOut)};
  std::vector<rt::Arg> a2 = {view(states), view(dAcs), view(prev)};
  std::vector<rt::Arg> a3 = {view(x),    view(Bm),    view(C),
                             view(dAcs), view(dtOut), view(prev),
                             view(D),    H / G,       view(y)};
  const std::array<int64_t, 3> grids[3] = {{nc, H, B}, {H, B, 1}, {nc, H, B}};
  const std::vector<rt::Arg> *args[3] = {&a1, &a2, &a3};
  auto launch = [&](int k) {
    return runtime->launch(ptx, infos[k], grids[k], *args[k], false);
  };
  for (int k = 0; k < 3; ++k)
    if (rt::Status st = launch(k); !st || !runtime->synchronize()) {
      std::fprintf(stderr, "%s failed: %s\n", infos[k].name.c_str(),
                   st.message.c_str());
      return 1;
    }
  std::vector<double> whole, parts[3];
  rt::Status st = runtime->time(
      [&] {
        for (int k = 0; k < 3; ++k)
          if (rt::Status s = launch(k); !s)
            return s;
        return rt::Status::success();
      },
      3, 10, whole);
  for (int k = 0; k < 3 && st; ++k)
    st = runtime->time([&] { return launch(k); }, 3, 10, parts[k]);
  if (!st) {
    std::fprintf(stderr, "timing failed: %s\n", st.message.c_str());
    return 1;
  }
  // At least: x, B, C, dt read once, y written once.
  const double bytes =
      2.0 * (2 * B * L * H * P + 2 * B * L * G * N) + 4.0 * B * L * H;
  const double floorMs = bytes / 4.27e12 * 1e3;
  std::printf("device %s\n", runtime->deviceName().c_str());
  std::printf("shape batch %lld seqlen %lld nheads %lld headdim %lld dstate "
              "%lld ngroups %lld chunk %lld (bf16; D, dt_bias, softplus)\n",
              (long long)B, (long long)L, (long long)H, (long long)P,
              (long long)N, (long long)G, (long long)Q);
  std::printf("forward %.3f ms; chunk_state %.3f, state_passing %.3f, "
              "chunk_scan %.3f ms; minimum bytes %.1f MB -> HBM floor %.3f ms "
              "(%.1f%% of it)\n",
              median(whole), median(parts[0]), median(parts[1]),
              median(parts[2]), bytes / 1e6, floorMs,
              100.0 * floorMs / median(whole));
  return 0;
}
