//===- Softmax.h - row-wise softmax kernel and reference --------*- C++ -*-===//

#ifndef TESSERA_KERNELS_SOFTMAX_H
#define TESSERA_KERNELS_SOFTMAX_H

#include "dsl/Tessera.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::softmax {

/// y = softmax(x) along the rows of x (rows x cols). One program handles
/// `blockRows` rows; a row must fit in one tile: cols <= blockCols.
struct Config {
  dsl::DType dtype = dsl::f32;
  int64_t blockRows = 4, blockCols = 128;

  std::string kernelName() const;
};

void build(dsl::KernelModule &module, const Config &config);

std::array<int64_t, 3> grid(const Config &config, int64_t rows);

/// The smallest power of two >= cols (the blockCols a row of `cols` needs).
int64_t blockColsFor(int64_t cols);

/// float64 reference, row-major rows x cols.
std::vector<double> reference(const std::vector<double> &x, int64_t rows,
                              int64_t cols);

} // namespace tessera::softmax

#endif // TESSERA_KERNELS_SOFTMAX_H
