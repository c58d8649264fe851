//===- ConvReference.cpp - float64 direct convolution and kernel spectrum -===//
//
// `reference`: the causal convolution of Conv.h evaluated directly in double,
// O(seqlen^2) per (batch, channel), sharing nothing with the FFT algorithm.
//
// `prepareSpectrum`: the packed-real spectrum P, Q of Conv.h from a float64
// radix-2 FFT of the zero-padded kernel (size N = 2M), twiddles computed one
// by one with std::polar (no recurrences, so no accumulated phase error).
//
//===----------------------------------------------------------------------===//

#include "kernels-src/conv/ConvPlan.h"

#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>

namespace tessera::conv {
namespace {

using cd = std::complex<double>;

[[noreturn]] void fail(const char *who, const std::string &message) {
  throw std::invalid_argument(std::string("conv::") + who + ": " + message);
}

void checkPositive(const char *who, const char *name, int64_t value) {
  if (value < 1)
    fail(who,
         std::string(name) + " must be positive, got " + std::to_string(value));
}

void checkSize(const char *who, const char *name, const std::vector<double> &v,
               int64_t want, const std::string &shape) {
  if (static_cast<int64_t>(v.size()) != want)
    fail(who, std::string(name) + " has " + std::to_string(v.size()) +
                  " elements, expected " + std::to_string(want) +
                  " for shape " + shape);
}

/// In-place iterative radix-2 decimation-in-time forward FFT (sign -1) of
/// a power-of-two length, twiddles from a table computed with std::polar.
void fft(std::vector<cd> &a) {
  const size_t n = a.size();
  if (n <= 1)
    return;
  // Bit-reversal permutation.
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j ^= bit;
    if (i < j)
      std::swap(a[i], a[j]);
  }
  std::vector<cd> w(n / 2);
  for (size_t j = 0; j < n / 2; ++j)
    w[j] = std::polar(1.0, -2.0 * std::numbers::pi * static_cast<double>(j) /
                               static_cast<double>(n));
  for (size_t len = 2; len <= n; len <<= 1) {
    const size_t half = len / 2, step = n / len;
    for (size_t start = 0; start < n; start += len)
      for (size_t j = 0; j < half; ++j) {
        cd t = w[j * step] * a[start + j + half];
        a[start + j + half] = a[start + j] - t;
        a[start + j] += t;
      }
  }
}

} // namespace

std::vector<double> reference(const Shape &shape, const std::vector<double> &u,
                              const std::vector<double> &k,
                              const std::vector<double> &pre,
                              const std::vector<double> &post) {
  const char *who = "reference";
  checkPositive(who, "shape.batch", shape.batch);
  checkPositive(who, "shape.channels", shape.channels);
  checkPositive(who, "shape.seqlen", shape.seqlen);
  const int64_t B = shape.batch, H = shape.channels, L = shape.seqlen;
  const std::string bhl = "(batch " + std::to_string(B) + ", channels " +
                          std::to_string(H) + ", seqlen " + std::to_string(L) +
                          ")";
  checkSize(who, "u", u, B * H * L, bhl);
  checkSize(who, "k", k, H * L,
            "(channels " + std::to_string(H) + ", seqlen " + std::to_string(L) +
                ")");
  if (!pre.empty())
    checkSize(who, "pre (the pre gate)", pre, B * H * L, bhl);
  if (!post.empty())
    checkSize(who, "post (the post gate)", post, B * H * L, bhl);

  std::vector<double> y(B * H * L, 0.0);
  std::vector<double> v(L);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      const int64_t row = (b * H + h) * L;
      for (int64_t t = 0; t < L; ++t)
        v[t] = pre.empty() ? u[row + t] : pre[row + t] * u[row + t];
      // y[t] = sum_{s <= t} k[s] v[t - s], accumulated as one axpy per lag s
      // (y[s..L) += k[s] v[0..L-s)): independent iterations, vectorizable.
      double *__restrict out = y.data() + row;
      const double *__restrict in = v.data();
      const double *kh = k.data() + h * L;
      for (int64_t s = 0; s < L; ++s) {
        const double ks = kh[s];
        double *__restrict dst = out + s;
        const int64_t n = L - s;
        for (int64_t t = 0; t < n; ++t)
          dst[t] += ks * in[t];
      }
      if (!post.empty())
        for (int64_t t = 0; t < L; ++t)
          out[t] *= post[row + t];
    }
  return y;
}

std::vector<double> prepareSpectrum(int64_t channels, int64_t seqlen,
                                    const std::vector<double> &k,
                                    bool forceMultiPass) {
  const char *who = "prepareSpectrum";
  checkPositive(who, "channels", channels);
  checkPositive(who, "seqlen", seqlen);
  checkSize(who, "k", k, channels * seqlen,
            "(channels " + std::to_string(channels) + ", seqlen " +
                std::to_string(seqlen) + ")");
  const int64_t M = fftSize(seqlen), N = 2 * M;
  if (M < seqlen)
    fail(who, "FFT size M = " + std::to_string(M) + " is shorter than seqlen " +
                  std::to_string(seqlen));

  // w^k and w^-k for k in [0, M), w = exp(-2 pi i / N).
  std::vector<cd> wPos(M), wNeg(M);
  for (int64_t j = 0; j < M; ++j) {
    const double angle = -2.0 * std::numbers::pi * static_cast<double>(j) /
                         static_cast<double>(N);
    wPos[j] = std::polar(1.0, angle);
    wNeg[j] = std::polar(1.0, -angle);
  }

  const Plan p = plan(seqlen, forceMultiPass);
  const cd I(0.0, 1.0);
  std::vector<double> out(channels * 4 * M);
  std::vector<cd> K(N);
  for (int64_t h = 0; h < channels; ++h) {
    std::fill(K.begin(), K.end(), cd(0.0, 0.0));
    for (int64_t t = 0; t < seqlen; ++t)
      K[t] = cd(k[h * seqlen + t], 0.0);
    fft(K);
    double *row = out.data() + h * 4 * M;
    for (int64_t j = 0; j < M; ++j) {
      const cd Kk = K[j], Kr = K[M - j]; // K[M] for j = 0
      const cd a = (1.0 - I * wPos[j]) / 2.0, b = (1.0 + I * wPos[j]) / 2.0;
      const cd ap = (1.0 + I * wNeg[j]) / 2.0, bp = (1.0 - I * wNeg[j]) / 2.0;
      const cd P = ap * a * Kk + bp * std::conj(bp) * std::conj(Kr);
      const cd Q = ap * b * Kk + bp * std::conj(ap) * std::conj(Kr);
      const int64_t at = spectrumIndex(p, j);
      row[0 * M + at] = P.real();
      row[1 * M + at] = P.imag();
      row[2 * M + at] = Q.real();
      row[3 * M + at] = Q.imag();
    }
  }
  return out;
}

} // namespace tessera::conv
