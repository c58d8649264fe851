//===- SsdTest.cpp - Mamba-2 SSD forward: reference and chunked kernels
//----===//
//
// Two parts:
//  - SsdReference*: self-tests of the float64 recurrence (hand-computed
//    steps, seqIdx resets, chaining through initial/final states, each
//    option against its direct formula, input validation). They need no
//    kernel.
//  - SsdInterpreter*: the chunked kernels through the device-faithful
//    interpreter against that reference, over every option, f32 and bf16,
//    fresh random inputs (seed printed), outputs poisoned and checked all
//    overwritten; the launch count; bad input gives an error Status.
//
//===----------------------------------------------------------------------===//

#include "kernels-src/ssd/Ssd.h"
#include "kernels-src/common/Check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>

using namespace tessera;
using interp::Buffer;
using interp::DType;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

std::vector<double> uniform(int64_t n, std::mt19937_64 &rng, double lo = -1.0,
                            double hi = 1.0) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (double &e : v)
    e = dist(rng);
  return v;
}

/// Elements [t0, t0 + len) along time of batch row `b` of a (batch, seqlen,
/// inner...) tensor, `inner` elements per time step.
template <typename T>
std::vector<T> sliceBT(const std::vector<T> &v, int64_t seqlen, int64_t inner,
                       int64_t b, int64_t t0, int64_t len) {
  auto first = v.begin() + (b * seqlen + t0) * inner;
  return std::vector<T>(first, first + len * inner);
}

/// Inputs of batch row `b`, time steps [t0, t0 + len), as a batch-1 problem.
/// seqIdx is dropped (the caller runs one sequence); the initial state of row
/// b is kept only when `keepInitial`.
ssd::HostInputs sliceInputs(const ssd::Shape &s, const ssd::Options &o,
                            const ssd::HostInputs &in, int64_t b, int64_t t0,
                            int64_t len, bool keepInitial) {
  const int64_t L = s.seqlen, H = s.nheads, P = s.headdim, G = s.ngroups,
                N = s.dstate;
  ssd::HostInputs out;
  out.x = sliceBT(in.x, L, H * P, b, t0, len);
  out.dt = sliceBT(in.dt, L, H, b, t0, len);
  out.B = sliceBT(in.B, L, G * N, b, t0, len);
  out.C = sliceBT(in.C, L, G * N, b, t0, len);
  if (o.hasZ)
    out.z = sliceBT(in.z, L, H * P, b, t0, len);
  out.A = in.A;
  out.D = in.D;
  out.dtBias = in.dtBias;
  if (keepInitial)
    out.initialStates = sliceBT(in.initialStates, 1, H * P * N, b, 0, 1);
  return out;
}

void expectAllNear(const std::vector<double> &got,
                   const std::vector<double> &want, double tol,
                   const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], tol * (1.0 + std::abs(want[i])))
        << what << " element " << i;
}

/// A random problem for the reference self-tests (host vectors only).
ssd::HostInputs randomHost(const ssd::Shape &s, const ssd::Options &o,
                           std::mt19937_64 &rng) {
  const int64_t b = s.batch, L = s.seqlen, H = s.nheads, P = s.headdim,
                N = s.dstate, G = s.ngroups;
  ssd::HostInputs in;
  in.x = uniform(b * L * H * P, rng);
  in.dt = uniform(b * L * H, rng, 1e-3, 0.2);
  in.A = uniform(H, rng, -4.0, -0.5);
  in.B = uniform(b * L * G * N, rng);
  in.C = uniform(b * L * G * N, rng);
  if (o.hasD)
    in.D = uniform(o.dPerChannel ? H * P : H, rng);
  if (o.hasZ)
    in.z = uniform(b * L * H * P, rng, -3.0, 3.0);
  if (o.hasDtBias)
    in.dtBias = uniform(H, rng, -0.5, 0.5);
  if (o.hasInitialStates)
    in.initialStates = uniform(b * H * P * N, rng);
  if (o.hasSeqIdx)
    in.seqIdx.assign(b * L, 0);
  return in;
}

//===----------------------------------------------------------------------===//
// Reference self-tests
//===----------------------------------------------------------------------===//

ssd::Shape scalarShape(int64_t seqlen) {
  ssd::Shape s;
  s.seqlen = seqlen;
  return s; // batch = nheads = headdim = dstate = ngroups = 1
}

TEST(SsdReference, ScalarThreeSteps) {
  // headdim = dstate = 1, one head: h_t = exp(dt_t A) h_{t-1} + dt_t x_t B_t,
  // y_t = h_t C_t, written out by hand.
  ssd::HostInputs in;
  in.x = {1.0, 2.0, -1.0};
  in.dt = {0.5, 0.25, 1.0};
  in.A = {-1.0};
  in.B = {1.0, 0.5, 2.0};
  in.C = {2.0, 1.0, -1.0};
  ssd::Options o;
  o.returnFinalStates = true;
  ssd::HostOutputs out = ssd::reference(scalarShape(3), o, in);

  const double h0 = 0.5 * 1.0 * 1.0;                          // 0.5
  const double h1 = std::exp(-0.25) * h0 + 0.25 * 2.0 * 0.5;  // 0.639...
  const double h2 = std::exp(-1.0) * h1 + 1.0 * (-1.0) * 2.0; // -1.764...
  ASSERT_EQ(out.y.size(), 3u);
  EXPECT_DOUBLE_EQ(out.y[0], 1.0);
  EXPECT_DOUBLE_EQ(out.y[1], h1);
  EXPECT_DOUBLE_EQ(out.y[2], -h2);
  EXPECT_NEAR(out.y[1], 0.6394003915, 1e-9);
  EXPECT_NEAR(out.y[2], 1.7647777413, 1e-9);
  ASSERT_EQ(out.finalStates.size(), 1u);
  EXPECT_DOUBLE_EQ(out.finalStates[0], h2);

  // The same steps starting from h_{-1} = 3.
  o.hasInitialStates = true;
  in.initialStates = {3.0};
  out = ssd::reference(scalarShape(3), o, in);
  const double g0 = std::exp(-0.5) * 3.0 + 0.5;
  const double g1 = std::exp(-0.25) * g0 + 0.25;
  const double g2 = std::exp(-1.0) * g1 - 2.0;
  EXPECT_DOUBLE_EQ(out.y[0], 2.0 * g0);
  EXPECT_DOUBLE_EQ(out.y[1], g1);
  EXPECT_DOUBLE_EQ(out.y[2], -g2);
  EXPECT_DOUBLE_EQ(out.finalStates[0], g2);
}

TEST(SsdReference, OutputSizes) {
  ssd::Shape s{2, 5, 4, 3, 2, 2};
  ssd::Options o;
  std::mt19937_64 rng(1);
  ssd::HostOutputs out = ssd::reference(s, o, randomHost(s, o, rng));
  EXPECT_EQ(out.y.size(), 2u * 5 * 4 * 3);
  EXPECT_TRUE(out.finalStates.empty());
  o.returnFinalStates = true;
  out = ssd::reference(s, o, randomHost(s, o, rng));
  EXPECT_EQ(out.finalStates.size(), 2u * 4 * 3 * 2);
}

TEST(SsdReference, SeqIdxResetEqualsSeparateSequences) {
  uint64_t seed = check::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);

  ssd::Shape s{2, 12, 4, 3, 2, 2};
  ssd::Options o;
  o.hasSeqIdx = o.hasD = o.hasZ = o.hasDtBias = o.dtSoftplus = true;
  o.hasInitialStates = o.returnFinalStates = true;
  ssd::HostInputs in = randomHost(s, o, rng);
  // Row 0: segments [0,4) [4,7) [7,12); row 1: [0,1) [1,11) [11,12). The ids
  // need not be increasing: any change restarts the state.
  const std::vector<int32_t> ids0 = {0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2};
  const std::vector<int32_t> ids1 = {7, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 9};
  in.seqIdx = ids0;
  in.seqIdx.insert(in.seqIdx.end(), ids1.begin(), ids1.end());
  ssd::HostOutputs full = ssd::reference(s, o, in);

  const int64_t HP = s.nheads * s.headdim, HPN = HP * s.dstate;
  const std::vector<std::vector<std::pair<int64_t, int64_t>>> segments = {
      {{0, 4}, {4, 3}, {7, 5}}, {{0, 1}, {1, 10}, {11, 1}}};
  for (int64_t b = 0; b < s.batch; ++b) {
    for (size_t k = 0; k < segments[b].size(); ++k) {
      auto [t0, len] = segments[b][k];
      SCOPED_TRACE("batch " + std::to_string(b) + " segment at " +
                   std::to_string(t0));
      // Only the first segment of a row starts from the initial state.
      bool first = k == 0;
      ssd::Options so = o;
      so.hasSeqIdx = false;
      so.hasInitialStates = first;
      ssd::Shape ss = s;
      ss.batch = 1;
      ss.seqlen = len;
      ssd::HostOutputs part =
          ssd::reference(ss, so, sliceInputs(s, o, in, b, t0, len, first));
      expectAllNear(sliceBT(full.y, s.seqlen, HP, b, t0, len), part.y, 1e-13,
                    "y");
      if (k + 1 == segments[b].size())
        expectAllNear(sliceBT(full.finalStates, 1, HPN, b, 0, 1),
                      part.finalStates, 1e-13, "final states");
    }
  }

  // A constant seqIdx changes nothing.
  std::fill(in.seqIdx.begin(), in.seqIdx.end(), 5);
  ssd::HostOutputs constant = ssd::reference(s, o, in);
  ssd::Options noIdx = o;
  noIdx.hasSeqIdx = false;
  in.seqIdx.clear();
  ssd::HostOutputs plain = ssd::reference(s, noIdx, in);
  expectAllNear(constant.y, plain.y, 0.0, "y");
  expectAllNear(constant.finalStates, plain.finalStates, 0.0, "final states");
}

TEST(SsdReference, InitialStateChainsSplitSequences) {
  uint64_t seed = check::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);

  const int64_t L1 = 5, L2 = 7;
  ssd::Shape s{2, L1 + L2, 4, 3, 2, 2};
  ssd::Options o;
  o.hasD = o.dPerChannel = o.hasZ = o.hasDtBias = o.dtSoftplus = true;
  o.dtMin = 1e-3;
  o.dtMax = 0.1;
  o.hasInitialStates = o.returnFinalStates = true;
  ssd::HostInputs in = randomHost(s, o, rng);
  ssd::HostOutputs full = ssd::reference(s, o, in);

  const int64_t HP = s.nheads * s.headdim;
  for (int64_t b = 0; b < s.batch; ++b) {
    SCOPED_TRACE("batch " + std::to_string(b));
    ssd::Shape s1 = s, s2 = s;
    s1.batch = s2.batch = 1;
    s1.seqlen = L1;
    s2.seqlen = L2;
    ssd::HostOutputs first =
        ssd::reference(s1, o, sliceInputs(s, o, in, b, 0, L1, true));
    ssd::HostInputs in2 = sliceInputs(s, o, in, b, L1, L2, true);
    in2.initialStates = first.finalStates;
    ssd::HostOutputs second = ssd::reference(s2, o, in2);
    expectAllNear(sliceBT(full.y, s.seqlen, HP, b, 0, L1), first.y, 1e-13,
                  "y of the first part");
    expectAllNear(sliceBT(full.y, s.seqlen, HP, b, L1, L2), second.y, 1e-13,
                  "y of the second part");
    expectAllNear(sliceBT(full.finalStates, 1, HP * s.dstate, b, 0, 1),
                  second.finalStates, 1e-13, "final states");
  }
}

/// One step from h = 0 with headdim = dstate = 1: y = dt' x B C (+ D x),
/// times silu(z). Returns y.
double scalarStep(const ssd::Options &o, double dt, double bias = 0.0,
                  double D = 0.0, double z = 0.0) {
  ssd::HostInputs in;
  in.x = {0.75};
  in.dt = {dt};
  in.A = {-3.0};
  in.B = {0.5};
  in.C = {-2.0};
  if (o.hasDtBias)
    in.dtBias = {bias};
  if (o.hasD)
    in.D = {D};
  if (o.hasZ)
    in.z = {z};
  return ssd::reference(scalarShape(1), o, in).y.at(0);
}

/// dt' implied by scalarStep's output without D or z.
double impliedDt(double y) { return y / (0.75 * 0.5 * -2.0); }

TEST(SsdReference, DtBias) {
  ssd::Options o;
  o.hasDtBias = true;
  EXPECT_DOUBLE_EQ(impliedDt(scalarStep(o, 0.05, 0.2)), 0.25);
  EXPECT_DOUBLE_EQ(impliedDt(scalarStep(o, 0.3, -0.25)), 0.3 - 0.25);
}

TEST(SsdReference, DtSoftplus) {
  ssd::Options o;
  o.dtSoftplus = true;
  for (double v : {-6.0, -0.5, 0.0, 0.3, 4.0, 19.5})
    EXPECT_DOUBLE_EQ(impliedDt(scalarStep(o, v)), std::log1p(std::exp(v)))
        << "v = " << v;
  // Above 20 softplus(v) is v (log1p(exp(25)) would be 25 + 1.4e-11).
  EXPECT_DOUBLE_EQ(impliedDt(scalarStep(o, 25.0)), 25.0);
  // The bias is added before the softplus.
  o.hasDtBias = true;
  EXPECT_DOUBLE_EQ(impliedDt(scalarStep(o, -1.0, 0.4)),
                   std::log1p(std::exp(-0.6)));
  // Inverse softplus, as the kernel tests draw dt: log(expm1(d)) -> d.
  o.hasDtBias = false;
  EXPECT_NEAR(impliedDt(scalarStep(o, std::log(std::expm1(0.01)))), 0.01,
              1e-15);
}

TEST(SsdReference, DtLimits) {
  ssd::Options o;
  o.dtMin = 1e-3;
  o.dtMax = 0.1;
  EXPECT_DOUBLE_EQ(impliedDt(scalarStep(o, 0.05)), 0.05);
  EXPECT_DOUBLE_EQ(impliedDt(scalarStep(o, 0.5)), 0.1);
  EXPECT_DOUBLE_EQ(impliedDt(scalarStep(o, 1e-5)), 1e-3);
  // Clamped after bias and softplus.
  o.dtSoftplus = o.hasDtBias = true;
  EXPECT_DOUBLE_EQ(impliedDt(scalarStep(o, 4.0, 1.0)), 0.1);
  EXPECT_DOUBLE_EQ(impliedDt(scalarStep(o, -12.0, 0.5)), 1e-3);
  EXPECT_DOUBLE_EQ(impliedDt(scalarStep(o, -3.0, 0.5)),
                   std::log1p(std::exp(-2.5)));
  // Ssd.h's default limits clamp nothing (mamba_ssm's default).
  EXPECT_DOUBLE_EQ(impliedDt(scalarStep(ssd::Options{}, -0.05)), -0.05);
  EXPECT_DOUBLE_EQ(impliedDt(scalarStep(ssd::Options{}, 7.0)), 7.0);
}

TEST(SsdReference, DPerHeadAndZGate) {
  ssd::Options o;
  o.hasD = true;
  const double base = 0.05 * 0.75 * 0.5 * -2.0;
  EXPECT_DOUBLE_EQ(scalarStep(o, 0.05, 0.0, 0.8), base + 0.8 * 0.75);
  o.hasZ = true;
  for (double z : {-2.0, 0.0, 0.7, 9.0})
    EXPECT_DOUBLE_EQ(scalarStep(o, 0.05, 0.0, 0.8, z),
                     (base + 0.8 * 0.75) * z * sigmoid(z))
        << "z = " << z;
  // A very negative z gates to 0 without NaN.
  double y = scalarStep(o, 0.05, 0.0, 0.8, -800.0);
  EXPECT_FALSE(std::isnan(y));
  EXPECT_EQ(y, 0.0);
}

TEST(SsdReference, DAndZOnFullShape) {
  uint64_t seed = check::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ssd::Shape s{2, 9, 4, 5, 3, 2};
  ssd::Options plain;
  ssd::HostInputs in = randomHost(s, plain, rng);
  ssd::HostOutputs base = ssd::reference(s, plain, in);
  const int64_t H = s.nheads, P = s.headdim;

  for (bool perChannel : {false, true}) {
    SCOPED_TRACE(perChannel ? "D per channel" : "D per head");
    ssd::Options o;
    o.hasD = true;
    o.dPerChannel = perChannel;
    ssd::HostInputs withD = in;
    withD.D = uniform(perChannel ? H * P : H, rng);
    ssd::HostOutputs out = ssd::reference(s, o, withD);
    for (size_t i = 0; i < out.y.size(); ++i) {
      int64_t p = i % P, h = (i / P) % H;
      double d = perChannel ? withD.D[h * P + p] : withD.D[h];
      ASSERT_NEAR(out.y[i], base.y[i] + d * in.x[i], 1e-14) << i;
    }
  }

  ssd::Options o;
  o.hasZ = true;
  ssd::HostInputs withZ = in;
  withZ.z = uniform(in.x.size(), rng, -4.0, 4.0);
  ssd::HostOutputs out = ssd::reference(s, o, withZ);
  for (size_t i = 0; i < out.y.size(); ++i)
    ASSERT_NEAR(out.y[i], base.y[i] * withZ.z[i] * sigmoid(withZ.z[i]), 1e-14)
        << i;
}

TEST(SsdReference, HeadsReadTheirGroup) {
  // nheads 4, ngroups 2: heads 0 and 1 read group 0, heads 2 and 3 group 1.
  std::mt19937_64 rng(7);
  ssd::Shape s{1, 6, 4, 2, 3, 2};
  ssd::Options o;
  ssd::HostInputs in = randomHost(s, o, rng);
  const int64_t G = s.ngroups, N = s.dstate, H = s.nheads, P = s.headdim;
  for (int64_t t = 0; t < s.seqlen; ++t)
    for (int64_t n = 0; n < N; ++n)
      in.B[(t * G + 1) * N + n] = 0.0; // group 1 writes no state
  ssd::HostOutputs out = ssd::reference(s, o, in);
  for (int64_t t = 0; t < s.seqlen; ++t)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t p = 0; p < P; ++p) {
        double y = out.y[(t * H + h) * P + p];
        if (h >= 2) {
          EXPECT_EQ(y, 0.0) << "t " << t << " head " << h;
        } else {
          EXPECT_NE(y, 0.0) << "t " << t << " head " << h;
        }
      }
}

void expectInvalid(const ssd::Shape &s, const ssd::Options &o,
                   const ssd::HostInputs &in, const std::string &needle) {
  try {
    ssd::reference(s, o, in);
    ADD_FAILURE() << "no exception; expected one mentioning '" << needle << "'";
  } catch (const std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << e.what();
  }
}

TEST(SsdReference, RejectsBadInput) {
  std::mt19937_64 rng(3);
  ssd::Shape s{2, 5, 4, 3, 2, 2};
  ssd::Options all;
  all.hasD = all.hasZ = all.hasDtBias = all.hasInitialStates = true;
  all.hasSeqIdx = true;
  const ssd::HostInputs good = randomHost(s, all, rng);
  EXPECT_NO_THROW(ssd::reference(s, all, good));

  ssd::Shape bad = s;
  bad.ngroups = 3;
  expectInvalid(bad, all, good, "ngroups");
  bad.ngroups = 0;
  expectInvalid(bad, all, good, "ngroups");
  bad = s;
  bad.seqlen = 0;
  expectInvalid(bad, all, good, "seqlen");

  auto mutate = [&](auto edit, const std::string &needle,
                    const ssd::Options &o) {
    ssd::HostInputs in = good;
    edit(in);
    SCOPED_TRACE(needle);
    expectInvalid(s, o, in, needle);
  };
  mutate([](ssd::HostInputs &in) { in.x.pop_back(); }, "x has", all);
  mutate([](ssd::HostInputs &in) { in.dt.push_back(0.1); }, "dt has", all);
  mutate([](ssd::HostInputs &in) { in.A.resize(2); }, "A has", all);
  mutate([](ssd::HostInputs &in) { in.B.resize(in.B.size() / 2); }, "B has",
         all);
  mutate([](ssd::HostInputs &in) { in.C.clear(); }, "C has", all);
  mutate([](ssd::HostInputs &in) { in.D.clear(); }, "D is missing", all);
  mutate([](ssd::HostInputs &in) { in.z.pop_back(); }, "z has", all);
  mutate([](ssd::HostInputs &in) { in.dtBias.clear(); }, "dtBias is missing",
         all);
  mutate([](ssd::HostInputs &in) { in.initialStates.resize(5); },
         "initialStates has", all);
  mutate([](ssd::HostInputs &in) { in.seqIdx.clear(); }, "seqIdx is missing",
         all);
  // D per channel needs (nheads, headdim) values.
  ssd::Options perChannel = all;
  perChannel.dPerChannel = true;
  mutate([](ssd::HostInputs &) {}, "D has", perChannel);
  // An optional input given while its option is off.
  ssd::Options noZ = all;
  noZ.hasZ = false;
  mutate([](ssd::HostInputs &) {}, "z is given", noZ);
  // Limits out of order.
  ssd::Options limits = all;
  limits.dtMin = 0.2;
  limits.dtMax = 0.1;
  mutate([](ssd::HostInputs &) {}, "dtMin <= dtMax", limits);
}

//===----------------------------------------------------------------------===//
// Chunked kernels through the interpreter
//===----------------------------------------------------------------------===//

/// Packed sequences for one batch row: 2-4 segments (fewer when seqlen is
/// short), ids 0, 1, 2, ... Boundaries avoid chunk multiples unless
/// `atChunkBoundary`, which puts one exactly on a chunk boundary (when the
/// row spans more than one chunk).
std::vector<int32_t> packedSeqIdx(int64_t seqlen, int64_t chunk,
                                  bool atChunkBoundary, std::mt19937_64 &rng) {
  std::vector<int64_t> starts; // boundaries, in (0, seqlen)
  if (atChunkBoundary && seqlen > chunk) {
    std::uniform_int_distribution<int64_t> pick(1, (seqlen - 1) / chunk);
    starts.push_back(pick(rng) * chunk);
  }
  int64_t candidates = 0;
  for (int64_t t = 1; t < seqlen; ++t)
    candidates += t % chunk != 0;
  int64_t segments = std::uniform_int_distribution<int64_t>(2, 4)(rng);
  int64_t want = std::min<int64_t>(segments - 1, candidates + starts.size());
  std::uniform_int_distribution<int64_t> pos(1,
                                             std::max<int64_t>(1, seqlen - 1));
  while (static_cast<int64_t>(starts.size()) < want) {
    int64_t t = pos(rng);
    if (t % chunk != 0 &&
        std::find(starts.begin(), starts.end(), t) == starts.end())
      starts.push_back(t);
  }
  std::vector<int32_t> ids(seqlen, 0);
  for (int64_t t = 1; t < seqlen; ++t)
    ids[t] = ids[t - 1] +
             (std::find(starts.begin(), starts.end(), t) != starts.end());
  return ids;
}

/// Buffers of one interpreted call, with the values the reference consumes.
struct Problem {
  ssd::Shape shape;
  ssd::Options options;
  std::unique_ptr<Buffer> x, dt, A, B, C, D, z, dtBias, initialStates, seqIdx,
      y, finalStates;

  ssd::Buffers buffers() const {
    ssd::Buffers b;
    b.x = x.get();
    b.dt = dt.get();
    b.A = A.get();
    b.B = B.get();
    b.C = C.get();
    b.D = D.get();
    b.z = z.get();
    b.dtBias = dtBias.get();
    b.initialStates = initialStates.get();
    b.seqIdx = seqIdx.get();
    b.y = y.get();
    b.finalStates = finalStates.get();
    return b;
  }

  /// The inputs as stored (after rounding to the buffers' types).
  ssd::HostInputs host() const {
    ssd::HostInputs in;
    in.x = check::values(*x);
    in.dt = check::values(*dt);
    in.A = check::values(*A);
    in.B = check::values(*B);
    in.C = check::values(*C);
    if (D)
      in.D = check::values(*D);
    if (z)
      in.z = check::values(*z);
    if (dtBias)
      in.dtBias = check::values(*dtBias);
    if (initialStates)
      in.initialStates = check::values(*initialStates);
    if (seqIdx)
      for (int64_t i = 0; i < seqIdx->numElements(); ++i)
        in.seqIdx.push_back(static_cast<int32_t>(seqIdx->getInt(i)));
    return in;
  }
};

/// Fresh random inputs: x, B, C, z in [-1, 1); A in [-16, -1) (log-uniform);
/// dt' in [1e-3, 1e-1) (log-uniform; [3e-4, 0.3) with limits so that the clamp
/// acts), dt drawn so that bias and softplus land there; D and the initial
/// states in [-1, 1); packed seqIdx. y and the final states poisoned.
Problem makeProblem(const ssd::Shape &s, const ssd::Options &o,
                    dsl::DType dtype, int64_t chunk, std::mt19937_64 &rng) {
  const int64_t b = s.batch, L = s.seqlen, H = s.nheads, P = s.headdim,
                N = s.dstate, G = s.ngroups;
  const DType io = check::toInterp(dtype);
  Problem p;
  p.shape = s;
  p.options = o;
  p.x = std::make_unique<Buffer>(io, std::vector<int64_t>{b, L, H, P});
  p.dt = std::make_unique<Buffer>(DType::f32, std::vector<int64_t>{b, L, H});
  p.A = std::make_unique<Buffer>(DType::f32, std::vector<int64_t>{H});
  p.B = std::make_unique<Buffer>(io, std::vector<int64_t>{b, L, G, N});
  p.C = std::make_unique<Buffer>(io, std::vector<int64_t>{b, L, G, N});
  p.y = std::make_unique<Buffer>(io, std::vector<int64_t>{b, L, H, P});
  check::fillUniform(*p.x, rng);
  check::fillUniform(*p.B, rng);
  check::fillUniform(*p.C, rng);

  std::uniform_real_distribution<double> logA(0.0, std::log(16.0));
  for (int64_t h = 0; h < H; ++h)
    p.A->set(h, -std::exp(logA(rng)));

  if (o.hasDtBias) {
    p.dtBias = std::make_unique<Buffer>(DType::f32, std::vector<int64_t>{H});
    check::fillUniform(*p.dtBias, rng, -0.5, 0.5);
  }
  const bool limits =
      o.dtMin > 0.0 || o.dtMax < std::numeric_limits<double>::infinity();
  std::uniform_real_distribution<double> logDt(std::log(limits ? 3e-4 : 1e-3),
                                               std::log(limits ? 0.3 : 0.1));
  for (int64_t i = 0; i < p.dt->numElements(); ++i) {
    double target = std::exp(logDt(rng));
    double pre = o.dtSoftplus ? std::log(std::expm1(target)) : target;
    if (p.dtBias)
      pre -= p.dtBias->get(i % H);
    p.dt->set(i, pre);
  }

  if (o.hasD) {
    p.D = std::make_unique<Buffer>(DType::f32, o.dPerChannel
                                                   ? std::vector<int64_t>{H, P}
                                                   : std::vector<int64_t>{H});
    check::fillUniform(*p.D, rng);
  }
  if (o.hasZ) {
    p.z = std::make_unique<Buffer>(io, std::vector<int64_t>{b, L, H, P});
    check::fillUniform(*p.z, rng);
  }
  if (o.hasInitialStates) {
    p.initialStates =
        std::make_unique<Buffer>(DType::f32, std::vector<int64_t>{b, H, P, N});
    check::fillUniform(*p.initialStates, rng);
  }
  if (o.hasSeqIdx) {
    p.seqIdx = std::make_unique<Buffer>(DType::i32, std::vector<int64_t>{b, L});
    for (int64_t bi = 0; bi < b; ++bi) {
      std::vector<int32_t> ids = packedSeqIdx(L, chunk, bi == 0, rng);
      for (int64_t t = 0; t < L; ++t)
        p.seqIdx->setInt(bi * L + t, ids[t]);
    }
  }
  if (o.returnFinalStates)
    p.finalStates =
        std::make_unique<Buffer>(DType::f32, std::vector<int64_t>{b, H, P, N});

  p.y->poison();
  if (p.finalStates)
    p.finalStates->poison();
  return p;
}

std::string sci(double v) {
  std::ostringstream os;
  os << std::scientific << std::setprecision(2) << v;
  return os.str();
}

int64_t countNonFinite(const Buffer &buffer) {
  int64_t n = 0;
  for (int64_t i = 0; i < buffer.numElements(); ++i)
    n += !std::isfinite(buffer.get(i));
  return n;
}

struct SsdCase {
  std::string label; // the option set, a C identifier
  ssd::Options options;
  ssd::Shape shape;
  dsl::DType dtype;
  int64_t chunk;
  double bound;
  bool fused = false;   // the one-kernel forward the GPU runs
  int64_t segments = 1; // the fused forward split into this many segments
};

void PrintTo(const SsdCase &c, std::ostream *os) {
  const ssd::Shape &s = c.shape;
  const ssd::Options &o = c.options;
  *os << c.label << " " << dsl::name(c.dtype) << " chunk " << c.chunk
      << " shape (b " << s.batch << ", L " << s.seqlen << ", h " << s.nheads
      << ", p " << s.headdim << ", n " << s.dstate << ", g " << s.ngroups
      << ") segments " << c.segments << " options {";
  if (o.hasD)
    *os << (o.dPerChannel ? " D(h,p)" : " D(h)");
  if (o.hasZ)
    *os << " z";
  if (o.hasDtBias)
    *os << " dtBias";
  if (o.dtSoftplus)
    *os << " softplus";
  if (o.dtMin > 0.0 || o.dtMax < std::numeric_limits<double>::infinity())
    *os << " limits[" << o.dtMin << ", " << o.dtMax << "]";
  if (o.hasInitialStates)
    *os << " initialStates";
  if (o.returnFinalStates)
    *os << " finalStates";
  if (o.hasSeqIdx)
    *os << " seqIdx";
  *os << " } bound " << c.bound;
}

std::string caseName(const ::testing::TestParamInfo<SsdCase> &info) {
  const SsdCase &c = info.param;
  return c.label + "_" + dsl::name(c.dtype) + "_L" +
         std::to_string(c.shape.seqlen) + "_g" +
         std::to_string(c.shape.ngroups) + "_chunk" + std::to_string(c.chunk) +
         (c.fused ? "_fused" : "") +
         (c.segments > 1 ? "_split" + std::to_string(c.segments) : "");
}

double boundFor(dsl::DType dtype) {
  return dtype == dsl::bf16 ? 1e-2 : dtype == dsl::f16 ? 2e-3 : 1e-5;
}

std::vector<std::pair<std::string, ssd::Options>> optionSets() {
  std::vector<std::pair<std::string, ssd::Options>> sets;
  auto add = [&](std::string name, auto edit) {
    ssd::Options o;
    edit(o);
    sets.emplace_back(std::move(name), o);
  };
  auto allOn = [](ssd::Options &o) {
    o.hasD = o.hasZ = o.hasDtBias = o.dtSoftplus = true;
    o.dtMin = 1e-3;
    o.dtMax = 0.1;
    o.hasInitialStates = o.returnFinalStates = o.hasSeqIdx = true;
  };
  add("Plain", [](ssd::Options &) {});
  add("D", [](ssd::Options &o) { o.hasD = true; });
  add("DPerChannel", [](ssd::Options &o) { o.hasD = o.dPerChannel = true; });
  add("Z", [](ssd::Options &o) { o.hasZ = true; });
  add("DtBias", [](ssd::Options &o) { o.hasDtBias = true; });
  add("Softplus", [](ssd::Options &o) { o.dtSoftplus = true; });
  add("Limits", [](ssd::Options &o) {
    o.dtMin = 1e-3;
    o.dtMax = 0.1;
  });
  add("InitialStates", [](ssd::Options &o) { o.hasInitialStates = true; });
  add("FinalStates", [](ssd::Options &o) { o.returnFinalStates = true; });
  add("SeqIdx", [](ssd::Options &o) { o.hasSeqIdx = true; });
  add("SeqIdxStates", [](ssd::Options &o) {
    o.hasSeqIdx = o.hasInitialStates = o.returnFinalStates = true;
  });
  add("DtPath", [](ssd::Options &o) {
    o.hasDtBias = o.dtSoftplus = true;
    o.dtMin = 1e-3;
    o.dtMax = 0.1;
  });
  add("AllOn", allOn);
  add("AllOnDPerChannel", [&](ssd::Options &o) {
    allOn(o);
    o.dPerChannel = true;
  });
  add("AllButSeqIdx", [&](ssd::Options &o) {
    allOn(o);
    o.hasSeqIdx = false;
  });
  return sets;
}

ssd::Shape baseShape(int64_t ngroups, int64_t seqlen = 300) {
  return ssd::Shape{2, seqlen, 4, 32, 16, ngroups};
}

std::vector<SsdCase> optionCases() {
  std::vector<SsdCase> cases;
  for (dsl::DType dtype : {dsl::f32, dsl::bf16})
    for (int64_t ngroups : {1, 2})
      for (auto &[label, options] : optionSets())
        cases.push_back(
            {label, options, baseShape(ngroups), dtype, 64, boundFor(dtype)});
  return cases;
}

std::vector<SsdCase> shapeCases() {
  std::vector<SsdCase> cases;
  auto sets = optionSets();
  const ssd::Options plain = sets.front().second;
  ssd::Options allOn;
  for (auto &[label, options] : sets)
    if (label == "AllOn")
      allOn = options;
  for (dsl::DType dtype : {dsl::f32, dsl::bf16})
    for (auto [label, options] : {std::pair{std::string("Plain"), plain},
                                  std::pair{std::string("AllOn"), allOn}}) {
      // chunk 128, seqlen 300: two full chunks and a partial one.
      cases.push_back(
          {label, options, baseShape(2), dtype, 128, boundFor(dtype)});
      // Exactly one chunk.
      cases.push_back(
          {label, options, baseShape(2, 64), dtype, 64, boundFor(dtype)});
      // One step.
      cases.push_back(
          {label, options, baseShape(1, 1), dtype, 64, boundFor(dtype)});
    }
  // Head and state sizes the models use, and sizes that are padded to the
  // next power of two and masked (headdim 48, dstate 24), chunk 256, f16.
  for (dsl::DType dtype : {dsl::f32, dsl::bf16}) {
    cases.push_back({"AllOn_P64_N64", allOn, ssd::Shape{1, 200, 2, 64, 64, 1},
                     dtype, 64, boundFor(dtype)});
    cases.push_back({"AllOn_P128_N256", allOn,
                     ssd::Shape{1, 150, 2, 128, 256, 1}, dtype, 64,
                     boundFor(dtype)});
    cases.push_back({"AllOn_P48_N24", allOn, ssd::Shape{2, 130, 2, 48, 24, 2},
                     dtype, 64, boundFor(dtype)});
  }
  cases.push_back({"AllOn_chunk256", allOn, baseShape(2, 600), dsl::f32, 256,
                   boundFor(dsl::f32)});
  cases.push_back(
      {"AllOn", allOn, baseShape(2), dsl::f16, 64, boundFor(dsl::f16)});
  cases.push_back(
      {"Plain", plain, baseShape(1), dsl::f16, 128, boundFor(dsl::f16)});
  return cases;
}

/// The fused forward: every option set (bf16, two groups), f16 and f32
/// (tf32 Tensor Cores: bound 5e-3, docs/ssd.md), and shapes with several
/// headdim blocks (dstate 256), masked sizes, one step, one chunk.
std::vector<SsdCase> fusedCases() {
  std::vector<SsdCase> cases;
  auto chunkOf = [](dsl::DType t) {
    return ssd::fusedChunk(t == dsl::f32 ? ssd::ElementType::f32
                                         : ssd::ElementType::bf16);
  };
  auto bound = [](dsl::DType t) { return t == dsl::f32 ? 5e-3 : boundFor(t); };
  auto add = [&](std::string label, ssd::Options o, ssd::Shape s,
                 dsl::DType t) {
    cases.push_back({label, o, s, t, chunkOf(t), bound(t), true});
  };
  auto sets = optionSets();
  ssd::Options plain = sets.front().second, allOn;
  for (auto &[label, options] : sets) {
    add(label, options, baseShape(2), dsl::bf16);
    if (label == "AllOn")
      allOn = options;
  }
  for (dsl::DType t : {dsl::f32, dsl::f16}) {
    add("Plain", plain, baseShape(1), t);
    add("AllOn", allOn, baseShape(2), t);
  }
  for (dsl::DType t : {dsl::f32, dsl::bf16}) {
    add("AllOn_P64_N64", allOn, ssd::Shape{1, 200, 2, 64, 64, 1}, t);
    add("AllOn_P128_N256", allOn, ssd::Shape{1, 150, 2, 128, 256, 1}, t);
    add("AllOn_P48_N24", allOn, ssd::Shape{2, 130, 2, 48, 24, 2}, t);
    add("AllOn", allOn, baseShape(1, 1), t);
    add("AllOn", allOn, baseShape(2, 64), t);
  }
  return cases;
}

/// The split forward (three launches over segments of the sequence, what
/// the GPU runs on small grids): every option set in bf16 over two
/// segments of 150 (two full chunks and a partial one each), f32 and f16,
/// more segments than chunks, segments shorter than a chunk, dstate 128
/// with several headdim blocks.
std::vector<SsdCase> splitCases() {
  std::vector<SsdCase> cases;
  auto chunkOf = [](dsl::DType t) {
    return ssd::fusedChunk(t == dsl::f32 ? ssd::ElementType::f32
                                         : ssd::ElementType::bf16);
  };
  auto bound = [](dsl::DType t) { return t == dsl::f32 ? 5e-3 : boundFor(t); };
  auto add = [&](std::string label, ssd::Options o, ssd::Shape s, dsl::DType t,
                 int64_t segments) {
    cases.push_back({label, o, s, t, chunkOf(t), bound(t), true, segments});
  };
  auto sets = optionSets();
  ssd::Options plain = sets.front().second, allOn, seqStates;
  for (auto &[label, options] : sets) {
    add(label, options, baseShape(2), dsl::bf16, 2);
    if (label == "AllOn")
      allOn = options;
    if (label == "SeqIdxStates")
      seqStates = options;
  }
  for (dsl::DType t : {dsl::f32, dsl::f16}) {
    add("Plain", plain, baseShape(1, 320), t, 5);
    add("AllOn", allOn, baseShape(2, 320), t, 5);
  }
  add("AllOn", allOn, baseShape(2), dsl::bf16, 10);
  add("SeqIdxStates", seqStates, baseShape(1, 256), dsl::bf16, 4);
  add("AllOn_P128_N128", allOn, ssd::Shape{1, 256, 2, 128, 128, 1}, dsl::bf16,
      2);
  return cases;
}

class SsdInterpreter : public ::testing::TestWithParam<SsdCase> {};

TEST_P(SsdInterpreter, MatchesFloat64Reference) {
  const SsdCase &tc = GetParam();
  uint64_t seed = check::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);

  Problem p = makeProblem(tc.shape, tc.options, tc.dtype, tc.chunk, rng);
  ssd::Buffers buffers = p.buffers();
  ssd::Config config{tc.dtype, tc.chunk, tc.fused, tc.segments};
  int launches = -1;
  interp::Status st =
      ssd::forwardInterpreted(tc.shape, tc.options, config, buffers, &launches);
  ASSERT_TRUE(st.ok) << st.message;
  if (tc.fused)
    EXPECT_EQ(launches, tc.segments > 1 ? 3 : 1);

  ssd::HostOutputs want = ssd::reference(tc.shape, tc.options, p.host());
  EXPECT_EQ(check::countPoisoned(*p.y), 0) << "y elements not written";
  EXPECT_EQ(countNonFinite(*p.y), 0) << "y has NaN or inf";
  double errY = check::relativeL2(check::values(*p.y), want.y);
  EXPECT_LT(errY, tc.bound) << "relative L2 of y";
  RecordProperty("rel_l2_y", sci(errY));
  if (tc.options.returnFinalStates) {
    EXPECT_EQ(check::countPoisoned(*p.finalStates), 0)
        << "final-state elements not written";
    EXPECT_EQ(countNonFinite(*p.finalStates), 0)
        << "final states have NaN or inf";
    double errS =
        check::relativeL2(check::values(*p.finalStates), want.finalStates);
    EXPECT_LT(errS, tc.bound) << "relative L2 of the final states";
    RecordProperty("rel_l2_states", sci(errS));
  }
}

INSTANTIATE_TEST_SUITE_P(Options, SsdInterpreter,
                         ::testing::ValuesIn(optionCases()), caseName);
INSTANTIATE_TEST_SUITE_P(Shapes, SsdInterpreter,
                         ::testing::ValuesIn(shapeCases()), caseName);
INSTANTIATE_TEST_SUITE_P(Fused, SsdInterpreter,
                         ::testing::ValuesIn(fusedCases()), caseName);
INSTANTIATE_TEST_SUITE_P(Split, SsdInterpreter,
                         ::testing::ValuesIn(splitCases()), caseName);

TEST(SsdInterpreterLaunches, AtMostThree) {
  std::mt19937_64 rng(check::freshSeed());
  for (auto &[label, options] : optionSets()) {
    if (label != "Plain" && label != "AllOn")
      continue;
    SCOPED_TRACE(label);
    ssd::Shape s = baseShape(2);
    Problem p = makeProblem(s, options, dsl::f32, 64, rng);
    ssd::Buffers buffers = p.buffers();
    int launches = -1;
    interp::Status st = ssd::forwardInterpreted(
        s, options, ssd::Config{dsl::f32, 64}, buffers, &launches);
    ASSERT_TRUE(st.ok) << st.message;
    EXPECT_GE(launches, 1);
    EXPECT_LE(launches, 3);
  }
}

//===----------------------------------------------------------------------===//
// Bad input: an error Status with a message, nothing launched, no crash.
//===----------------------------------------------------------------------===//

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return s;
}

/// Runs a call that must be rejected: ok == false, a message (mentioning
/// `needle` when given), no launch, y untouched.
void expectRejected(const ssd::Shape &s, const ssd::Options &o,
                    const ssd::Config &config, ssd::Buffers buffers,
                    const std::string &needle = "") {
  int launches = -1;
  interp::Status st = ssd::forwardInterpreted(s, o, config, buffers, &launches);
  EXPECT_FALSE(st.ok) << "accepted bad input";
  EXPECT_FALSE(st.message.empty()) << "error without a message";
  if (!needle.empty()) {
    EXPECT_NE(lower(st.message).find(lower(needle)), std::string::npos)
        << "message does not mention '" << needle << "': " << st.message;
  }
  EXPECT_LE(launches, 0) << "launched kernels before rejecting the call";
  if (buffers.y) {
    EXPECT_EQ(check::countPoisoned(*buffers.y), buffers.y->numElements())
        << "y written by a rejected call";
  }
  if (!st.ok)
    std::cout << "  [rejected] " << st.message << "\n";
}

ssd::Options everyOption() {
  for (auto &[label, options] : optionSets())
    if (label == "AllOn")
      return options;
  return {};
}

constexpr ssd::Shape kSmall{1, 70, 4, 32, 16, 1};

TEST(SsdInterpreterErrors, NgroupsMustDivideNheads) {
  std::mt19937_64 rng(11);
  for (int64_t ngroups : {3, 0}) {
    SCOPED_TRACE("ngroups " + std::to_string(ngroups));
    ssd::Shape s = kSmall;
    s.ngroups = ngroups;
    // Buffers consistent with the (bad) shape.
    Problem p = makeProblem(s, ssd::Options{}, dsl::f32, 64, rng);
    expectRejected(s, ssd::Options{}, ssd::Config{dsl::f32, 64}, p.buffers(),
                   ngroups == 3 ? "ngroups" : "");
  }
}

TEST(SsdInterpreterErrors, UnsupportedHeaddim) {
  std::mt19937_64 rng(12);
  ssd::Shape s = kSmall;
  s.headdim = 257; // beyond the largest tile (256)
  Problem p = makeProblem(s, ssd::Options{}, dsl::f32, 64, rng);
  expectRejected(s, ssd::Options{}, ssd::Config{dsl::f32, 64}, p.buffers(),
                 "headdim");
}

TEST(SsdInterpreterErrors, WrongBufferShape) {
  std::mt19937_64 rng(13);
  const ssd::Options o = everyOption();
  const ssd::Config config{dsl::f32, 64};
  const int64_t L = kSmall.seqlen, H = kSmall.nheads, P = kSmall.headdim,
                N = kSmall.dstate;
  Problem p = makeProblem(kSmall, o, dsl::f32, 64, rng);
  {
    // The good call is accepted (so the rejections below are about shapes).
    Problem q = makeProblem(kSmall, o, dsl::f32, 64, rng);
    ssd::Buffers b = q.buffers();
    interp::Status st = ssd::forwardInterpreted(kSmall, o, config, b);
    EXPECT_TRUE(st.ok) << st.message;
  }
  struct Wrong {
    const char *what;
    Buffer buffer;
    Buffer *ssd::Buffers::*slot;
  };
  std::vector<Wrong> wrongs;
  wrongs.push_back(
      {"x headdim", Buffer(DType::f32, {1, L, H, P + 1}), &ssd::Buffers::x});
  wrongs.push_back({"x rank", Buffer(DType::f32, {L, H, P}), &ssd::Buffers::x});
  wrongs.push_back(
      {"dt seqlen", Buffer(DType::f32, {1, L - 1, H}), &ssd::Buffers::dt});
  wrongs.push_back({"A nheads", Buffer(DType::f32, {H + 1}), &ssd::Buffers::A});
  wrongs.push_back(
      {"B dstate", Buffer(DType::f32, {1, L, 1, N * 2}), &ssd::Buffers::B});
  wrongs.push_back(
      {"C ngroups", Buffer(DType::f32, {1, L, 2, N}), &ssd::Buffers::C});
  wrongs.push_back({"D per channel given for per head",
                    Buffer(DType::f32, {H, P}), &ssd::Buffers::D});
  wrongs.push_back(
      {"z", Buffer(DType::f32, {1, L, H, P - 1}), &ssd::Buffers::z});
  wrongs.push_back({"dtBias", Buffer(DType::f32, {1}), &ssd::Buffers::dtBias});
  wrongs.push_back({"initialStates", Buffer(DType::f32, {1, H, N, P}),
                    &ssd::Buffers::initialStates});
  wrongs.push_back(
      {"seqIdx", Buffer(DType::i32, {2, L}), &ssd::Buffers::seqIdx});
  wrongs.push_back(
      {"y", Buffer(DType::f32, {1, L + 1, H, P}), &ssd::Buffers::y});
  wrongs.push_back({"finalStates", Buffer(DType::f32, {1, H, P}),
                    &ssd::Buffers::finalStates});
  for (Wrong &w : wrongs) {
    SCOPED_TRACE(w.what);
    w.buffer.poison();
    ssd::Buffers b = p.buffers();
    b.*(w.slot) = &w.buffer;
    expectRejected(kSmall, o, config, b);
  }
}

TEST(SsdInterpreterErrors, WrongBufferDtype) {
  std::mt19937_64 rng(14);
  const ssd::Options o = everyOption();
  const int64_t L = kSmall.seqlen, H = kSmall.nheads, P = kSmall.headdim;
  Problem p = makeProblem(kSmall, o, dsl::bf16, 64, rng);
  const ssd::Config config{dsl::bf16, 64};
  struct Wrong {
    const char *what;
    Buffer buffer;
    Buffer *ssd::Buffers::*slot;
  };
  std::vector<Wrong> wrongs;
  wrongs.push_back({"x in f32 with a bf16 config",
                    Buffer(DType::f32, {1, L, H, P}), &ssd::Buffers::x});
  wrongs.push_back(
      {"dt in bf16", Buffer(DType::bf16, {1, L, H}), &ssd::Buffers::dt});
  wrongs.push_back(
      {"seqIdx in f32", Buffer(DType::f32, {1, L}), &ssd::Buffers::seqIdx});
  for (Wrong &w : wrongs) {
    SCOPED_TRACE(w.what);
    ssd::Buffers b = p.buffers();
    b.*(w.slot) = &w.buffer;
    expectRejected(kSmall, o, config, b);
  }
}

TEST(SsdInterpreterErrors, DecreasingSeqIdx) {
  // The kernels take packed sequences: ids never decrease along a row
  // (docs/decisions.md). The reference accepts any ids; the host API rejects.
  std::mt19937_64 rng(16);
  ssd::Options o;
  o.hasSeqIdx = true;
  Problem p = makeProblem(kSmall, o, dsl::f32, 64, rng);
  for (int64_t t = 0; t < kSmall.seqlen; ++t)
    p.seqIdx->setInt(t, t < 40 ? 1 : 0);
  expectRejected(kSmall, o, ssd::Config{dsl::f32, 64}, p.buffers(), "seq_idx");
}

TEST(SsdInterpreterErrors, MissingBuffer) {
  std::mt19937_64 rng(15);
  const ssd::Options o = everyOption();
  const ssd::Config config{dsl::f32, 64};
  Problem p = makeProblem(kSmall, o, dsl::f32, 64, rng);
  // Optional buffers whose option is on, and the required ones.
  const std::pair<const char *, Buffer * ssd::Buffers::*> slots[] = {
      {"D", &ssd::Buffers::D},
      {"z", &ssd::Buffers::z},
      {"dtBias", &ssd::Buffers::dtBias},
      {"initialStates", &ssd::Buffers::initialStates},
      {"seqIdx", &ssd::Buffers::seqIdx},
      {"finalStates", &ssd::Buffers::finalStates},
      {"x", &ssd::Buffers::x},
      {"dt", &ssd::Buffers::dt},
      {"A", &ssd::Buffers::A},
      {"B", &ssd::Buffers::B},
      {"C", &ssd::Buffers::C},
      {"y", &ssd::Buffers::y},
  };
  for (auto [name, slot] : slots) {
    SCOPED_TRACE(std::string("missing ") + name);
    ssd::Buffers b = p.buffers();
    b.*slot = nullptr;
    expectRejected(kSmall, o, config, b);
  }
}

TEST(SsdInterpreterErrors, BadSegments) {
  std::mt19937_64 rng(17);
  const ssd::Options o = everyOption();
  Problem p = makeProblem(kSmall, o, dsl::bf16, 64, rng);
  // seqlen 70 is not a multiple of 3 segments.
  expectRejected(kSmall, o, ssd::Config{dsl::bf16, 64, true, 3}, p.buffers(),
                 "multiple of segments");
  expectRejected(kSmall, o, ssd::Config{dsl::bf16, 64, true, 0}, p.buffers(),
                 "segments");
  // Only the fused forward splits.
  expectRejected(kSmall, o, ssd::Config{dsl::bf16, 64, false, 2}, p.buffers(),
                 "segments");
  // No split forward above dstate 128.
  const ssd::Shape wide{1, 70, 2, 32, 256, 1};
  Problem q = makeProblem(wide, o, dsl::bf16, 64, rng);
  expectRejected(wide, o, ssd::Config{dsl::bf16, 64, true, 2}, q.buffers(),
                 "dstate");
}

} // namespace
