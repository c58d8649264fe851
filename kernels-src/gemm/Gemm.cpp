//===- Gemm.cpp - tiled GEMM in the tile DSL
//-------------------------------===//

#include "kernels-src/gemm/Gemm.h"

namespace tessera::gemm {
using namespace dsl;

std::string Config::kernelName() const {
  return std::string("gemm_") + name(in) + "_" + name(out) + "_" +
         std::to_string(blockM) + "x" + std::to_string(blockN) + "x" +
         std::to_string(blockK);
}

// Each program computes one blockM x blockN tile of C, walking K in steps of
// blockK; edges are masked by the loads (zero padding) and the store.
void build(KernelModule &module, const Config &cfg) {
  module.kernel(
      cfg.kernelName(),
      {view("a", cfg.in, 2), view("b", cfg.in, 2), view("c", cfg.out, 2)},
      [&](KernelArgs &args) {
        View a = args["a"], b = args["b"], c = args["c"];
        Scalar row = program_id(0), col = program_id(1);
        Scalar kTiles = ceil_div(a.dim(1), cfg.blockK);

        Tile acc = zeros({cfg.blockM, cfg.blockN}, f32);
        acc = for_range(0, kTiles, acc, [&](Scalar k, Tile acc) {
          Tile ta = load(a, {row, k}, {cfg.blockM, cfg.blockK});
          Tile tb = load(b, {k, col}, {cfg.blockK, cfg.blockN});
          return mma(ta, tb, acc);
        });
        store(c, {row, col}, cast(acc, cfg.out));
      });
}

std::array<int64_t, 3> grid(const Config &cfg, int64_t m, int64_t n) {
  return {(m + cfg.blockM - 1) / cfg.blockM, (n + cfg.blockN - 1) / cfg.blockN,
          1};
}

std::vector<double> reference(const std::vector<double> &a,
                              const std::vector<double> &b, int64_t m,
                              int64_t n, int64_t k) {
  std::vector<double> c(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      double aip = a[i * k + p];
      for (int64_t j = 0; j < n; ++j)
        c[i * n + j] += aip * b[p * n + j];
    }
  return c;
}

} // namespace tessera::gemm
