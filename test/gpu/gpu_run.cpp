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
#include "runtime/GpuCase.h"

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
    gpucase::Outcome o;
    auto t0 = std::chrono::steady_clock::now();
    if (error.empty())
      o = gpucase::run(*runtime, c);
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
