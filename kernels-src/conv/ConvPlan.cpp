//===- ConvPlan.cpp - long convolution plans and kernel names -------------===//

#include "kernels-src/conv/ConvPlan.h"

#include <algorithm>
#include <optional>
#include <sstream>

namespace tessera::conv {

int64_t fftSize(int64_t seqlen) {
  // At least 512, the smallest row-column FFT: below it the stages ran as
  // one program per batch row, 8.6x slower than the 512 kernel on the same
  // data (H200, bf16, 16 x 768 x 256: 0.507 vs 0.059 ms; session 17).
  int64_t m = 512;
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

namespace {
/// The row-column factors {m1, m2} of an FFT of size n, or none outside
/// 512..4096: m1 = 64 rows (32 at 512, 128 at 4096), 16 per warp of the 4
/// (2, 8) warps the kernels run on, so every warp's rows of the left
/// product's result are the A fragments of the right product, in
/// registers. At 4096, 128 x 32 keeps a warp's share of the transform at
/// 16 x 32, as at 2048: 64 x 64 on eight warps ran 0.626 ms, 128 x 32
/// 0.482 (H200, bf16, 16 x 768, same flags; session 23).
std::optional<std::vector<int64_t>> rowColumnFactors(int64_t n) {
  if (n < 512 || n > 4096)
    return std::nullopt;
  int64_t m1 = 64;
  if (n == 512)
    m1 = 32;
  else if (n == 4096)
    m1 = 128;
  return std::vector<int64_t>{m1, n / m1};
}
} // namespace

Plan plan(int64_t seqlen, bool forceMultiPass) {
  Plan p;
  p.M = fftSize(seqlen);
  // One fused row-column kernel up to M = 4096; three passes from 8192, on
  // zero-padded copies for lengths that are not powers of two. H200, bf16,
  // 16 x 768 (session 17): the fused radix kernels they replace ran 8192 in
  // 3.14 ms (three passes 1.69) and 16000 in 11.17 (three passes on padded
  // copies 3.30).
  p.fused = !forceMultiPass && p.M <= 4096;
  if (p.fused) {
    // 16 batch rows per program: the DFT matrices and twiddles serve them
    // all (H200: 1K 0.200 -> 0.170 ms, 2K 0.442 -> 0.310, 4K 1.24 -> 0.743
    // from 1 to 16 rows).
    p.rowColumn = true;
    p.rowsPerProgram = 16;
    p.factors = *rowColumnFactors(p.M);
    return p;
  }
  // A row-column inner FFT of 1024 at every size from 8K (outer 8 to 64).
  // H200, bf16 (session 17): 8K (16 x 768) 1.69 ms against 1.81 for outer
  // 16 x inner 512; 64K (4 x 768) 3.51 against 4.09 for outer 16 x inner
  // 4096 and 4.21 for 32 x 2048; inner 2048 lost everywhere (16K 4.41 and
  // 32K 3.97 against 2.89 and 3.08): it spills 440 bytes. Below 8K (forced,
  // for tests) the outer is 16 or 32, which leaves an inner size whose
  // radices are even.
  int bits = 0;
  while ((int64_t(1) << bits) < p.M)
    ++bits;
  p.outer = p.M >= 8192 ? p.M / 1024
                        : std::min<int64_t>(p.M / 2, bits % 2 == 0 ? 16 : 32);
  const int64_t inner = p.M / p.outer;
  // Each inner program takes 16 batch rows of its row pair, so the DFT
  // matrices and twiddles it builds serve them all, as in the fused kernel.
  p.rowsPerProgram = 16;
  // The inner FFT as two matrix products too, where its size allows (the
  // spectrum is stored in the inner pass's order: spectrumIndex).
  if (auto factors = rowColumnFactors(inner)) {
    p.rowColumn = true;
    p.factors = *factors;
    return p;
  }
  p.factors = radices(inner);
  return p;
}

int64_t spectrumIndex(const Plan &p, int64_t k) {
  if (!p.fused) {
    // Row r = k mod outer of the inner pass reads frequencies r + outer kk
    // as one contiguous block, in the order of its inner FFT.
    const int64_t inner = p.M / p.outer, r = k % p.outer, kk = k / p.outer;
    const int64_t at =
        p.rowColumn ? (kk % p.factors[0]) * p.factors[1] + kk / p.factors[0]
                    : kk;
    return r * inner + at;
  }
  const int64_t m1 = p.factors[0], m2 = p.factors[1];
  return (k % m1) * m2 + k / m1;
}

ViewShape fusedSpectrumView(const Plan &p, int64_t channels) {
  return {{channels * 4 * p.factors[0], p.factors[1]}, {p.factors[1], 1}};
}

ViewShape innerSpectrumView(const Plan &p, int64_t channels) {
  const int64_t M = p.M, Mo = p.outer, Mi = M / Mo;
  if (p.rowColumn)
    return {{channels, 4, Mo, p.factors[0], p.factors[1]},
            {4 * M, M, Mi, p.factors[1], 1}};
  return {{channels, 4, Mo, Mi}, {4 * M, M, Mi, 1}};
}

ViewShape innerWorkView(const Plan &p, int64_t batch, int64_t channels) {
  const int64_t M = p.M, Mo = p.outer, Mi = M / Mo;
  if (p.rowColumn)
    return {{batch, channels, 2, Mo, p.factors[0], p.factors[1]},
            {channels * 2 * M, 2 * M, M, Mi, p.factors[1], 1}};
  return {{batch, channels, 2, Mo, Mi}, {channels * 2 * M, 2 * M, M, Mi, 1}};
}

std::array<int64_t, 3> fusedGrid(const Plan &p, int64_t batch,
                                 int64_t channels) {
  return {channels, (batch + p.rowsPerProgram - 1) / p.rowsPerProgram, 1};
}

std::array<int64_t, 3> innerGrid(const Plan &p, int64_t batch,
                                 int64_t channels) {
  return {p.outer / 2, channels,
          (batch + p.rowsPerProgram - 1) / p.rowsPerProgram};
}

int64_t columnBlock(const Plan &p) {
  // 128 columns a program, not 64: the per-program setup (indices, DFT
  // matrices, twiddle angles) is spread over twice the elements, 24% fewer
  // instructions per element (H200, bf16: 16K 3.515 -> 3.325 ms at 16 x
  // 768, 64K 5.446 -> 4.588 at 4 x 768; bench/RESULTS.md, session 13).
  // 256 where the outer FFT is 8 long (8K): its 8 x 256 tiles still fit in
  // 120 registers, and the outer passes ran 0.344 -> 0.254 and 0.354 ->
  // 0.328 ms (8K 1.700 -> 1.590 ms at 16 x 768, bf16; 512: 1.641). At 16K
  // (outer 16) 256 was slower: 2.91 -> 3.01 ms (sessions 19, 20). Since
  // session 26 the forward outer FFT of 8 runs on Tensor Cores with 16 x
  // 256 tiles (128 columns were slower there too: 0.217 -> 0.244 ms); the
  // inverse of 8 runs on the CUDA cores in both types (session 34).
  const int64_t columns = p.outer <= 8 ? 256 : 128;
  return std::min<int64_t>(columns, p.M / p.outer);
}

int64_t paddedLength(const Plan &p, int64_t seqlen) {
  return p.fused ? seqlen + seqlen % 2 : p.M;
}

ViewShape outerSequenceView(const Plan &p, int64_t batch, int64_t channels) {
  const int64_t M = p.M, Mi = M / p.outer;
  return {{batch, channels, p.outer / 2, 2 * Mi}, {channels * M, M, 2 * Mi, 1}};
}

std::array<int64_t, 3> outerGrid(const Plan &p, int64_t batch,
                                 int64_t channels) {
  return {p.M / p.outer / columnBlock(p), channels, batch};
}

std::vector<const char *> planKernels(const Plan &p, ElementType dtype) {
  if (p.fused)
    return {"conv_fused"};
  if (forwardInF16(p, dtype))
    return {"conv_outer_fwd", "conv_inner", "conv_outer_inv", "conv_bound"};
  return {"conv_outer_fwd", "conv_inner", "conv_outer_inv"};
}

bool forwardInF16(const Plan &p, ElementType dtype) {
  return dtype == ElementType::bf16 && !p.fused && p.rowColumn;
}

int64_t outerBlocksPerSm(const Plan &p, bool inverse, ElementType dtype,
                         bool gated) {
  if (p.fused)
    return 0;
  // At 16K ptxas gives the outer passes 88-96 registers, five CTAs of four
  // warps an SM, each with one column block's loads in flight (4-8 KB). Six
  // (80 registers, 4-32 bytes spilled) at 16K: forward 0.382 -> 0.364
  // ms, inverse 0.421 -> 0.382, both gates 2.684 -> 2.585 ms in all; seven
  // (72 registers, 32-44 bytes spilled): 0.362 and 0.412. At 8K the
  // forward (outer 8, 256 columns a program) takes seven: 0.218 -> 0.198
  // ms (six 0.206). H200, 16 x 768, bf16 (session 33, bench/RESULTS.md
  // run80). The 8K inverse (on the CUDA cores) takes 126 registers in
  // bf16 and 96 in f16 from ptxas: at five in bf16 (96 registers, spill-
  // free) 0.300 -> 0.255 ms, both gates 0.362 -> 0.312; at six 0.267 and
  // 0.320, and f16 at six 0.240 -> 0.262 (session 34, run90). At 32K
  // ptxas gives the bf16 forward 138 registers (three CTAs) and the
  // ungated inverse 216 (two): the forward on four (128, 16-24 bytes
  // spilled) 0.919 -> 0.787 ms, gated 1.265 -> 1.050; the ungated inverse
  // on three (168, spill-free) 1.159 -> 0.921; 32K 5.088 -> 4.720 ms. The
  // gated inverse has 168 from ptxas, and asking for three made it slower
  // (1.281 -> 1.324; run92). f16 at 32K is not measured.
  if (p.M == 16384)
    return 6;
  if (p.M == 8192)
    return inverse ? (dtype == ElementType::bf16 ? 5 : 0) : 7;
  if (p.M == 32768 && dtype == ElementType::bf16)
    return inverse ? (gated ? 0 : 3) : 4;
  return 0;
}

std::string compileFlags(const Plan &p, bool preGate, bool postGate) {
  // Warps: the fused kernels hold 16 rows of the m1 x m2 matrix a warp (2
  // warps at 512, 4 at 1K and 2K: the left product's result is then the
  // right product's A operand in registers), 8 at 4K (128 x 32).
  // Three passes: 4 warps (row-column inner 1024).
  int64_t warps = 4;
  if (p.fused && p.M == 512)
    warps = 2;
  else if (p.fused && p.M == 4096)
    warps = 8;
  std::string flags = "--num-warps " + std::to_string(warps);
  // No LICM but at 1K and at 4K without both gates: what it hoists spills
  // (H200, bf16, 16 x 768: 2K 0.252 ms with LICM, 0.244 without; 64K 6.94
  // -> 6.53). 1K's registers fit it (0.139 with, 0.155 without; session
  // 10). The ungated 4K kernel pays for its 80 bytes of spills: 0.487 ->
  // 0.459 ms in bf16 and f16; with both gates, timed without register
  // prefetch, 0.800 -> 0.844 (session 23). One gate alone is not timed.
  const bool bothGates = preGate && postGate;
  const bool licm = p.M == 1024 || (p.fused && p.M == 4096 && !bothGates);
  if (!licm)
    flags += " --no-hoist-invariants";
  // Three CTAs an SM at 1K without gates: 203 -> 168 registers, spill-free,
  // 0.097 -> 0.084 ms (H200, 16 x 768, bf16 and f16, two runs each; session
  // 19; bf16 with its f16 second stage spills 20 bytes there, session 35).
  // With both gates that spills 436 bytes, so gated kernels keep two.
  if (p.fused && p.M == 1024 && !preGate && !postGate)
    flags += " --min-blocks-per-sm 3";
  // Five CTAs of two warps an SM at 512 without gates (ptxas: 222 -> 168
  // registers, 4 bytes spilled): lengths 256 and 512 0.060 -> 0.044 ms in
  // bf16 with the f16 second stage (session 35, run94). With both gates
  // that spills 358 bytes; not timed.
  if (p.fused && p.M == 512 && !preGate && !postGate)
    flags += " --min-blocks-per-sm 5";
  // Register prefetch everywhere. The 64 x 64 kernel of 4K with both gates
  // ran without it (1.080 -> 0.871 ms, 152 bytes spilled with it; session
  // 20); the 128 x 32 kernel runs faster with it, spilling 126 bytes
  // instead of 56 (bf16 0.800 -> 0.729 ms, f16 0.771 -> 0.696; session
  // 23). At 1K and 2K the prefetch pays too (2K gated 0.238 vs 0.284, 1K
  // gated 0.125 vs 0.170).
  // At 1K and 2K with both gates (the post gate alone is not timed), the
  // post gate is loaded at the top of its own row's iteration instead
  // (late loads): 2K spills 44 bytes instead of 68
  // at the same speed (0.238 ms both), 1K 0.125 -> 0.122 in bf16 (f16
  // 0.121 both). The 128 x 32 kernel of 4K with them: bf16 0.741, f16
  // 0.680, against 0.729 and 0.696 without (session 23; the flags take no
  // element type, and bf16 decides). 512 is not timed with it.
  // At 4K since the bf16 inverse is rounded before the post gate
  // (roundsBeforePostGate): bf16 0.726 -> 0.626 ms, 146 -> 48 bytes
  // spilled; f16 0.660 -> 0.665 (three runs each; session 36, run99).
  if (p.fused && (p.M == 1024 || p.M == 2048 || p.M == 4096) && preGate &&
      postGate)
    flags += " --late-loads-in-iteration";
  // stmatrix for the ungated 2K kernel's exchanges: spill-free instead of
  // 16 bytes, 0.177 -> 0.176 ms in bf16, 0.177 -> 0.175 in f16; at 4K
  // 0.622 -> 0.649 (H200, 16 x 768; session 21), as 128 x 32 0.487 ->
  // 0.506 (session 23).
  // With bf16's f16 second stage (session 35) it pays at 4K (128 x 32):
  // 0.478 -> 0.468 ms, both gates 0.779 -> 0.765 (run95); and with both
  // gates at 1K (bf16 0.124 -> 0.122, f16 0.120 both) and 2K (bf16 0.241
  // -> 0.235, f16 0.249 -> 0.245; run97). One gate alone is not timed; 1K
  // without gates keeps its three CTAs an SM without it.
  if (p.fused &&
      (p.M == 2048 || p.M == 4096 || (p.M == 1024 && preGate && postGate)))
    flags += " --stmatrix";
  // Paired 16-bit conversions, fma and stepped wgmma descriptors everywhere
  // (H200, 16 x 768, bf16: 512 0.066 -> 0.054 ms, 1K 0.107 -> 0.097, 2K
  // 0.207 -> 0.178, 4K 0.633 -> 0.627, 8K 1.76 -> 1.69, 16K 3.008 -> 2.915,
  // 32K (8 x 768) 3.54 -> 3.11; 64K's outer 64 plan was timed with them
  // only, 3.51 ms at 4 x 768). Sessions 16 and 17.
  flags += " --pair-truncations --fma --step-descriptors";
  // One barrier where two back-to-back exchanges left two (the fused 2K and
  // 4K kernels keep 32 of 42). H200, bf16, 16 x 768, two runs each
  // (session 30, bench/RESULTS.md): 4K 0.464 -> 0.455 and 0.465 -> 0.460
  // ms; 1K, 2K, 8K and 16K within 0.001 ms (512, 32K and 64K untimed).
  flags += " --merge-barriers";
  return flags;
}

const char *name(ElementType type) {
  return type == ElementType::bf16 ? "bf16" : "f16";
}

std::string kernelName(const char *kernel, const Plan &p, ElementType dtype,
                       bool preGate, bool postGate) {
  std::ostringstream s;
  s << kernel << "_" << name(dtype) << "_M" << p.M;
  // The outer passes' column block sets their grid: a library built with
  // another block reports a missing kernel instead of leaving columns out.
  // The three passes' argument views and grids also changed meaning under
  // the same plan (session 14: the outer passes read (re, im) pair rows,
  // the inner pass runs outer / 2 programs): `_abi` numbers that contract,
  // so a library built before a change is refused, not launched with a
  // grid that leaves a row out. 3: the inner pass writes `out` through the
  // view it reads `work` by (innerWorkView; session 24). 4: in bf16 the
  // forward work buffer is f16, conv_bound runs first, and both outer
  // passes take its `scales` view (forwardInF16; session 37).
  constexpr int kMultiPassAbi = 4;
  if (!p.fused)
    s << "_o" << p.outer << "_r" << p.rowsPerProgram << "_c" << columnBlock(p)
      << "_abi" << kMultiPassAbi;
  for (int64_t f : p.factors)
    s << "_" << f;
  // Row-column plans are named apart from the permuting plans with the same
  // factors (512 = 32 x 16 both ways), so an old library reports a missing
  // kernel rather than a mismatched one.
  s << (p.rowColumn ? "_rc" : "") << (preGate ? "_pre" : "")
    << (postGate ? "_post" : "");
  return s.str();
}

} // namespace tessera::conv
