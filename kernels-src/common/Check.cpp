//===- Check.cpp - helpers to check kernels against references
//-------------===//

#include "kernels-src/common/Check.h"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace tessera::check {

interp::DType toInterp(dsl::DType type) {
  switch (type) {
  case dsl::DType::f16:
    return interp::DType::f16;
  case dsl::DType::bf16:
    return interp::DType::bf16;
  case dsl::DType::tf32:
    return interp::DType::tf32;
  case dsl::DType::f32:
    return interp::DType::f32;
  case dsl::DType::f64:
    return interp::DType::f64;
  case dsl::DType::i1:
    return interp::DType::i1;
  case dsl::DType::i8:
    return interp::DType::i8;
  case dsl::DType::i16:
    return interp::DType::i16;
  case dsl::DType::i32:
    return interp::DType::i32;
  case dsl::DType::i64:
  case dsl::DType::index:
    return interp::DType::i64;
  }
  return interp::DType::f64;
}

std::vector<double> fillUniform(interp::Buffer &buffer, std::mt19937_64 &rng,
                                double lo, double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int64_t i = 0; i < buffer.numElements(); ++i)
    buffer.set(i, dist(rng));
  return values(buffer);
}

std::vector<double> values(const interp::Buffer &buffer) {
  std::vector<double> out(buffer.numElements());
  for (int64_t i = 0; i < buffer.numElements(); ++i)
    out[i] = buffer.get(i);
  return out;
}

double relativeL2(const std::vector<double> &got,
                  const std::vector<double> &want) {
  if (got.size() != want.size())
    return std::numeric_limits<double>::infinity();
  double num = 0, den = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i]))
      return std::numeric_limits<double>::infinity();
    num += (got[i] - want[i]) * (got[i] - want[i]);
    den += want[i] * want[i];
  }
  if (den == 0)
    return num == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return std::sqrt(num / den);
}

int64_t countPoisoned(const interp::Buffer &buffer) {
  int64_t n = 0;
  for (int64_t i = 0; i < buffer.numElements(); ++i)
    n += buffer.isPoison(i);
  return n;
}

uint64_t freshSeed() {
  // TESSERA_SEED replays a failure's seed (the tests print it).
  if (const char *fixed = std::getenv("TESSERA_SEED"))
    return std::strtoull(fixed, nullptr, 10);
  std::random_device rd;
  return (uint64_t(rd()) << 32) ^ rd();
}

} // namespace tessera::check
