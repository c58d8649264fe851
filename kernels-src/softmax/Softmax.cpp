//===- Softmax.cpp - row-wise softmax in the tile DSL
//----------------------===//

#include "kernels-src/softmax/Softmax.h"

#include <cmath>
#include <limits>

namespace tessera::softmax {
using namespace dsl;

std::string Config::kernelName() const {
  return std::string("softmax_") + name(dtype) + "_" +
         std::to_string(blockRows) + "x" + std::to_string(blockCols);
}

// Numerically stable softmax in f32: exp2((x - max) * log2(e)) / sum. Columns
// past the end read -inf, so they contribute exp(-inf) = 0 to the sum.
void build(KernelModule &module, const Config &cfg) {
  module.kernel(
      cfg.kernelName(), {view("x", cfg.dtype, 2), view("y", cfg.dtype, 2)},
      [&](KernelArgs &args) {
        View x = args["x"], y = args["y"];
        Scalar rows = program_id(0);
        const double negInf = -std::numeric_limits<double>::infinity();

        Tile t = load(x, {rows, 0}, {cfg.blockRows, cfg.blockCols},
                      {.padding = negInf});
        Tile v = cast(t, f32);
        Tile e = exp2((v - max(v, 1)) * M_LOG2E);
        Tile p = e / sum(e, 1);
        store(y, {rows, 0}, cast(p, cfg.dtype));
      });
}

std::array<int64_t, 3> grid(const Config &cfg, int64_t rows) {
  return {(rows + cfg.blockRows - 1) / cfg.blockRows, 1, 1};
}

int64_t blockColsFor(int64_t cols) {
  int64_t b = 1;
  while (b < cols)
    b *= 2;
  return b;
}

std::vector<double> reference(const std::vector<double> &x, int64_t rows,
                              int64_t cols) {
  std::vector<double> y(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    const double *in = &x[r * cols];
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < cols; ++c)
      m = std::max(m, in[c]);
    double s = 0;
    for (int64_t c = 0; c < cols; ++c)
      s += std::exp(in[c] - m);
    for (int64_t c = 0; c < cols; ++c)
      y[r * cols + c] = std::exp(in[c] - m) / s;
  }
  return y;
}

} // namespace tessera::softmax
