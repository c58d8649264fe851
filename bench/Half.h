//===- Half.h - bf16 and f16 on the host for the benchmarks -----*- C++ -*-===//

#ifndef TESSERA_BENCH_HALF_H
#define TESSERA_BENCH_HALF_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tessera::bench {

/// Rounds to bf16 (or f16), nearest even; f16 inputs here are normal.
inline uint16_t toHalf(float f, bool bf16) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if (bf16)
    return uint16_t((x + 0x7fff + ((x >> 16) & 1)) >> 16);
  // f16, round to nearest even (inputs here are normal and small).
  const uint32_t sign = (x >> 16) & 0x8000;
  int exp = int((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffff;
  if (exp <= 0)
    return uint16_t(sign);
  uint32_t h = sign | (uint32_t(exp) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h;
  return uint16_t(h);
}

inline double fromHalf(uint16_t h, bool bf16) {
  if (bf16) {
    uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  const int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exp == 0x1f)
    return mant ? NAN : sign * INFINITY;
  if (exp == 0)
    return sign * std::ldexp(mant, -24);
  return sign * std::ldexp(1024 + mant, exp - 25);
}

} // namespace tessera::bench

#endif // TESSERA_BENCH_HALF_H
