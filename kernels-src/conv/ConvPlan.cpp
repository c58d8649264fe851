//===- ConvPlan.cpp - long convolution plans and kernel names -------------===//

#include "kernels-src/conv/ConvPlan.h"

#include <algorithm>
#include <sstream>

namespace tessera::conv {

int64_t fftSize(int64_t seqlen) {
  int64_t m = 1;
  while (m < seqlen)
    m *= 2;
  return m;
}

std::vector<int64_t> radices(int64_t n) {
  int bits = 0;
  while ((int64_t(1) << bits) < n)
    ++bits;
  int count = std::max(1, (bits + 4) / 5);
  std::vector<int64_t> out;
  for (int j = 0; j < count; ++j) {
    int b = bits / count + (j < bits % count ? 1 : 0);
    out.push_back(int64_t(1) << b);
  }
  return out;
}

Plan plan(int64_t seqlen, bool forceMultiPass) {
  Plan p;
  p.M = fftSize(seqlen);
  p.fused = !forceMultiPass && 2 * p.M <= 32768;
  if (p.fused) {
    // Two matrix products of m1 = 16 x (4 warps) rows (32 for 512): every
    // warp's rows of the left product's result are the A fragments of the
    // right product, in registers. 16 batch rows per program: the DFT
    // matrices and twiddles are built once for all of them (H200: 1K 0.200
    // -> 0.170 ms, 2K 0.442 -> 0.310, 4K 1.24 -> 0.743 from 1 to 16 rows).
    if (p.M >= 512 && p.M <= 4096) {
      const int64_t m1 = p.M == 512 ? 32 : 64;
      p.rowColumn = true;
      p.rowsPerProgram = 16;
      p.factors = {m1, p.M / m1};
      return p;
    }
    p.factors = radices(p.M);
    return p;
  }
  // An outer radix of 16 or 32 leaves an inner size whose radices are even.
  int bits = 0;
  while ((int64_t(1) << bits) < p.M)
    ++bits;
  p.outer = std::min<int64_t>(p.M / 2, bits % 2 == 0 ? 16 : 32);
  p.factors = radices(p.M / p.outer);
  return p;
}

int64_t spectrumIndex(const Plan &p, int64_t k) {
  if (!p.rowColumn)
    return k;
  const int64_t m1 = p.factors[0], m2 = p.factors[1];
  return (k % m1) * m2 + k / m1;
}

ViewShape fusedSpectrumView(const Plan &p, int64_t channels) {
  if (p.rowColumn)
    return {{channels * 4 * p.factors[0], p.factors[1]}, {p.factors[1], 1}};
  return {{channels, 4, p.M}, {4 * p.M, p.M, 1}};
}

std::vector<int64_t> fusedGrid(const Plan &p, int64_t batch, int64_t channels) {
  return {channels, (batch + p.rowsPerProgram - 1) / p.rowsPerProgram, 1};
}

int64_t columnBlock(const Plan &p) {
  return std::min<int64_t>(64, p.M / p.outer);
}

const char *name(ElementType type) {
  return type == ElementType::bf16 ? "bf16" : "f16";
}

std::string kernelName(const char *kernel, const Plan &p, ElementType dtype,
                       bool preGate, bool postGate) {
  std::ostringstream s;
  s << kernel << "_" << name(dtype) << "_M" << p.M;
  if (!p.fused)
    s << "_o" << p.outer;
  for (int64_t f : p.factors)
    s << "_" << f;
  s << (preGate ? "_pre" : "") << (postGate ? "_post" : "");
  return s.str();
}

} // namespace tessera::conv
