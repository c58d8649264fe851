//===- Conv.h - butterfly (Monarch FFT) long convolution --------*- C++ -*-===//
//
// y = post * (causal convolution of (pre * u) with k)[:seqlen], per channel:
//   y[b, h, t] = post[b, h, t] * sum_{s <= t} k[h, s] * pre[b, h, t - s] * u[b,
//   h, t - s]
// computed through an FFT of size N = 2M, M = fftSize(seqlen) (the next
// power of two), where u' = pre * u zero-padded to N. Real-input packing
// turns the real length-N transform into a complex one of size M:
//   z[n] = u'[2n] + i u'[2n + 1],   Z = FFT_M(z)
// and the pointwise product with the kernel spectrum, together with the
// packing and unpacking, becomes (k in [0, M), indices mod M)
//   Zy[f] = P[f] Z[f] + Q[f] conj(Z[-f]),   zy = IFFT_M(Zy) (with its 1/M),
//   y[2n] = Re zy[n],  y[2n + 1] = Im zy[n].
// P and Q depend on the kernel only: `prepare` computes them once.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_KERNELS_CONV_H
#define TESSERA_KERNELS_CONV_H

#include "dsl/Tessera.h"
#include "interpreter/Interpreter.h"

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

/// A compiled variant.
struct Config {
  dsl::DType dtype = dsl::bf16; // of u, the gates and y: bf16 or f16
  bool preGate = false, postGate = false;
  bool forceMultiPass = false;
};

/// Adds the kernels of `config` for `seqlen` to `module` (the fused kernel,
/// or the three multi-pass kernels).
void build(dsl::KernelModule &module, int64_t seqlen, const Config &config);

/// Buffers of one call: u, pre, post and y (batch, channels, seqlen), all
/// exactly Config::dtype; spectrum (channels, 4, M) f32 from
/// prepareSpectrum. seqlen is 2..65536 (any length; non-powers of two are
/// padded).
struct Buffers {
  interp::Buffer *u = nullptr, *spectrum = nullptr, *pre = nullptr,
                 *post = nullptr, *y = nullptr;
};

/// Runs the convolution through the interpreter; validates everything first
/// (clear errors, nothing launched). `launches` receives the launch count.
interp::Status forwardInterpreted(const Shape &shape, const Config &config,
                                  Buffers &buffers, int *launches = nullptr);

} // namespace tessera::conv

#endif // TESSERA_KERNELS_CONV_H
