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

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::conv {

struct Shape {
  int64_t batch = 1, channels = 1, seqlen = 256;
};

/// FFT size M = seqlen rounded up to a power of two (the packed complex
/// length; the real FFT size is N = 2M).
int64_t fftSize(int64_t seqlen);

/// float64 reference: the direct causal convolution (no FFT). u, pre, post,
/// y are (batch, channels, seqlen) row-major, k is (channels, seqlen); pre
/// and post may be empty (no gate).
std::vector<double> reference(const Shape &shape, const std::vector<double> &u,
                              const std::vector<double> &k,
                              const std::vector<double> &pre,
                              const std::vector<double> &post);

/// The kernel's spectrum in the layout the convolution kernels read:
/// (channels, 4, M) f32, rows P.re, P.im, Q.re, Q.im in natural frequency
/// order k = 0..M-1. With w = exp(-2 pi i / N), N = 2M, K = FFT_N(k padded
/// with zeros to N), Kk = K[k], Kr = K[M - k] (K[M] for k = 0):
///   a  = (1 - i w^k) / 2,     b  = (1 + i w^k) / 2,
///   a' = (1 + i w^-k) / 2,    b' = (1 - i w^-k) / 2,
///   P = a' a Kk + b' conj(b') conj(Kr),
///   Q = a' b Kk + b' conj(a') conj(Kr).
/// (f is the frequency index here.) Computed in float64 on the host (an
/// O(N log N) FFT); the caller stores it in an f32 buffer. P and Q carry no
/// 1/M: the inverse transform's 1/M is applied by the kernels.
std::vector<double> prepareSpectrum(int64_t channels, int64_t seqlen,
                                    const std::vector<double> &k);

/// How the FFT of size M is split: `fused` runs everything in one kernel
/// (factors: the radices of its stages, at most 32 each: one for M <= 32,
/// two up to 1024, three beyond); otherwise three
/// passes: an outer FFT of size `outer` over columns, the fused inner FFT of
/// size M / outer (factors) with the spectrum product, and the inverse outer
/// FFT.
struct Plan {
  int64_t M = 0;
  bool fused = true;
  int64_t outer = 1;
  std::vector<int64_t> factors;
};

/// The default plan: fused while N = 2M <= 32768, multi-pass beyond.
/// `forceMultiPass` takes the multi-pass path at any size (for tests).
Plan plan(int64_t seqlen, bool forceMultiPass = false);

/// Radices of the stages of an FFT of size n (powers of two, at most 32).
std::vector<int64_t> radices(int64_t n);

/// Columns of the inner FFT each program of the outer passes takes.
int64_t columnBlock(const Plan &p);

/// Element type of u, the gates and y.
enum class ElementType { bf16, f16 };
const char *name(ElementType type);

/// The name of one of a plan's kernels ("conv_fused", "conv_outer_fwd",
/// "conv_inner", "conv_outer_inv") for an element type and gates.
std::string kernelName(const char *kernel, const Plan &p, ElementType dtype,
                       bool preGate, bool postGate);

} // namespace tessera::conv

#endif // TESSERA_KERNELS_CONV_CONVPLAN_H
