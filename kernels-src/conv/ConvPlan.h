//===- ConvPlan.h - long convolution: shapes, plans, kernel names -*- C++
//-*-===//
//
// How a convolution of a given length is split into FFT stages and which
// compiled kernels run it, and the float64 host pieces (reference, kernel
// spectrum). No MLIR: the GPU entry point (ConvGpu.h) uses them too.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_KERNELS_CONV_CONVPLAN_H
#define TESSERA_KERNELS_CONV_CONVPLAN_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::conv {

struct Shape {
  int64_t batch = 1, channels = 1, seqlen = 256;
};

/// FFT size M = seqlen rounded up to a power of two, at least 512 (the
/// packed complex length; the real FFT size is N = 2M).
int64_t fftSize(int64_t seqlen);

/// float64 reference: the direct causal convolution (no FFT). u, pre, post,
/// y are (batch, channels, seqlen) row-major, k is (channels, seqlen); pre
/// and post may be empty (no gate).
std::vector<double> reference(const Shape &shape, const std::vector<double> &u,
                              const std::vector<double> &k,
                              const std::vector<double> &pre,
                              const std::vector<double> &post);

/// The kernel's spectrum in the layout the convolution kernels of
/// plan(seqlen, forceMultiPass) read: (channels, 4, M) f32, rows P.re, P.im,
/// Q.re, Q.im, frequency k at spectrumIndex(plan, k). With w = exp(-2 pi i /
/// N), N = 2M, K = FFT_N(k padded with zeros to N), Kk = K[k], Kr = K[M - k]
/// (K[M] for k = 0):
///   a  = (1 - i w^k) / 2,     b  = (1 + i w^k) / 2,
///   a' = (1 + i w^-k) / 2,    b' = (1 - i w^-k) / 2,
///   P = a' a Kk + b' conj(b') conj(Kr),
///   Q = a' b Kk + b' conj(a') conj(Kr).
/// (f is the frequency index here.) Computed in float64 on the host (an
/// O(N log N) FFT); the caller stores it in an f32 buffer. P and Q carry no
/// 1/M: the inverse transform's 1/M is applied by the kernels.
std::vector<double> prepareSpectrum(int64_t channels, int64_t seqlen,
                                    const std::vector<double> &k,
                                    bool forceMultiPass = false);

/// How the FFT of size M is split: `fused` runs everything in one kernel;
/// otherwise three passes: an outer FFT of size `outer` over columns, the
/// fused inner FFT of size M / outer (factors) with the spectrum product,
/// and the inverse outer FFT.
///
/// `rowColumn` (always for the fused size M, 512..4096, and for a
/// multi-pass inner size in that range; factors {m1, m2}): the sequence is the
/// m1 x m2 matrix X[n1][n2] = z[n1 m2 + n2] and the FFT is two matrix products,
/// F_m1 X on the left, then (after the twiddle) F_m2 on the right, with no
/// transpose in between: frequency k1 + m1 k2 ends at [k1][k2], which is the
/// order of the spectrum, and the inverse undoes the same steps in reverse.
/// Otherwise (the inner FFT of forced multi-pass plans below M = 8192, for
/// tests; factors: the radices of its stages) every stage is a left
/// product and frequencies end in natural order.
///
/// A rowColumn program (and every multi-pass inner program) takes
/// `rowsPerProgram` batch rows of one channel in turn, so the DFT matrices
/// and twiddles it builds serve them all: the fused grid is (channels,
/// ceil(batch / rowsPerProgram)), the inner one innerGrid. The outer passes
/// take one batch row a program (outerGrid): 16 rows in turn held 128
/// registers and were slower (bench/RESULTS.md, session 13).
///
/// The fused kernels take the real-input packing's conj(Z[-k]) as
/// FFT(conj z)[k], computed from the same first-stage products as Z, in Z's
/// order and layout, instead of gathering it from Z through shared memory:
/// a second right product, and faster at every fused size (H200, bf16, 16
/// x 768: 512 0.089 -> 0.062 ms, 1K 0.155 -> 0.120, 2K 0.244 -> 0.212, 4K
/// 0.621 -> 0.482; the 4K numbers as 128 x 32, session 23).
struct Plan {
  int64_t M = 0;
  bool fused = true;
  bool rowColumn = false;
  int64_t rowsPerProgram = 1;
  int64_t outer = 1;
  std::vector<int64_t> factors;
};

/// Where frequency k (0 <= k < M) of the spectrum and of the kernels'
/// transforms sits. Fused (row-column): (k mod m1) m2 + k / m1.
/// Multi-pass: frequency r + outer kk (r < outer) at r inner +
/// kk', kk' the position of kk in the inner FFT's order (as above), so each
/// inner program reads contiguous rows.
int64_t spectrumIndex(const Plan &plan, int64_t k);

/// The default plan: fused up to M = 4096, multi-pass from 8192 (lengths
/// that are not powers of two on zero-padded copies: paddedLength).
/// `forceMultiPass` takes the multi-pass path at any size (for tests).
Plan plan(int64_t seqlen, bool forceMultiPass = false);

/// Radices of the stages of an FFT of size n (powers of two, at most 32).
std::vector<int64_t> radices(int64_t n);

/// How the fused kernel views the (channels, 4, M) spectrum: as
/// (channels * 4 * m1, m2) rows, so each of P.re, P.im, Q.re,
/// Q.im is one m1 x m2 tile read in the layout of the transform.
struct ViewShape {
  std::vector<int64_t> sizes, strides;
};
ViewShape fusedSpectrumView(const Plan &plan, int64_t channels);

/// How the multi-pass inner kernel views the spectrum: (channels, 4, outer,
/// inner), or for a row-column inner FFT (channels, 4, outer, m1, m2) with
/// row r's frequency r + outer (k1 + m1 k2) at [r][k1][k2]; rows contiguous.
ViewShape innerSpectrumView(const Plan &plan, int64_t channels);

/// How the multi-pass inner kernel reads the (batch, channels, 2, outer,
/// inner) work buffer and writes the other one: as is, or for a row-column
/// inner FFT as (batch, channels, 2, outer, m1, m2), each row an m1 x m2
/// tile of m2-element rows.
ViewShape innerWorkView(const Plan &plan, int64_t batch, int64_t channels);

/// The fused kernel's grid: (channels, ceil(batch / rowsPerProgram), 1).
std::array<int64_t, 3> fusedGrid(const Plan &plan, int64_t batch,
                                 int64_t channels);

/// The multi-pass inner kernel's grid: (outer / 2 row pairs, channels,
/// ceil(batch / rowsPerProgram)); pair 0 is rows 0 and outer / 2.
std::array<int64_t, 3> innerGrid(const Plan &plan, int64_t batch,
                                 int64_t channels);

/// Columns of the inner FFT each program of the outer passes takes.
int64_t columnBlock(const Plan &p);

/// The length the plan's kernels run at: they view sequences as (seqlen /
/// 2) pairs of samples, of an even length on the fused path and of exactly
/// M on the multi-pass one. Other lengths run on zero-padded copies (the
/// causal convolution's first seqlen outputs do not change).
int64_t paddedLength(const Plan &p, int64_t seqlen);

/// How the outer passes view u, the gates and y ((batch, channels, M)
/// sequences): as (batch, channels, outer / 2, 2 inner), row n_o holding the
/// (re, im) pairs of the packed z[n_o inner + n_i]; z's rows from outer / 2
/// on are the zero padding.
ViewShape outerSequenceView(const Plan &plan, int64_t batch, int64_t channels);

/// The outer passes' grid: (inner / columnBlock, channels, batch), a
/// program a column block of one batch row.
std::array<int64_t, 3> outerGrid(const Plan &plan, int64_t batch,
                                 int64_t channels);

/// The tile-compile flags (after --target sm_90a) the kernel library
/// compiles a plan's kernels with, as measured on the H200
/// (bench/RESULTS.md): warps, LICM, blocks per SM and the pairing, fma and
/// descriptor options, per plan and gates. The build script
/// (`tessera conv-flags`) and buildCommand both take them from here.
std::string compileFlags(const Plan &p, bool preGate, bool postGate);

/// Element type of u, the gates and y.
enum class ElementType { bf16, f16 };
const char *name(ElementType type);

/// Whether the three passes keep their forward side (the work buffer
/// between the outer and the inner pass, the inner pass's two forward
/// stages) in f16 under one scale per sequence, which a fourth kernel,
/// conv_bound, computes first (bf16 with a row-column inner FFT). See
/// ConvKernels.cpp.
bool forwardInF16(const Plan &p, ElementType dtype);

/// The CTAs an SM that an outer pass of a multi-pass plan asks registers
/// for (the kernel's min_blocks_per_sm; 0: ptxas's choice), as measured on
/// the H200 (bench/RESULTS.md), per element type. The outer passes are memory
/// bound with little in flight a CTA, so more CTAs an SM move more bytes at
/// once. `gated`: the pass applies its gate (pre for the forward, post for
/// the inverse).
int64_t outerBlocksPerSm(const Plan &p, bool inverse, ElementType dtype,
                         bool gated);

/// A plan's kernels for an element type in the order its module defines
/// them: "conv_fused", or "conv_outer_fwd", "conv_inner", "conv_outer_inv"
/// and, where forwardInF16, "conv_bound" (which a call launches first).
std::vector<const char *> planKernels(const Plan &p, ElementType dtype);

/// The name of one of a plan's kernels (planKernels) for an element type
/// and gates.
std::string kernelName(const char *kernel, const Plan &p, ElementType dtype,
                       bool preGate, bool postGate);

} // namespace tessera::conv

#endif // TESSERA_KERNELS_CONV_CONVPLAN_H
