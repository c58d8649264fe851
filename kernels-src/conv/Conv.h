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
#include "kernels-src/conv/ConvPlan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::conv {

/// A compiled variant.
struct Config {
  dsl::DType dtype = dsl::bf16; // of u, the gates and y: bf16 or f16
  bool preGate = false, postGate = false;
  bool forceMultiPass = false;
};

/// Adds the kernels of `config` for `seqlen` to `module` (the fused kernel,
/// or the three multi-pass kernels).
void build(dsl::KernelModule &module, int64_t seqlen, const Config &config);

/// conv_copy_rows_<dtype>(src, dst): dst (batch, channels, Ld) = src
/// (batch, channels, Ls) on [0, min(Ls, Ld)), zeros beyond Ls; grid
/// (ceil(Ld / 1024), channels, batch). The GPU path pads u and the gates to
/// paddedLength with it and crops y back.
void buildCopyRows(dsl::KernelModule &module, dsl::DType dtype);

/// The elementwise kernels of the cuFFT baseline (the convolution as a
/// PyTorch user writes it: cast to f32, rfft of the zero-padded input,
/// product with the precomputed spectrum, irfft, cast back), one program
/// per 1024 elements of a row:
///   fftconv_cast_pad_<dtype>[_pre](u, [pre], x): x (rows, 2 L) f32 =
///       pre * u in [0, L), zeros in [L, 2 L); grid (2 L / 1024, rows).
///   fftconv_mul(X, K, channels): X (rows, L + 1, 2) *= K (channels,
///       L + 1, 2), complex, row r by channel r % channels;
///       grid (ceil((L + 1) / 1024), rows).
///   fftconv_cast_back_<dtype>[_post](x, [post], scale, y): y (rows, L) =
///       post * scale * x[:, :L]; grid (ceil(L / 1024), rows).
void buildTorchBaseline(dsl::KernelModule &module, dsl::DType dtype,
                        bool preGate, bool postGate);

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
