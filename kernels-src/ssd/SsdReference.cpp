//===- SsdReference.cpp - float64 plain recurrence of the SSD forward -----===//
//
// The reference the chunked kernels are checked against: the recurrence of
// Ssd.h evaluated step by step over t for every (batch, head), with the state
// h (headdim x dstate) in double. It shares nothing with the chunked
// algorithm (no cumulative decays, no chunk states).
//
//===----------------------------------------------------------------------===//

#include "kernels-src/ssd/SsdReference.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tessera::ssd {
namespace {

[[noreturn]] void fail(const std::string &message) {
  throw std::invalid_argument("ssd::reference: " + message);
}

std::string dims(std::initializer_list<int64_t> sizes) {
  std::string s = "(";
  bool first = true;
  for (int64_t d : sizes) {
    if (!first)
      s += ", ";
    s += std::to_string(d);
    first = false;
  }
  return s + ")";
}

int64_t product(std::initializer_list<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t d : sizes)
    n *= d;
  return n;
}

template <typename T>
void checkSize(const char *name, const std::vector<T> &v,
               std::initializer_list<int64_t> sizes) {
  int64_t want = product(sizes);
  if (static_cast<int64_t>(v.size()) != want)
    fail(std::string(name) + " has " + std::to_string(v.size()) +
         " elements, expected " + std::to_string(want) + " for shape " +
         dims(sizes));
}

template <typename T>
void checkOptional(const char *name, bool enabled, const char *option,
                   const std::vector<T> &v,
                   std::initializer_list<int64_t> sizes) {
  if (enabled) {
    if (v.empty())
      fail(std::string(name) + " is missing but options." + option + " is set");
    checkSize(name, v, sizes);
  } else if (!v.empty()) {
    fail(std::string(name) + " is given (" + std::to_string(v.size()) +
         " elements) but options." + option + " is not set");
  }
}

void validate(const Shape &s, const Options &o, const HostInputs &in) {
  const std::pair<const char *, int64_t> extents[] = {
      {"batch", s.batch},     {"seqlen", s.seqlen}, {"nheads", s.nheads},
      {"headdim", s.headdim}, {"dstate", s.dstate}, {"ngroups", s.ngroups}};
  for (auto [name, value] : extents)
    if (value < 1)
      fail(std::string("shape.") + name + " must be positive, got " +
           std::to_string(value));
  if (s.nheads % s.ngroups != 0)
    fail("ngroups (" + std::to_string(s.ngroups) + ") must divide nheads (" +
         std::to_string(s.nheads) + ")");
  if (std::isnan(o.dtMin) || std::isnan(o.dtMax) || o.dtMin > o.dtMax)
    fail("dt limits must satisfy dtMin <= dtMax, got [" +
         std::to_string(o.dtMin) + ", " + std::to_string(o.dtMax) + "]");

  const int64_t b = s.batch, L = s.seqlen, H = s.nheads, P = s.headdim,
                N = s.dstate, G = s.ngroups;
  checkSize("x", in.x, {b, L, H, P});
  checkSize("dt", in.dt, {b, L, H});
  checkSize("A", in.A, {H});
  checkSize("B", in.B, {b, L, G, N});
  checkSize("C", in.C, {b, L, G, N});
  if (o.hasD && o.dPerChannel)
    checkOptional("D", true, "hasD", in.D, {H, P});
  else
    checkOptional("D", o.hasD, "hasD", in.D, {H});
  checkOptional("z", o.hasZ, "hasZ", in.z, {b, L, H, P});
  checkOptional("dtBias", o.hasDtBias, "hasDtBias", in.dtBias, {H});
  checkOptional("initialStates", o.hasInitialStates, "hasInitialStates",
                in.initialStates, {b, H, P, N});
  checkOptional("seqIdx", o.hasSeqIdx, "hasSeqIdx", in.seqIdx, {b, L});
}

double softplus(double v) { return v > 20.0 ? v : std::log1p(std::exp(v)); }

} // namespace

HostOutputs reference(const Shape &shape, const Options &options,
                      const HostInputs &in) {
  validate(shape, options, in);
  const int64_t batch = shape.batch, L = shape.seqlen, H = shape.nheads,
                P = shape.headdim, N = shape.dstate, G = shape.ngroups;
  const int64_t headsPerGroup = H / G;

  HostOutputs out;
  out.y.assign(batch * L * H * P, 0.0);
  if (options.returnFinalStates)
    out.finalStates.assign(batch * H * P * N, 0.0);

  std::vector<double> h(P * N);
  for (int64_t bi = 0; bi < batch; ++bi) {
    for (int64_t hi = 0; hi < H; ++hi) {
      const int64_t g = hi / headsPerGroup;
      const double a = in.A[hi];
      // h at t = -1.
      if (options.hasInitialStates)
        std::copy_n(in.initialStates.begin() + ((bi * H + hi) * P) * N, P * N,
                    h.begin());
      else
        std::fill(h.begin(), h.end(), 0.0);

      for (int64_t t = 0; t < L; ++t) {
        if (options.hasSeqIdx && t > 0 &&
            in.seqIdx[bi * L + t] != in.seqIdx[bi * L + t - 1])
          std::fill(h.begin(), h.end(), 0.0);

        double dt = in.dt[(bi * L + t) * H + hi];
        if (options.hasDtBias)
          dt += in.dtBias[hi];
        if (options.dtSoftplus)
          dt = softplus(dt);
        dt = std::clamp(dt, options.dtMin, options.dtMax);

        const double decay = std::exp(dt * a);
        const double *x = &in.x[((bi * L + t) * H + hi) * P];
        const double *B = &in.B[((bi * L + t) * G + g) * N];
        const double *C = &in.C[((bi * L + t) * G + g) * N];
        double *y = &out.y[((bi * L + t) * H + hi) * P];
        for (int64_t p = 0; p < P; ++p) {
          double *row = &h[p * N];
          const double dx = dt * x[p];
          double acc = 0.0;
          for (int64_t n = 0; n < N; ++n) {
            row[n] = decay * row[n] + dx * B[n];
            acc += row[n] * C[n];
          }
          if (options.hasD)
            acc += (options.dPerChannel ? in.D[hi * P + p] : in.D[hi]) * x[p];
          if (options.hasZ) {
            const double z = in.z[((bi * L + t) * H + hi) * P + p];
            acc *= z / (1.0 + std::exp(-z));
          }
          y[p] = acc;
        }
      }

      if (options.returnFinalStates)
        std::copy(h.begin(), h.end(),
                  out.finalStates.begin() + ((bi * H + hi) * P) * N);
    }
  }
  return out;
}

} // namespace tessera::ssd
