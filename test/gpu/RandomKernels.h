//===- RandomKernels.h - random tile kernels for differential tests -*- C++ -*-===//

#ifndef TESSERA_TEST_GPU_RANDOMKERNELS_H
#define TESSERA_TEST_GPU_RANDOMKERNELS_H

#include "dsl/Tessera.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::difftest {

/// A random kernel: out = f(x, u, w, alpha) for a random chain of tile ops
/// f on (rows, cols) tiles of x and u, with w a (cols, cols) matrix.
struct RandomKernel {
  std::string name;
  uint64_t seed = 0;
  dsl::DType inType = dsl::f32, outType = dsl::f32;
  int64_t rows = 1, cols = 1; // tile shape
  int64_t viewRows = 1, viewCols = 1;
  std::array<int64_t, 3> grid = {1, 1, 1};
  double alpha = 1;
  bool sixteenBit = false; // rounds through bf16/f16 somewhere
  std::vector<std::string> ops; // the chain, for the log
};

/// Builds kernel `name` from `seed` into `module` and describes it.
RandomKernel buildRandomKernel(dsl::KernelModule &module,
                               const std::string &name, uint64_t seed);

} // namespace tessera::difftest

#endif // TESSERA_TEST_GPU_RANDOMKERNELS_H
