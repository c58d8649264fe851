//===- Gemm.h - tiled GEMM kernel, reference and host API -------*- C++ -*-===//

#ifndef TESSERA_KERNELS_GEMM_H
#define TESSERA_KERNELS_GEMM_H

#include "dsl/Tessera.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::gemm {

/// One compiled variant of the GEMM: C (MxN, out) = A (MxK, in) * B (KxN, in).
struct Config {
  dsl::DType in = dsl::bf16;
  dsl::DType out = dsl::f32;
  int64_t blockM = 64, blockN = 64, blockK = 32;

  std::string kernelName() const;
};

/// Adds the kernel for `config` to `module`. Grid: (ceil(M/blockM),
/// ceil(N/blockN), 1); arguments (a, b, c).
void build(dsl::KernelModule &module, const Config &config);

std::array<int64_t, 3> grid(const Config &config, int64_t m, int64_t n);

/// float64 reference: c = a * b for row-major a (MxK) and b (KxN).
std::vector<double> reference(const std::vector<double> &a,
                              const std::vector<double> &b, int64_t m,
                              int64_t n, int64_t k);

} // namespace tessera::gemm

#endif // TESSERA_KERNELS_GEMM_H
