//===- ConvKernels.cpp - butterfly long convolution in the tile DSL
//--------===//
//
// The FFT of size M is a Monarch / four-step decomposition M = m1 * m2 * ...
// whose stages are complex matmuls of small DFT matrices (in the data type,
// on Tensor Cores, f32 accumulation) and elementwise twiddles. Forward DFT
// matrices carry the 1/m of their stage (exact: m is a power of two), so
// f16 data never grows past the input's scale. Two forms (ConvPlan.h):
//
// - Row-column (M or the inner size 512..4096): X = z as an m1 x m2 matrix,
//   FFT = (F_m1 X) o twiddle, times F_m2 on the right; frequencies end in
//   [k1][k2] order, the spectrum is stored (fused path) or read (three
//   passes) in that order, and nothing is ever permuted.
// - Permuting stages (the inner size of forced three-pass plans below 8K,
//   for tests): every stage is a left product on the tile viewed as
//   (m, M / m), permuted so the transform ends in natural frequency order.
//
// Fused path (M = 512..4096, always row-column): a program keeps whole
// sequences on chip: FFT, spectrum product (with real-input packing),
// inverse FFT, for 16 batch rows of its channel in turn. Multi-pass path
// (M >= 8192): M = outer * inner; pass 1 transforms columns (the outer
// factor), pass 2 does the inner FFT, product and inverse inner FFT on
// pairs of rows (k, -k mod outer; rows 0 and outer / 2, each its own
// partner, share a program), 16 batch rows per program, pass 3 inverts the
// columns; the work buffer between them is in the element type.
//
//===----------------------------------------------------------------------===//

#include "kernels-src/conv/Conv.h"

#include "kernels-src/common/Check.h"

#include <cassert>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>
#include <utility>

namespace tessera::conv {
namespace {
using namespace dsl;

struct Complex {
  Tile re, im;
};

Complex operator+(const Complex &a, const Complex &b) {
  return {a.re + b.re, a.im + b.im};
}
Complex operator*(const Complex &a, const Complex &b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
Complex conj(const Complex &a) { return {a.re, -a.im}; }
Complex reshape(const Complex &a, const dsl::Shape &shape) {
  return {dsl::reshape(a.re, shape), dsl::reshape(a.im, shape)};
}
Complex permute(const Complex &a, const std::vector<int64_t> &perm) {
  return {dsl::permute(a.re, perm), dsl::permute(a.im, perm)};
}

/// Rows [0, rows) and columns [0, cols) of the DFT matrix
/// F[j][n] = exp(-+2 pi i j n / m) * scale as constant tiles in `dtype` (with
/// -Im, so that a complex product is four mma).
struct Dft {
  Tile re, im, negIm;
};

Dft dftMatrix(int64_t rows, int64_t cols, int64_t m, bool inverse,
              DType dtype) {
  std::vector<double> re(rows * cols), im(rows * cols), negIm(rows * cols);
  const double scale = inverse ? 1.0 : 1.0 / double(m);
  for (int64_t j = 0; j < rows; ++j)
    for (int64_t n = 0; n < cols; ++n) {
      double angle =
          (inverse ? 2.0 : -2.0) * M_PI * double((j * n) % m) / double(m);
      re[j * cols + n] = std::cos(angle) * scale;
      im[j * cols + n] = std::sin(angle) * scale;
      negIm[j * cols + n] = -im[j * cols + n];
    }
  return {constant({rows, cols}, dtype, re), constant({rows, cols}, dtype, im),
          constant({rows, cols}, dtype, negIm)};
}

Dft dftMatrix(int64_t m, bool inverse, DType dtype) {
  return dftMatrix(m, m, m, inverse, dtype);
}

/// F * X: the data is rounded to `dtype` for the Tensor Core, products
/// accumulate in f32.
Complex dftTimes(const Dft &F, const Complex &x, DType dtype) {
  Tile xr = cast(x.re, dtype), xi = cast(x.im, dtype);
  Tile zero = zeros({F.re.shape()[0], x.re.shape()[1]}, f32);
  return {mma(F.negIm, xi, mma(F.re, xr, zero)),
          mma(F.im, xr, mma(F.re, xi, zero))};
}

/// X * F (F symmetric, so the same matrix transforms X's rows): the data
/// is the left operand, rounded to `dtype`.
Complex timesDft(const Complex &x, const Dft &F, DType dtype) {
  Tile xr = cast(x.re, dtype), xi = cast(x.im, dtype);
  Tile zero = zeros({x.re.shape()[0], F.re.shape()[1]}, f32);
  return {mma(xi, F.negIm, mma(xr, F.re, zero)),
          mma(xr, F.im, mma(xi, F.re, zero))};
}

/// exp(-+2 pi i * row * col / (rows * cols)) for row in [0, rows) and
/// col in [0, cols), shaped (rows, 1, cols).
Complex twiddle(int64_t rows, int64_t cols, int64_t period, bool inverse) {
  Tile r = reshape(iota(rows), {rows, 1, 1});
  Tile c = reshape(iota(cols), {1, 1, cols});
  Tile angle =
      cast(r * c, f32) * ((inverse ? 2.0 : -2.0) * M_PI / double(period));
  return {cos(angle), sin(angle)};
}

/// The FFT of a length-M complex tile in natural order, with the stages
/// `factors`: forward scaled by 1/M, inverse unscaled. Both take and give
/// natural order.
Complex fft(Complex x, const std::vector<int64_t> &factors, DType dtype,
            bool inverse) {
  int64_t M = 1;
  for (int64_t m : factors)
    M *= m;
  if (!inverse) {
    // Stage j: x is [k_{j-1}..k_1, n_j, n_{j+1}..] = (done, m, rest).
    int64_t done = 1, rest = M;
    for (int64_t m : factors) {
      rest /= m;
      x = permute(reshape(x, {done, m, rest}), {1, 0, 2});
      x = dftTimes(dftMatrix(m, false, dtype), reshape(x, {m, done * rest}),
                   dtype);
      x = reshape(x, {m, done, rest});
      if (rest > 1)
        x = x * twiddle(m, rest, m * rest, false);
      done *= m;
    }
    return reshape(x, {M});
  }
  // The exact reverse of the forward stages.
  int64_t done = M, rest = 1;
  for (auto it = factors.rbegin(); it != factors.rend(); ++it) {
    int64_t m = *it;
    done /= m;
    x = reshape(x, {m, done, rest});
    if (rest > 1)
      x = x * twiddle(m, rest, m * rest, true);
    x = dftTimes(dftMatrix(m, true, dtype), reshape(x, {m, done * rest}),
                 dtype);
    x = permute(reshape(x, {m, done, rest}), {1, 0, 2});
    rest *= m;
  }
  return reshape(x, {M});
}

/// exp(-+2 pi i * row * col / period) as a rows x cols tile, col counted
/// from colOffset (0 when absent).
/// With `rowCycle`, row r is row r mod rowCycle's.
Complex twiddleMatrix(int64_t rows, int64_t cols, int64_t period, bool inverse,
                      const Scalar &colOffset = Scalar(),
                      int64_t rowCycle = 0) {
  Tile r = reshape(iota(rows), {rows, 1});
  if (rowCycle)
    r = r % double(rowCycle);
  Tile c = reshape(iota(cols), {1, cols});
  if (colOffset.value())
    c = c + cast(colOffset, i32);
  Tile angle =
      cast(r * c, f32) * ((inverse ? 2.0 : -2.0) * M_PI / double(period));
  return {cos(angle), sin(angle)};
}

/// What the row-column FFT of M = m1 m2 multiplies by: the first `half`
/// columns of F_m1 (the rest of X is zero), F_m2, the twiddle w_M^(k1 n2),
/// and for the inverse conj(F_m2), the conjugate twiddle and the first
/// `half` rows of conj(F_m1).
struct RowColumnDfts {
  Dft left, right, rightInverse, leftInverse;
  Complex twiddle, twiddleInverse;
};

RowColumnDfts rowColumnDfts(int64_t m1, int64_t m2, int64_t half, DType dtype) {
  return {dftMatrix(m1, half, m1, false, dtype),
          dftMatrix(m2, false, dtype),
          dftMatrix(m2, true, dtype),
          dftMatrix(half, m1, m1, true, dtype),
          twiddleMatrix(m1, m2, m1 * m2, false),
          twiddleMatrix(m1, m2, m1 * m2, true)};
}

/// The row-column FFT (Plan::rowColumn) of z, M = m1 m2, given as the first
/// `half` rows of X[n1][n2] = z[n1 m2 + n2] (the rest is zero, so only those
/// columns of F_m1 take part): A = F_m1 X, then the twiddle
/// A[k1][n2] *= w_M^(k1 n2), then Z = A F_m2, with Z[k1][k2] = FFT(z)[k1 +
/// m1 k2], scaled by 1/M.
/// In two stages (the inner pass runs each for two rows at once; the fused
/// kernel runs them as fftRowColumnWithConjugate, which also gives the
/// transform of conj(z)): A = F_m1 X, then Z = (A o twiddle) F_m2.
Complex fftRowColumnFirst(const Complex &x, const RowColumnDfts &d,
                          DType dtype) {
  return dftTimes(d.left, x, dtype);
}
Complex fftRowColumnSecond(const Complex &a, const RowColumnDfts &d,
                           DType dtype) {
  return timesDft(a * d.twiddle, d.right, dtype);
}

/// The transforms of z and of conj(z) by the row-column FFT, from the same four
/// real products of the first stage: with F X = (rr - ii) + i (ri + ir),
/// F conj(X) = (rr + ii) + i (ir - ri). FFT(conj z)[k] = conj(Z[-k]), the
/// partner the real-input packing needs, then comes in Z's own order and
/// layout: no gather, no exchange.
///
/// In bf16 the second stage takes A o twiddle in f16, each row scaled by
/// 2^14 over a bound of its elements, and returns Z and conj(Z[-k]) with
/// their rows still scaled (`rowScale`, to multiply back after the
/// spectrum product). Rounding A to bf16 (8 bits) made the error of
/// constant inputs exceed 1e-2 for about 1 in 100 random kernels; f16 keeps
/// 11 bits but ends at 65504, hence the scale. Per row because the second
/// stage contracts along rows, so a row's factor comes out on Z's row; the
/// bound is a row maximum of the accumulators, which the compiler reduces
/// in place (two shuffles), where one scale for the whole sequence needed
/// a sum across warps (bench/RESULTS.md, sessions 34 and 35).
struct ConjugatePair {
  Complex Z, Zc;
  Tile rowScale; // {m1, 1}; empty unless bf16
};
ConjugatePair fftRowColumnWithConjugate(const Complex &x,
                                        const RowColumnDfts &d, DType dtype) {
  Tile xr = cast(x.re, dtype), xi = cast(x.im, dtype);
  Tile zero = zeros({d.left.re.shape()[0], x.re.shape()[1]}, f32);
  Tile rr = mma(d.left.re, xr, zero), ii = mma(d.left.im, xi, zero);
  Tile ri = mma(d.left.re, xi, zero), ir = mma(d.left.im, xr, zero);
  if (dtype != DType::bf16) {
    Complex a = Complex{rr - ii, ri + ir} * d.twiddle;
    Complex aConj = Complex{rr + ii, ir - ri} * d.twiddle;
    return {timesDft(a, d.right, dtype), timesDft(aConj, d.right, dtype),
            Tile()};
  }
  // Both parts of every element of A o twiddle and of its conjugate
  // partner's operand are at most |rr| + |ii| + |ri| + |ir| at that
  // element (|twiddle| = 1). The floor keeps 2^14 / bound finite. (Inputs
  // near f32's limit would make the bound inf and the row NaN; the f32
  // accumulators of the products overflow at about that size anyway.)
  Tile bound = maximum(max(abs(rr) + abs(ii) + abs(ri) + abs(ir), 1), 1e-30);
  Tile up = 16384.0 / bound;
  Complex a = Complex{rr - ii, ri + ir} * d.twiddle;
  Complex aConj = Complex{rr + ii, ir - ri} * d.twiddle;
  a = {a.re * up, a.im * up};
  aConj = {aConj.re * up, aConj.im * up};
  const int64_t m2 = d.right.re.shape()[0];
  const Dft right = dftMatrix(m2, false, DType::f16);
  return {timesDft(a, right, DType::f16), timesDft(aConj, right, DType::f16),
          bound * (1.0 / 16384.0)};
}

/// The inverse of the row-column FFT (unscaled), its first `half` rows:
/// E = Z conj(F_m2), E[k1][n2] *= w_M^(-k1 n2), X = conj(F_m1) E.
Complex ifftRowColumnFirst(const Complex &Z, const RowColumnDfts &d,
                           DType dtype) {
  return timesDft(Z, d.rightInverse, dtype) * d.twiddleInverse;
}
Complex ifftRowColumnSecond(const Complex &e, const RowColumnDfts &d,
                            DType dtype) {
  return dftTimes(d.leftInverse, e, dtype);
}
Complex ifftRowColumn(const Complex &Z, const RowColumnDfts &d, DType dtype) {
  return ifftRowColumnSecond(ifftRowColumnFirst(Z, d, dtype), d, dtype);
}

/// Z[-k - shift] (shift 0 or 1, an i32 scalar) for the [k1][k2] order of
/// the row-column FFT. With shift 0, -(k1 + m1 k2) mod M is
/// k1' = -k1 mod m1, k2' = (-k2 - [k1 != 0]) mod m2; with shift 1,
/// M - 1 - k is k1' = m1 - 1 - k1, k2' = m2 - 1 - k2. One gather along
/// both axes (the column index depends on the row through the borrow):
/// one exchange between threads, where a row gather and then a column
/// gather took two (H200, bench/RESULTS.md session 32); the planes of Z
/// share it.
std::vector<Tile> negatedRowColumn(const std::vector<Tile> &Z, int64_t m1,
                                   int64_t m2, const Scalar &shift) {
  Tile k1 = reshape(iota(m1), {m1, 1}), k2 = reshape(iota(m2), {1, m2});
  Tile zeroCols = k2 * 0.0;
  Tile borrow = minimum(k1, 1.0) + zeroCols;
  Tile rows = (double(m1) - k1) + zeroCols - shift;
  borrow = maximum(borrow, splat(shift, {m1, m2}));
  rows = rows % double(m1);
  Tile cols = ((double(2 * m2) - k2) - borrow) % double(m2);
  return dsl::gather(Z, {rows, cols}, {0, 1});
}

/// (n - shift - k) mod n for k in [0, n): the index of -k (shifted) in a
/// length-n frequency row.
Tile negatedIndex(int64_t n, const Scalar &shift = Scalar()) {
  Tile k = iota(n);
  Tile idx = double(2 * n) - k;
  if (shift.value())
    idx = idx - cast(shift, i32);
  return idx % double(n);
}

Complex loadComplexRow(const View &v, const std::vector<Scalar> &reIndex,
                       const std::vector<Scalar> &imIndex,
                       const dsl::Shape &tile, const dsl::Shape &shape) {
  return {reshape(load(v, reIndex, tile), shape),
          reshape(load(v, imIndex, tile), shape)};
}

ElementType elementType(const Config &c) {
  return c.dtype == DType::f16 ? ElementType::f16 : ElementType::bf16;
}

/// Whether the three passes keep their forward side in f16 under a scale
/// (bf16 with a row-column inner FFT, every three-pass length): the work
/// buffer between the outer and the inner pass and the inner pass's two
/// forward stages. Rounded to bf16 there, the white error of a constant
/// input's concentrated spectrum exceeded 1e-2 for about 1.4% of random
/// kernels (interpreter, 3200 a length: 8192 max 1.82e-2, 16384 1.53e-2;
/// in f16 5.9e-3 and 7.2e-3, none above; bench/RESULTS.md session 36). The
/// inverse side stays bf16: its error is relative to y.
bool forwardInF16(const Plan &p, const Config &c) {
  return forwardInF16(p, elementType(c));
}

/// |X| <= max |z| over the sequence (the outer forward matrix carries
/// 1 / Mo); scaled to 2^8 it stays inside f16 through the inner first
/// stage's 64 terms (|A| <= 64 sqrt(2) 2^8 < 65504). f16 keeps 11 bits at
/// any scale; the scale only keeps the range.
constexpr double kWorkScaleTarget = 256.0;

/// Sequence (b, h)'s scale s from conv_bound's `scales` view, as {1, 1}.
Tile sequenceScale(KernelArgs &args, const Scalar &b, const Scalar &h) {
  return reshape(load(args["scales"], {b, h, 0}, {1, 1, 1}), {1, 1});
}

std::string variantName(const char *kernel, int64_t M, const Config &c,
                        const Plan &p) {
  (void)M; // p.M
  return kernelName(kernel, p, elementType(c), c.preGate, c.postGate);
}

/// u' (or y) of one (batch, channel) as packed complex z[n] = v[2n] + i
/// v[2n + 1]: the tensor is viewed as (batch, channels, seqlen / 2, 2).
Complex loadPacked(const View &v, const Scalar &b, const Scalar &h, int64_t M) {
  return {cast(reshape(load(v, {b, h, 0, 0}, {1, 1, M, 1}), {M}), f32),
          cast(reshape(load(v, {b, h, 0, 1}, {1, 1, M, 1}), {M}), f32)};
}

/// `t` rounded to `dtype` and back to f32.
Tile roundedTo(const Tile &t, DType dtype) { return cast(cast(t, dtype), f32); }

/// Whether the fused kernel rounds the inverse to the element type before
/// the post gate. The gate is loaded as (re, im) pairs in a blocked layout,
/// so the inverse leaves the accumulators' layout for the product: as 16-bit
/// elements instead of f32 it exchanges half the bytes through shared
/// memory, for one more rounding (bf16 random inputs 3.8e-3 -> 4.2e-3).
/// H200, 16 x 768, both gates, two runs (bench/RESULTS.md run98): bf16 1K
/// 0.123 -> 0.116 ms, 2K 0.236 -> 0.221, 4K 0.764 -> 0.723; f16 M 512
/// (seqlen 256) 0.064 -> 0.060, 1K 0.120 -> 0.114, 2K 0.247 -> 0.236.
/// Slower at bf16 M 512 (seqlen 256: 0.069 -> 0.073), which keeps f32; so
/// does f16 4K (0.653 -> 0.679 before its late loads, 0.664 -> 0.662 with
/// them, run99: a wash, so one rounding fewer). The three-pass inverse
/// gained nothing (8K to 64K within 1%).
bool roundsBeforePostGate(const Plan &p, DType dtype) {
  if (dtype == DType::bf16)
    return p.M == 1024 || p.M == 2048 || p.M == 4096;
  return p.M == 512 || p.M == 1024 || p.M == 2048;
}

/// The fused kernel's body for Plan::rowColumn, for the batch rows
/// [b0, b0 + rowsPerProgram) of channel h, one after the other: z's first
/// M / 2 samples (the rest is u's zero padding) as the top half of the
/// m1 x m2 matrix, the row-column FFT, the spectrum product in [k1][k2]
/// order, the inverse, and the top half of the result (y's seqlen <= M
/// samples). Everything is built per row (registers stay free); the
/// compiler writes the shared-memory copies of the DFT matrices once per
/// program (tile-remove-layout-conversions hoists them out of the loop).
void fusedRowColumn(KernelArgs &args, const Plan &p, const Config &c,
                    const View &u, const View &spectrum, const View &y,
                    const Scalar &b0, const Scalar &h) {
  const int64_t M = p.M, m1 = p.factors[0], m2 = p.factors[1], half = m1 / 2;
  const Scalar rows = min(Scalar(p.rowsPerProgram), u.dim(0) - b0);
  for_range(Scalar(0), rows, [&](Scalar i) {
    Scalar b = b0 + i;
    auto loadHalf = [&](const View &v) {
      Complex z = loadPacked(v, b, h, M / 2);
      return reshape(z, {half, m2});
    };
    Complex z = loadHalf(u);
    if (c.preGate) {
      Complex g = loadHalf(args["pre"]);
      z = {z.re * g.re, z.im * g.im};
    }
    const RowColumnDfts dfts = rowColumnDfts(m1, m2, half, c.dtype);
    // Z = FFT(z) and conj(Z[-k]), which is FFT(conj z)[k] (Plan).
    auto [Z, Zc, rowScale] = fftRowColumnWithConjugate(z, dfts, c.dtype);
    // Load indices count tiles: tile (4 h + r) of m1 rows.
    auto row = [&](int64_t r) {
      return load(spectrum, {h * Scalar(4) + Scalar(r), 0}, {m1, m2});
    };
    Complex P{row(0), row(1)}, Q{row(2), row(3)};
    Complex Zy = P * Z + Q * Zc;
    if (rowScale.value())
      Zy = {Zy.re * rowScale, Zy.im * rowScale};
    Complex out = ifftRowColumn(Zy, dfts, c.dtype);
    if (c.postGate) {
      Complex g = loadHalf(args["post"]);
      if (roundsBeforePostGate(p, c.dtype))
        out = {roundedTo(out.re, c.dtype), roundedTo(out.im, c.dtype)};
      out = {out.re * g.re, out.im * g.im};
    }
    // Through (M / 2): each reshape keeps every element in its thread.
    auto rowOf = [&](const Tile &t) {
      return reshape(reshape(cast(t, c.dtype), {M / 2}), {1, 1, M / 2, 1});
    };
    store(y, {b, h, 0, 0}, rowOf(out.re));
    store(y, {b, h, 0, 1}, rowOf(out.im));
  });
}

/// The fused kernel (Plan::fused, always row-column): a program takes
/// rowsPerProgram batch rows of one channel.
void buildFused(KernelModule &m, const Plan &p, const Config &c) {
  std::vector<Param> params = {view("u", c.dtype, 4), view("spectrum", f32, 2)};
  if (c.preGate)
    params.push_back(view("pre", c.dtype, 4));
  if (c.postGate)
    params.push_back(view("post", c.dtype, 4));
  params.push_back(view("y", c.dtype, 4));

  m.kernel(variantName("conv_fused", p.M, c, p), params, [&](KernelArgs &args) {
    View u = args["u"], spectrum = args["spectrum"], y = args["y"];
    Scalar h = program_id(0), b = program_id(1);
    fusedRowColumn(args, p, c, u, spectrum, y, b * Scalar(p.rowsPerProgram), h);
  });
}

/// The two rows of the work buffer a program of the inner pass takes. Row r
/// holds frequencies r + outer k_i, whose negatives -(r + outer k_i) mod M =
/// r' + outer ((-k_i - [r != 0]) mod inner) lie in row r' = -r mod outer:
/// the spectrum product of a row needs its partner's transform. Program
/// j > 0 takes rows j and outer - j, each the other's partner; program 0
/// takes rows 0 and outer / 2, each its own (so no row is transformed
/// twice: outer / 2 programs, not outer / 2 + 1).
struct RowPair {
  Scalar r1, r2;
  /// [r != 0] of each row, i32.
  Scalar shift1, shift2;
  /// The rows are their own partners (program 0), i1.
  Scalar own;
};

RowPair rowPair(const Scalar &pair, int64_t outer) {
  RowPair rp;
  rp.own = pair == Scalar(0);
  rp.r1 = pair;
  rp.r2 =
      Scalar(outer) - pair - cast(cast(rp.own, i32), index) * Scalar(outer / 2);
  rp.shift1 = cast(rp.r1 != Scalar(0), i32);
  rp.shift2 = cast(rp.r2 != Scalar(0), i32);
  return rp;
}

/// A map of the planes of a complex tile, all at once.
using PlanesMap =
    std::function<std::vector<Tile>(const std::vector<Tile> &planes)>;

/// negated(partner) for the row whose own transform is `self`: a branch
/// uniform over the program rather than a select, which would keep a third
/// transform live (the 16K inner pass then spilled). `negated` maps both
/// planes at once (one exchange for the two).
Complex partnerNegated(const RowPair &rp, const Complex &self,
                       const Complex &other, const PlanesMap &negated) {
  auto planes = [&](const Complex &z) { return negated({z.re, z.im}); };
  std::vector<Tile> p = if_else(
      rp.own, [&] { return planes(self); }, [&] { return planes(other); });
  return {p[0], p[1]};
}

/// Pass 2 of the multi-pass path with a row-column inner FFT (Mi = m1 m2):
/// the rows of `rp` (RowPair) of the work buffer, each transformed whole
/// (no zero padding here), the spectrum product in [k1][k2] order
/// (the spectrum's row r holds frequency r + outer (k1 + m1 k2) at
/// [k1][k2]: innerSpectrumView), and the inverse.
void innerRowColumn(KernelArgs &args, const Plan &p, const Config &c,
                    const Scalar &b, const Scalar &h, const RowPair &rp) {
  View work = args["work"], spectrum = args["spectrum"], out = args["out"];
  const int64_t m1 = p.factors[0], m2 = p.factors[1];
  // Each row read as the m1 x m2 tile of a (.., outer, m1, m2) view: rows
  // of m2 elements, which tile-pipeline copies into shared memory
  // asynchronously stages ahead, straight into the wgmma operand.
  auto loadRow = [&](const Scalar &r) {
    return loadComplexRow(work, {b, h, 0, r, 0, 0}, {b, h, 1, r, 0, 0},
                          {1, 1, 1, 1, m1, m2}, {m1, m2});
  };
  const RowColumnDfts dfts = rowColumnDfts(m1, m2, m1, c.dtype);
  // The forward stages in f16 where the work buffer is (forwardInF16).
  const bool f16Forward = forwardInF16(p, c);
  const DType forward = f16Forward ? DType::f16 : c.dtype;
  const RowColumnDfts forwardDfts =
      f16Forward ? rowColumnDfts(m1, m2, m1, forward) : dfts;
  // Each stage for both rows before the next (the two rows are
  // independent): their wgmma are then in flight together
  // (tile-defer-mma-waits).
  auto both = [&](auto stage, const Complex &a, const Complex &b,
                  const RowColumnDfts &d, DType type) {
    Complex first = stage(a, d, type);
    return std::make_pair(first, stage(b, d, type));
  };
  // Named, so r1's loads come first whatever order the host compiler
  // evaluates arguments in (the IR stays the same across toolchains).
  const Complex x1 = loadRow(rp.r1), x2 = loadRow(rp.r2);
  auto [a1, a2] = both(fftRowColumnFirst, x1, x2, forwardDfts, forward);
  auto [Z1, Z2] = both(fftRowColumnSecond, a1, a2, forwardDfts, forward);
  auto coefficients = [&](const Scalar &r, int64_t which) {
    return reshape(load(spectrum, {h, which, r, 0, 0}, {1, 1, 1, m1, m2}),
                   {m1, m2});
  };
  auto product = [&](const Scalar &r, const Scalar &shift, const Complex &Z,
                     const Complex &other) {
    Complex P{coefficients(r, 0), coefficients(r, 1)};
    Complex Q{coefficients(r, 2), coefficients(r, 3)};
    return P * Z + Q * conj(partnerNegated(
                           rp, Z, other, [&](const std::vector<Tile> &t) {
                             return negatedRowColumn(t, m1, m2, shift);
                           }));
  };
  // Both products first (each may need the other row's transform), then
  // one inverse and store at a time.
  Complex Y1 = product(rp.r1, rp.shift1, Z1, Z2),
          Y2 = product(rp.r2, rp.shift2, Z2, Z1);
  // In f16 the work buffer holds the sequence scaled by s: the product
  // stays scaled into the bf16 inverse buffer (bf16 keeps f32's range) and
  // the outer inverse divides it back, which keeps the inner loop as it is.
  // Each row stored as the m1 x m2 tile it is (`out` viewed as `work`):
  // the store takes the accumulator's layout as it is, with no exchange.
  auto storeRow = [&](const Scalar &r, const Complex &w) {
    store(out, {b, h, 0, r, 0, 0},
          reshape(cast(w.re, c.dtype), {1, 1, 1, 1, m1, m2}));
    store(out, {b, h, 1, r, 0, 0},
          reshape(cast(w.im, c.dtype), {1, 1, 1, 1, m1, m2}));
  };
  auto [e1, e2] = both(ifftRowColumnFirst, Y1, Y2, dfts, c.dtype);
  auto [w1, w2] = both(ifftRowColumnSecond, e1, e2, dfts, c.dtype);
  storeRow(rp.r1, w1);
  storeRow(rp.r2, w2);
}

/// The real Mo x Mo matrices of the outer passes, which hold a block of
/// complex columns as one real tile [re; im] of Mo / 2 rows each: the outer
/// FFT's input is half zero padding (only its first Mo / 2 rows are
/// nonzero) and only the first Mo / 2 rows of the inverse's output are
/// kept, so both fit one Tensor Core K (or M) of Mo. At Mo = 8 a K of 8 is
/// half a Tensor Core's (16 for bf16 and f16): the forward then runs as
/// outer8Matrices, and the inverse's products run on the CUDA cores.
/// - Forward (F = F_Mo / Mo on its first Mo / 2 columns), S = [zr; zi]:
///   X.re = first S = [Re F | -Im F] S, X.im = second S = [Im F | Re F] S.
/// - Inverse (F' = conj(F_Mo) on its first Mo / 2 rows, unscaled):
///   [yr; yi] = first Xr + second Xi, first = [Re F'; Im F'],
///   second = [-Im F'; Re F'].
/// The inverse's rows of [yr; yi] are ordered so that one thread of the
/// accumulator holds the real and the imaginary part of each of its
/// outputs: rows 2g b + g j + i hold part j of output g b + i, with g =
/// min(8, Mo / 2), the accumulator's group of rows (8 apart in a thread).
/// The (re, im) pairs then form in registers (tile-remove-layout-conversions
/// pushes the accumulator's layout through the interleave).
int64_t outputGroup(int64_t Mo) { return std::min<int64_t>(8, Mo / 2); }

std::pair<Tile, Tile> outerMatrices(int64_t Mo, bool inverse, DType dtype) {
  const int64_t half = Mo / 2, g = outputGroup(Mo);
  std::vector<double> first(Mo * Mo), second(Mo * Mo);
  auto angle = [&](int64_t j, int64_t n) {
    return (inverse ? 2.0 : -2.0) * M_PI * double((j * n) % Mo) / double(Mo);
  };
  const double scale = inverse ? 1.0 : 1.0 / double(Mo);
  for (int64_t R = 0; R < Mo; ++R)
    for (int64_t c = 0; c < Mo; ++c) {
      // Row R of the inverse is row r of [Re F'; Im F'].
      const int64_t r =
          inverse ? (R / g) % 2 * half + R / (2 * g) * g + R % g : R;
      const bool low = inverse ? r < half : c < half;
      const double a = inverse ? angle(r % half, c) : angle(r, c % half);
      const double re = std::cos(a) * scale, im = std::sin(a) * scale;
      first[R * Mo + c] = inverse ? (low ? re : im) : (low ? re : -im);
      second[R * Mo + c] = inverse ? (low ? -im : re) : (low ? im : re);
    }
  return {constant({Mo, Mo}, dtype, first), constant({Mo, Mo}, dtype, second)};
}

/// The entries of the two real matrices of the forward outer FFT of 8
/// (outer8Matrices) whose products with [Re x; Im x], weighted by the
/// twiddle's real and imaginary parts, sum to [Re((F x) o tw); Im((F x) o
/// tw)], for one entry F = re + i im of the complex DFT: the real (outIm
/// false) or imaginary part of the result, from the real (inIm false) or
/// imaginary part of x. First: [Re F, -Im F; Im F, Re F]; second: [-Im F,
/// -Re F; Re F, -Im F].
std::pair<double, double> foldedTwiddleEntries(double re, double im, bool outIm,
                                               bool inIm) {
  return {outIm ? (inIm ? re : im) : (inIm ? -im : re),
          outIm ? (inIm ? -im : re) : (inIm ? -re : -im)};
}

/// The forward outer matrices of an outer FFT of 8, whose [zr; zi] input
/// (8 rows) is half a Tensor Core K: 16 x 16 tiles whose products give both
/// planes at once, with the twiddle folded in so that no plane has to be
/// swapped or sliced (a tile's rows i and i + 8 are one mma thread's).
/// With S = [zr; zi; zr; zi] (the input twice; the copy meets zero columns)
/// and F = F_8 / 8 on its first 4 columns,
///   [Re(X tw); Im(X tw)] = (first S) o [twr; twr] + (second S) o [twi; twi],
/// first = [Re F, -Im F; Im F, Re F] and second = [-Im F, -Re F; Re F,
/// -Im F] in columns 0 to 7 (each block 8 frequencies x 4 input rows, over
/// zr and zi), columns 8 to 15 zero.
std::pair<Tile, Tile> outer8Matrices(DType dtype) {
  const int64_t Mo = 8, n = 16;
  std::vector<double> first(n * n), second(n * n);
  for (int64_t R = 0; R < n; ++R)
    for (int64_t c = 0; c < Mo; ++c) {
      // Part R / 8 of frequency R % 8, from part c / 4 of input row c % 4.
      const int64_t k = R % Mo, nIn = c % (Mo / 2);
      const double a = -2.0 * M_PI * double((k * nIn) % Mo) / double(Mo);
      const double re = std::cos(a) / double(Mo), im = std::sin(a) / double(Mo);
      std::tie(first[R * n + c], second[R * n + c]) =
          foldedTwiddleEntries(re, im, R >= Mo, c >= Mo / 2);
    }
  return {constant({n, n}, dtype, first), constant({n, n}, dtype, second)};
}

void buildMultiPass(KernelModule &m, const Plan &p, const Config &c) {
  const int64_t M = p.M, Mo = p.outer, Mi = M / Mo, W = columnBlock(p);
  const int64_t half = Mo / 2;
  // The forward work buffer's type (forwardInF16: f16 under one scale
  // per sequence, from conv_bound).
  const bool f16Forward = forwardInF16(p, c);
  const DType workType = f16Forward ? DType::f16 : c.dtype;

  // The work buffers between the passes are in the element type (the
  // forward one in f16 for bf16, above): each pass rounds what it reads to
  // that type for the Tensor Core anyway, and the passes are memory bound.

  // The outer passes view u, the gates and y as (batch, channels, outer /
  // 2, 2 inner) (outerSequenceView): row n_o holds the (re, im) pairs of
  // z[n_o inner + n_i]. A program takes a block of W columns of one batch
  // row (outerGrid).
  // The (half, 2 W) block of pairs at column block col, as f32.
  auto loadPairs = [&](const View &v, const Scalar &b, const Scalar &h,
                       const Scalar &col) {
    return cast(
        reshape(load(v, {b, h, 0, col}, {1, 1, half, 2 * W}), {half, 2 * W}),
        f32);
  };

  // Pass 1: the outer FFT over columns n_i of z viewed as (outer, inner),
  // then the twiddle exp(-2 pi i k_o n_i / M), into the work buffer's
  // (re, im) planes.
  std::vector<Param> p1 = {view("u", c.dtype, 4)};
  if (c.preGate)
    p1.push_back(view("pre", c.dtype, 4));
  p1.push_back(view("work", workType, 5));
  if (f16Forward)
    p1.push_back(view("scales", f32, 3)); // (batch, channels, 1)
  m.kernel(variantName("conv_outer_fwd", M, c, p), p1, [&](KernelArgs &args) {
    if (int64_t blocks =
            outerBlocksPerSm(p, /*inverse=*/false, elementType(c), c.preGate))
      min_blocks_per_sm(blocks);
    View u = args["u"], work = args["work"];
    Scalar col = program_id(0), h = program_id(1), b = program_id(2);
    // An outer FFT of 8 takes its twiddle's 8 rows twice (outer8Matrices),
    // made so rather than copied: it is then made in the products' layout.
    const Complex tw = twiddleMatrix(Mo == 8 ? 16 : Mo, W, M, false,
                                     col * Scalar(W), Mo == 8 ? 8 : 0);
    Tile pairs = loadPairs(u, b, h, col);
    if (c.preGate)
      pairs = pairs * loadPairs(args["pre"], b, h, col);
    // In f16: X times the sequence's scale (conv_bound).
    Tile scale;
    if (f16Forward)
      scale = sequenceScale(args, b, h);
    auto scaled = [&](const Tile &x) { return f16Forward ? x * scale : x; };
    // [zr; zi]: the pairs' halves stacked along K.
    Tile stacked =
        reshape(permute(reshape(cast(pairs, c.dtype), {half, W, 2}), {2, 0, 1}),
                {Mo, W});
    if (Mo == 8) {
      // Both planes from one pair of 16-row products (outer8Matrices), the
      // input twice over as their K of 16 (H200, 16 x 768: 0.254 -> 0.222
      // ms; bench/RESULTS.md, session 26).
      const std::pair<Tile, Tile> F = outer8Matrices(c.dtype);
      Tile S = reshape(broadcast_to(reshape(stacked, {1, Mo, W}), {2, Mo, W}),
                       {16, W});
      Tile zero = zeros({16, W}, f32);
      Tile X = mma(F.first, S, zero) * tw.re + mma(F.second, S, zero) * tw.im;
      store(work, {b, h, 0, 0, col},
            reshape(cast(scaled(X), workType), {1, 1, 2, Mo, W}));
      return;
    }
    const std::pair<Tile, Tile> F = outerMatrices(Mo, false, c.dtype);
    Tile zero = zeros({Mo, W}, f32);
    Complex X =
        Complex{mma(F.first, stacked, zero), mma(F.second, stacked, zero)} * tw;
    store(work, {b, h, 0, 0, col},
          reshape(cast(scaled(X.re), workType), {1, 1, 1, Mo, W}));
    store(work, {b, h, 1, 0, col},
          reshape(cast(scaled(X.im), workType), {1, 1, 1, Mo, W}));
  });

  // Pass 2: rows r and -r mod outer together (their frequencies are each
  // other's negatives; rows 0 and outer / 2 are their own partners and
  // share program 0: RowPair): inner FFT, spectrum product, inverse inner
  // FFT.
  // Out of place (`work` to `out`, two buffers): the loads of the next
  // batch rows may then run ahead of this row's stores (tile-pipeline does
  // not prefetch from a view the loop writes). A row-column inner FFT
  // reads `work` as (batch, channels, 2, outer, m1, m2).
  std::vector<Param> p2 = {view("work", workType, p.rowColumn ? 6 : 5),
                           view("spectrum", f32, p.rowColumn ? 5 : 4),
                           view("out", c.dtype, p.rowColumn ? 6 : 5)};
  m.kernel(variantName("conv_inner", M, c, p), p2, [&](KernelArgs &args) {
    View work = args["work"], spectrum = args["spectrum"], out = args["out"];
    Scalar h = program_id(1), b0 = program_id(2) * Scalar(p.rowsPerProgram);
    const RowPair rp = rowPair(program_id(0), Mo);
    // The batch rows of the program one after the other; what does not
    // depend on the row (DFT matrices, twiddles, gather indices) is built
    // once and kept in shared memory by the compiler.
    const Scalar rows = min(Scalar(p.rowsPerProgram), work.dim(0) - b0);
    for_range(Scalar(0), rows, [&](Scalar i) {
      Scalar b = b0 + i;
      if (p.rowColumn) {
        innerRowColumn(args, p, c, b, h, rp);
        return;
      }
      auto loadRow = [&](const Scalar &r) {
        Complex z = loadComplexRow(work, {b, h, 0, r, 0}, {b, h, 1, r, 0},
                                   {1, 1, 1, 1, Mi}, {Mi});
        return Complex{cast(z.re, f32), cast(z.im, f32)};
      };
      Complex Z1 = fft(loadRow(rp.r1), p.factors, c.dtype, false);
      Complex Z2 = fft(loadRow(rp.r2), p.factors, c.dtype, false);
      auto coefficients = [&](const Scalar &r, int64_t which) {
        return reshape(load(spectrum, {h, which, r, 0}, {1, 1, 1, Mi}), {Mi});
      };
      auto product = [&](const Scalar &r, const Scalar &shift, const Complex &Z,
                         const Complex &other) {
        Complex P{coefficients(r, 0), coefficients(r, 1)};
        Complex Q{coefficients(r, 2), coefficients(r, 3)};
        Tile idx = negatedIndex(Mi, shift);
        return P * Z + Q * conj(partnerNegated(
                               rp, Z, other, [&](const std::vector<Tile> &t) {
                                 return dsl::gather(t, {idx}, {0});
                               }));
      };
      Complex W1 =
          fft(product(rp.r1, rp.shift1, Z1, Z2), p.factors, c.dtype, true);
      Complex W2 =
          fft(product(rp.r2, rp.shift2, Z2, Z1), p.factors, c.dtype, true);
      auto storeRow = [&](const Scalar &r, const Complex &w) {
        store(out, {b, h, 0, r, 0},
              reshape(cast(w.re, c.dtype), {1, 1, 1, 1, Mi}));
        store(out, {b, h, 1, r, 0},
              reshape(cast(w.im, c.dtype), {1, 1, 1, 1, Mi}));
      };
      storeRow(rp.r1, W1);
      storeRow(rp.r2, W2);
    });
  });

  // Pass 3: inverse twiddle and inverse outer FFT over columns, its first
  // outer / 2 rows (the rest is the convolution's discarded tail) as
  // (re, im) pairs.
  std::vector<Param> p3 = {view("work", c.dtype, 5)};
  if (c.postGate)
    p3.push_back(view("post", c.dtype, 4));
  p3.push_back(view("y", c.dtype, 4));
  if (f16Forward)
    p3.push_back(view("scales", f32, 3));
  m.kernel(variantName("conv_outer_inv", M, c, p), p3, [&](KernelArgs &args) {
    if (int64_t blocks =
            outerBlocksPerSm(p, /*inverse=*/true, elementType(c), c.postGate))
      min_blocks_per_sm(blocks);
    View work = args["work"], y = args["y"];
    Scalar col = program_id(0), h = program_id(1), b = program_id(2);
    // The inverse outer FFT of 8 (K = 8, half a Tensor Core K) runs on the
    // CUDA cores in both types: in bf16 on five CTAs an SM
    // (outerBlocksPerSm) 0.255 ms against 0.305 for a pair of 16 x 32
    // Tensor Core products over both halves of the column block (H200, 16
    // x 768, session 34, bench/RESULTS.md run90).
    const std::pair<Tile, Tile> F = outerMatrices(Mo, true, c.dtype);
    const Complex tw = twiddleMatrix(Mo, W, M, true, col * Scalar(W));
    auto plane = [&](int64_t which) {
      return cast(
          reshape(load(work, {b, h, which, 0, col}, {1, 1, 1, Mo, W}), {Mo, W}),
          f32);
    };
    Complex X = Complex{plane(0), plane(1)} * tw;
    // [yr; yi] with rows in groups (outputGroup), then as (re, im) pairs:
    // rows 2g b + g j + i are part j of output g b + i.
    const int64_t g = outputGroup(Mo);
    Tile stacked = mma(F.second, cast(X.im, c.dtype),
                       mma(F.first, cast(X.re, c.dtype), zeros({Mo, W}, f32)));
    Tile pairs =
        reshape(permute(reshape(stacked, {half / g, 2, g, W}), {0, 2, 3, 1}),
                {half, 2 * W});
    // The inner pass's product is still scaled by the sequence's s. Its
    // load here, after the product, measured best: loaded first or folded
    // into the twiddles it stays live and spills (bench/RESULTS.md run101).
    if (f16Forward)
      pairs = pairs * (1.0 / sequenceScale(args, b, h));
    if (c.postGate)
      pairs = pairs * loadPairs(args["post"], b, h, col);
    store(y, {b, h, 0, col},
          reshape(cast(pairs, c.dtype), {1, 1, half, 2 * W}));
  });

  // Pass 0 (bf16, forwardInF16): each sequence's scale s = 2^8 / max |z|
  // (z = u, or u pre with the pre gate, in f32 as the outer forward forms
  // it), which keeps s X inside f16 through the inner first stage (|X| <=
  // max |z|: the outer forward matrix carries 1 / Mo; 64 terms after it).
  // One scale a sequence, so the inner pass's rows go from the work buffer
  // to the Tensor Cores as they are; the outer inverse divides its result
  // back. The floor keeps s (and 1 / s) finite for an all-zero sequence;
  // below it, s z loses f16's precision (|z| < 1e-34), not its range.
  if (f16Forward) {
    std::vector<Param> p0 = {view("u", c.dtype, 3)};
    if (c.preGate)
      p0.push_back(view("pre", c.dtype, 3));
    p0.push_back(view("scales", f32, 3));
    m.kernel(variantName("conv_bound", M, c, p), p0, [&](KernelArgs &args) {
      Scalar h = program_id(0), b = program_id(1);
      const int64_t T = 1024; // samples a step
      assert(M % T == 0 && "three-pass lengths are multiples of 1024");
      auto block = [&](const View &v, const Scalar &j) {
        return cast(reshape(load(v, {b, h, j}, {1, 1, T}), {T}), f32);
      };
      Tile bound = for_range(Scalar(0), Scalar(M / T), zeros({1}, f32),
                             [&](Scalar j, Tile acc) {
                               Tile z = block(args["u"], j);
                               if (c.preGate)
                                 z = z * block(args["pre"], j);
                               return maximum(acc, max(abs(z), 0));
                             });
      Tile scale = kWorkScaleTarget / maximum(bound, 1e-30);
      store(args["scales"], {b, h, 0}, reshape(scale, {1, 1, 1}));
    });
  }
}

std::string shapeStr(const std::vector<int64_t> &s) {
  std::ostringstream out;
  for (size_t i = 0; i < s.size(); ++i)
    out << (i ? "x" : "") << s[i];
  return out.str();
}

} // namespace

void buildCopyRows(KernelModule &m, DType dtype) {
  const int64_t T = 1024;
  m.kernel("conv_copy_rows_" + std::string(name(dtype)),
           {view("src", dtype, 3), view("dst", dtype, 3)},
           [&](KernelArgs &args) {
             Scalar j = program_id(0), h = program_id(1), b = program_id(2);
             // Past the end of src the masked load reads zeros (padding);
             // past the end of dst the store writes nothing (cropping).
             store(args["dst"], {b, h, j},
                   load(args["src"], {b, h, j}, {1, 1, T}, {.padding = 0.0}));
           });
}

void buildTorchBaseline(KernelModule &m, DType dtype, bool preGate,
                        bool postGate) {
  const int64_t T = 1024;
  const std::string d = name(dtype);
  std::vector<Param> p1 = {view("u", dtype, 2)};
  if (preGate)
    p1.push_back(view("pre", dtype, 2));
  p1.push_back(view("x", f32, 2));
  m.kernel(
      "fftconv_cast_pad_" + d + (preGate ? "_pre" : ""), p1,
      [&](KernelArgs &args) {
        Scalar j = program_id(0), r = program_id(1);
        // Past the end of u the masked load reads zeros: the padding.
        Tile v = cast(load(args["u"], {r, j}, {1, T}, {.padding = 0.0}), f32);
        if (preGate)
          v = v *
              cast(load(args["pre"], {r, j}, {1, T}, {.padding = 0.0}), f32);
        store(args["x"], {r, j}, v);
      });
  m.kernel("fftconv_mul",
           {view("X", f32, 3), view("K", f32, 3), scalar("channels", index)},
           [&](KernelArgs &args) {
             Scalar j = program_id(0), r = program_id(1);
             Scalar h = r % args["channels"];
             View X = args["X"], K = args["K"];
             auto part = [&](const View &v, const Scalar &row, int c) {
               return load(v, {row, j, Scalar(int64_t(c))}, {1, T, 1});
             };
             Tile xr = part(X, r, 0), xi = part(X, r, 1);
             Tile kr = part(K, h, 0), ki = part(K, h, 1);
             store(X, {r, j, Scalar(int64_t(0))}, xr * kr - xi * ki);
             store(X, {r, j, Scalar(int64_t(1))}, xr * ki + xi * kr);
           });
  std::vector<Param> p3 = {view("x", f32, 2)};
  if (postGate)
    p3.push_back(view("post", dtype, 2));
  p3.push_back(scalar("scale", f32));
  p3.push_back(view("y", dtype, 2));
  m.kernel("fftconv_cast_back_" + d + (postGate ? "_post" : ""), p3,
           [&](KernelArgs &args) {
             Scalar j = program_id(0), r = program_id(1);
             Tile v = load(args["x"], {r, j}, {1, T}) * args["scale"];
             if (postGate)
               v = v * cast(load(args["post"], {r, j}, {1, T}), f32);
             store(args["y"], {r, j}, cast(v, dtype));
           });
}

void build(KernelModule &module, int64_t seqlen, const Config &config) {
  Plan p = plan(seqlen, config.forceMultiPass);
  if (p.fused)
    buildFused(module, p, config);
  else
    buildMultiPass(module, p, config);
}

interp::Status forwardInterpreted(const Shape &s, const Config &cfg,
                                  Buffers &bufs, int *launches) {
  if (launches)
    *launches = 0;
  if (s.batch < 1 || s.channels < 1)
    return interp::Status::error("conv: batch and channels must be >= 1");
  if (s.seqlen < 2 || s.seqlen > 65536)
    return interp::Status::error("conv: seqlen must be in [2, 65536], got " +
                                 std::to_string(s.seqlen));
  if (cfg.dtype != DType::bf16 && cfg.dtype != DType::f16)
    return interp::Status::error(std::string("conv: u must be bf16 or f16, "
                                             "got ") +
                                 name(cfg.dtype));
  const int64_t B = s.batch, H = s.channels, L = s.seqlen;
  Plan p = plan(L, cfg.forceMultiPass);
  const int64_t M = p.M;
  interp::DType act = check::toInterp(cfg.dtype);
  auto check = [&](const char *n, const interp::Buffer *buf, bool want,
                   interp::DType t,
                   const std::vector<int64_t> &shape) -> std::string {
    if (!want)
      return buf ? std::string(n) + " was given but the config has no " + n
                 : "";
    if (!buf)
      return std::string(n) + " is required (null buffer)";
    if (buf->dtype() != t)
      return std::string(n) + " must be " + interp::dtypeName(t) + ", got " +
             interp::dtypeName(buf->dtype());
    if (buf->shape() != shape)
      return std::string(n) + " must have shape " + shapeStr(shape) + ", got " +
             shapeStr(buf->shape());
    return "";
  };
  for (std::string err :
       {check("u", bufs.u, true, act, {B, H, L}),
        check("spectrum", bufs.spectrum, true, interp::DType::f32, {H, 4, M}),
        check("pre", bufs.pre, cfg.preGate, act, {B, H, L}),
        check("post", bufs.post, cfg.postGate, act, {B, H, L}),
        check("y", bufs.y, true, act, {B, H, L})})
    if (!err.empty())
      return interp::Status::error("conv: " + err);

  // Lengths the kernels do not view as they are run on zero-padded copies.
  const int64_t Lp = paddedLength(p, L);
  std::unique_ptr<interp::Buffer> padded[4];
  interp::Buffer *u = bufs.u, *pre = bufs.pre, *post = bufs.post, *y = bufs.y;
  if (Lp != L) {
    auto pad = [&](interp::Buffer *src, int slot) -> interp::Buffer * {
      if (!src)
        return nullptr;
      padded[slot] =
          std::make_unique<interp::Buffer>(act, std::vector<int64_t>{B, H, Lp});
      interp::Buffer &dst = *padded[slot];
      for (int64_t r = 0; r < B * H; ++r)
        for (int64_t t = 0; t < Lp; ++t)
          dst.set(r * Lp + t, t < L ? src->get(r * L + t) : 0.0);
      return &dst;
    };
    u = pad(bufs.u, 0);
    pre = pad(bufs.pre, 1);
    post = pad(bufs.post, 2);
    y = pad(bufs.y, 3);
  }

  static std::map<std::string, std::unique_ptr<KernelModule>> cache;
  std::string key = variantName("conv", M, cfg, p);
  std::unique_ptr<KernelModule> &module = cache[key];
  if (!module) {
    auto built = std::make_unique<KernelModule>();
    try {
      build(*built, L, cfg);
    } catch (const Error &e) {
      return interp::Status::error(std::string("conv: kernel build failed: ") +
                                   e.what());
    }
    module = std::move(built);
  }

  using interp::KernelArg;
  using interp::ViewArg;
  interp::LaunchConfig launch;
  auto run = [&](const char *kernel, const std::vector<KernelArg> &args,
                 std::array<int64_t, 3> grid) {
    launch.grid = grid;
    if (launches)
      ++*launches;
    return interp::run(module->module(), variantName(kernel, M, cfg, p), args,
                       launch);
  };

  interp::Status st;
  if (p.fused) {
    // (batch, channels, seqlen / 2, 2) views of the sequences.
    auto pairs = [&](interp::Buffer *buf) -> KernelArg {
      return ViewArg{buf, {B, H, Lp / 2, 2}, {H * Lp, Lp, 2, 1}, 0};
    };
    ViewShape sv = fusedSpectrumView(p, H);
    std::vector<KernelArg> args = {
        pairs(u), ViewArg{bufs.spectrum, sv.sizes, sv.strides, 0}};
    if (cfg.preGate)
      args.push_back(pairs(pre));
    if (cfg.postGate)
      args.push_back(pairs(post));
    args.push_back(pairs(y));
    st = run("conv_fused", args, fusedGrid(p, B, H));
  } else {
    const int64_t Mo = p.outer, Mi = M / Mo;
    const ViewShape ov = outerSequenceView(p, B, H);
    auto grid = [&](interp::Buffer *buf) -> KernelArg {
      return ViewArg{buf, ov.sizes, ov.strides, 0};
    };
    const bool f16Forward = forwardInF16(p, cfg);
    interp::Buffer work(
        check::toInterp(f16Forward ? DType::f16 : cfg.dtype), {B, H, 2, Mo, Mi});
    interp::Buffer inverse(check::toInterp(cfg.dtype), {B, H, 2, Mo, Mi});
    interp::Buffer scales(check::toInterp(f32), {B, H, 1});
    // Every element pass 1 or 2 leaves unwritten reads as poison (NaN).
    work.poison();
    inverse.poison();
    scales.poison();
    if (f16Forward) {
      std::vector<KernelArg> a0 = {ViewArg{u}};
      if (cfg.preGate)
        a0.push_back(ViewArg{pre});
      a0.push_back(ViewArg{&scales});
      st = run("conv_bound", a0, {H, B, 1});
      if (!st)
        return st;
    }
    std::vector<KernelArg> a1 = {grid(u)};
    if (cfg.preGate)
      a1.push_back(grid(pre));
    a1.push_back(ViewArg{&work});
    if (f16Forward)
      a1.push_back(ViewArg{&scales});
    st = run("conv_outer_fwd", a1, outerGrid(p, B, H));
    if (st) {
      const ViewShape sv = innerSpectrumView(p, H);
      const ViewShape wv = innerWorkView(p, B, H);
      KernelArg spectrum = ViewArg{bufs.spectrum, sv.sizes, sv.strides, 0};
      std::vector<KernelArg> a2 = {ViewArg{&work, wv.sizes, wv.strides, 0},
                                   spectrum,
                                   ViewArg{&inverse, wv.sizes, wv.strides, 0}};
      st = run("conv_inner", a2, innerGrid(p, B, H));
    }
    if (st) {
      std::vector<KernelArg> a3 = {ViewArg{&inverse}};
      if (cfg.postGate)
        a3.push_back(grid(post));
      a3.push_back(grid(y));
      if (f16Forward)
        a3.push_back(ViewArg{&scales});
      st = run("conv_outer_inv", a3, outerGrid(p, B, H));
    }
  }
  if (!st)
    return st;
  if (y != bufs.y)
    for (int64_t r = 0; r < B * H; ++r)
      for (int64_t t = 0; t < L; ++t)
        bufs.y->set(r * L + t, y->get(r * Lp + t));
  return st;
}

} // namespace tessera::conv
