//===- gpu_run.cpp - replay recorded kernel runs on the GPU ----------------===//
//
//   tessera-gpu-run CASES_DIR [--filter SUBSTRING]
//
// Runs every case folder under CASES_DIR (see GpuCase.h) through the
// runtime: inputs uploaded, outputs poisoned (all bits set: NaN), the
// kernel launched on its grid, outputs compared with the expected float64
// values by relative L2 (NaN or unwritten output never passes). Prints one
// line per case and a summary; exits 1 if any case fails, 0 with a SKIP
// line when there is no driver or GPU.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runtime.h"
#include "test/gpu/GpuCase.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace tessera;
namespace fs = std::filesystem;

namespace {

struct Outcome {
  bool ok = false;
  double error = 0;
  std::string message;
};

Outcome runCase(rt::Runtime &runtime, const gpucase::Case &c) {
  Outcome out;
  std::vector<rt::DevicePtr> buffers(c.args.size(), 0);
  std::vector<rt::Arg> args;
  auto release = [&] {
    for (rt::DevicePtr p : buffers)
      if (p)
        (void)runtime.free(p);
  };
  for (size_t i = 0; i < c.args.size(); ++i) {
    const gpucase::Arg &a = c.args[i];
    if (!a.isView) {
      if (a.scalarType == rt::ScalarType::f32 ||
          a.scalarType == rt::ScalarType::f64)
        args.push_back(a.scalar);
      else
        args.push_back(int64_t(a.scalar));
      continue;
    }
    const gpucase::ViewData &v = a.view;
    int64_t numel = 1;
    for (int64_t d : v.shape)
      numel *= d;
    int size = rt::scalarTypeSize(v.type);
    size_t bytes = size_t(std::max<int64_t>(numel, 1) * size);
    if (rt::Status st = runtime.alloc(bytes, buffers[i]); !st) {
      out.message = st.message;
      release();
      return out;
    }
    std::vector<unsigned char> host(bytes, 0xff); // poison: NaN everywhere
    for (size_t k = 0; k < v.input.size(); ++k) {
      uint64_t bits = gpucase::encode(v.type, v.input[k]);
      std::memcpy(&host[k * size], &bits, size);
    }
    if (rt::Status st = runtime.copyToDevice(buffers[i], host.data(), bytes);
        !st) {
      out.message = st.message;
      release();
      return out;
    }
    rt::ViewArg view;
    view.data = buffers[i];
    view.sizes = v.shape;
    view.strides.assign(v.shape.size(), 1);
    for (int d = int(v.shape.size()) - 2; d >= 0; --d)
      view.strides[d] = view.strides[d + 1] * v.shape[d + 1];
    args.push_back(view);
  }
  if (rt::Status st = runtime.launch(c.ptx, c.info, c.grid, args); !st) {
    out.message = st.message;
    release();
    return out;
  }
  out.ok = true;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const gpucase::Arg &a = c.args[i];
    if (!a.isView || a.view.expected.empty())
      continue;
    const gpucase::ViewData &v = a.view;
    int size = rt::scalarTypeSize(v.type);
    std::vector<unsigned char> host(v.expected.size() * size);
    if (rt::Status st = runtime.copyToHost(host.data(), buffers[i], host.size());
        !st) {
      out.ok = false;
      out.message = st.message;
      break;
    }
    double num = 0, den = 0;
    for (size_t k = 0; k < v.expected.size(); ++k) {
      uint64_t bits = 0;
      std::memcpy(&bits, &host[k * size], size);
      double got = gpucase::decode(v.type, bits), want = v.expected[k];
      if (!std::isfinite(got) && std::isfinite(want)) {
        out.ok = false;
        out.message = "argument " + std::to_string(i) + " element " +
                      std::to_string(k) + " is " + std::to_string(got) +
                      " (unwritten or NaN), expected " + std::to_string(want);
        break;
      }
      num += (got - want) * (got - want);
      den += want * want;
    }
    double err = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
    out.error = std::max(out.error, err);
    if (!out.ok)
      break;
    if (!(err <= c.tolerance)) {
      out.ok = false;
      out.message = "argument " + std::to_string(i) + ": relative L2 error " +
                    std::to_string(err) + " above " +
                    std::to_string(c.tolerance);
      break;
    }
  }
  release();
  return out;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: tessera-gpu-run CASES_DIR [--filter S]\n");
    return 2;
  }
  std::string dir = argv[1], filter;
  for (int i = 2; i + 1 < argc; i += 2)
    if (std::string(argv[i]) == "--filter")
      filter = argv[i + 1];
  std::vector<std::string> cases;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(dir, ec))
    if (entry.is_directory() &&
        entry.path().filename().string().find(filter) != std::string::npos)
      cases.push_back(entry.path().string());
  if (ec) {
    std::fprintf(stderr, "error: cannot read %s: %s\n", dir.c_str(),
                 ec.message().c_str());
    return 2;
  }
  std::sort(cases.begin(), cases.end());

  std::unique_ptr<rt::Runtime> runtime;
  if (rt::Status st = rt::Runtime::create(runtime); !st) {
    std::printf("SKIP: %s\n", st.message.c_str());
    return 0;
  }
  std::printf("device: %s (sm_%d), %zu cases\n", runtime->deviceName().c_str(),
              runtime->computeCapability(), cases.size());
  int failed = 0;
  for (const std::string &path : cases) {
    gpucase::Case c;
    std::string error = gpucase::read(path, c);
    Outcome o;
    auto t0 = std::chrono::steady_clock::now();
    if (error.empty())
      o = runCase(*runtime, c);
    else
      o.message = "cannot read case: " + error;
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
    failed += !o.ok;
    std::printf("%-4s %-58s err %.2e tol %.0e  %7.1f ms%s%s\n",
                o.ok ? "PASS" : "FAIL", c.name.c_str(), o.error, c.tolerance,
                ms, o.ok ? "" : "  ", o.message.c_str());
  }
  std::printf("%zu cases: %zu passed, %d failed\n", cases.size(),
              cases.size() - failed, failed);
  return failed ? 1 : 0;
}
