//===- KernelTimes.h - each kernel's share of a benchmarked call -*- C++
//-*-===//
//
// After a benchmark's timing: a few more calls with CUDA events around
// every launch (rt::Runtime::startKernelTimes), printed as each kernel's
// time per call and share, so a run says which pass to work on.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_BENCH_KERNELTIMES_H
#define TESSERA_BENCH_KERNELTIMES_H

#include "runtime/Runtime.h"

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace tessera::bench {

/// Runs `call` `calls` times with kernel times recorded and prints one
/// line: each kernel's mean time per call and share of their sum. Returns
/// false (after printing why) when a call or the recording fails.
inline bool printKernelTimes(rt::Runtime &runtime,
                             const std::function<rt::Status()> &call,
                             int calls = 5) {
  std::vector<rt::Runtime::KernelTime> times;
  rt::Status st = runtime.startKernelTimes();
  for (int i = 0; st && i < calls; ++i)
    st = call();
  // Stopped either way, so later launches are not recorded.
  rt::Status stopped = runtime.stopKernelTimes(times);
  if (!st || !stopped) {
    std::printf("FAIL: kernel times: %s\n",
                (!st ? st : stopped).message.c_str());
    return false;
  }
  double total = 0;
  for (const auto &k : times)
    total += k.millis;
  std::string line;
  for (const auto &k : times) {
    char part[256];
    std::snprintf(part, sizeof part, "%s%s %.3f ms (%.0f%%)",
                  line.empty() ? "" : ", ", k.name.c_str(), k.millis / calls,
                  total > 0 ? 100.0 * k.millis / total : 0.0);
    line += part;
  }
  std::printf("kernels per call (mean of %d, events between launches): %s\n",
              calls, line.c_str());
  return true;
}

} // namespace tessera::bench

#endif // TESSERA_BENCH_KERNELTIMES_H
