//===- Numerics.cpp - element types and device-faithful rounding ----------===//
//
// Rounding works directly on the bits of the double, so every conversion is
// a single correctly rounded step (no double rounding through f32).
//
//===----------------------------------------------------------------------===//

#include "interpreter/Numerics.h"

#include "mlir/IR/BuiltinTypes.h"

#include <bit>
#include <cmath>
#include <limits>

using namespace tessera::interp;

namespace {

/// A binary floating-point format: `mant` explicit mantissa bits, normal
/// exponents in [emin, emax].
struct Format {
  int mant;
  int emin;
  int emax;
};

constexpr Format kF16{10, -14, 15};
constexpr Format kBF16{7, -126, 127};
constexpr Format kTF32{10, -126, 127};

/// Rounds `x` to `fmt`, ties to even (or away from zero with `tiesAway`).
/// NaN, infinities and zeros pass through; overflow gives infinity.
inline double roundToFormat(double x, Format fmt, bool tiesAway) {
  uint64_t bits = std::bit_cast<uint64_t>(x);
  const uint64_t sign = bits & 0x8000000000000000ull;
  uint64_t mag = bits & ~0x8000000000000000ull;
  const int biased = static_cast<int>(mag >> 52);
  if (biased == 0x7ff || mag == 0) // NaN, inf, +-0
    return x;
  const int exp = biased - 1023;
  if (biased == 0 || exp < fmt.emin - fmt.mant - 1) {
    // Below half the smallest subnormal of the target: rounds to zero
    // (exactly half is impossible here, it would have exp == emin-mant-1).
    return std::bit_cast<double>(sign);
  }
  if (exp >= fmt.emin) {
    // Normal in the target: round the 52-bit mantissa to `mant` bits. A
    // carry out of the mantissa correctly bumps the exponent.
    const int shift = 52 - fmt.mant;
    const uint64_t half = uint64_t(1) << (shift - 1);
    if (tiesAway)
      mag += half;
    else
      mag += half - 1 + ((mag >> shift) & 1);
    mag &= ~((uint64_t(1) << shift) - 1);
    if (static_cast<int>(mag >> 52) - 1023 > fmt.emax)
      return std::bit_cast<double>(sign | 0x7ff0000000000000ull);
    return std::bit_cast<double>(sign | mag);
  }
  // Subnormal in the target: the quantum is 2^(emin - mant). Scaling by a
  // power of two is exact, and so is the integer rounding.
  const double quantum = std::ldexp(1.0, fmt.emin - fmt.mant);
  double scaled = std::fabs(x) / quantum;
  double r;
  if (tiesAway) {
    r = std::floor(scaled + 0.5);
  } else {
    r = std::floor(scaled);
    double frac = scaled - r;
    if (frac > 0.5 || (frac == 0.5 && std::fmod(r, 2.0) != 0.0))
      r += 1.0;
  }
  double result = r * quantum;
  return sign ? -result : result;
}

} // namespace

const char *tessera::interp::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::f16:
    return "f16";
  case DType::bf16:
    return "bf16";
  case DType::tf32:
    return "tf32";
  case DType::f32:
    return "f32";
  case DType::f64:
    return "f64";
  case DType::i1:
    return "i1";
  case DType::i8:
    return "i8";
  case DType::i16:
    return "i16";
  case DType::i32:
    return "i32";
  case DType::i64:
    return "i64";
  }
  return "?";
}

int tessera::interp::dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::f16:
  case DType::bf16:
  case DType::i16:
    return 2;
  case DType::tf32:
  case DType::f32:
  case DType::i32:
    return 4;
  case DType::f64:
  case DType::i64:
    return 8;
  case DType::i1:
  case DType::i8:
    return 1;
  }
  return 1;
}

bool tessera::interp::isFloat(DType dtype) {
  switch (dtype) {
  case DType::f16:
  case DType::bf16:
  case DType::tf32:
  case DType::f32:
  case DType::f64:
    return true;
  default:
    return false;
  }
}

unsigned tessera::interp::intWidth(DType dtype) {
  switch (dtype) {
  case DType::i1:
    return 1;
  case DType::i8:
    return 8;
  case DType::i16:
    return 16;
  case DType::i32:
    return 32;
  case DType::i64:
    return 64;
  default:
    return 0;
  }
}

std::optional<DType> tessera::interp::dtypeOf(mlir::Type type) {
  if (!type)
    return std::nullopt;
  if (llvm::isa<mlir::Float16Type>(type))
    return DType::f16;
  if (llvm::isa<mlir::BFloat16Type>(type))
    return DType::bf16;
  if (llvm::isa<mlir::FloatTF32Type>(type))
    return DType::tf32;
  if (llvm::isa<mlir::Float32Type>(type))
    return DType::f32;
  if (llvm::isa<mlir::Float64Type>(type))
    return DType::f64;
  if (type.isIndex())
    return DType::i64;
  if (type.isSignlessInteger(1))
    return DType::i1;
  if (type.isSignlessInteger(8))
    return DType::i8;
  if (type.isSignlessInteger(16))
    return DType::i16;
  if (type.isSignlessInteger(32))
    return DType::i32;
  if (type.isSignlessInteger(64))
    return DType::i64;
  return std::nullopt;
}

double tessera::interp::roundToBF16(double value) {
  return roundToFormat(value, kBF16, /*tiesAway=*/false);
}
double tessera::interp::roundToF16(double value) {
  return roundToFormat(value, kF16, /*tiesAway=*/false);
}
double tessera::interp::roundToTF32(double value) {
  return roundToFormat(value, kTF32, /*tiesAway=*/false);
}
double tessera::interp::roundToTF32RNA(double value) {
  return roundToFormat(value, kTF32, /*tiesAway=*/true);
}
double tessera::interp::roundToF32(double value) {
  // The hardware conversion is a single RNE rounding with subnormals and
  // overflow to infinity (the default floating-point environment).
  return static_cast<double>(static_cast<float>(value));
}

int64_t tessera::interp::wrapSigned(int64_t value, unsigned bits) {
  if (bits == 0)
    return 0;
  if (bits >= 64)
    return value;
  const unsigned shift = 64 - bits;
  return static_cast<int64_t>(static_cast<uint64_t>(value) << shift) >> shift;
}

uint64_t tessera::interp::wrapUnsigned(int64_t value, unsigned bits) {
  if (bits == 0)
    return 0;
  if (bits >= 64)
    return static_cast<uint64_t>(value);
  return static_cast<uint64_t>(value) & ((uint64_t(1) << bits) - 1);
}

int64_t tessera::interp::doubleToWrappedInt(double value, unsigned bits) {
  if (!std::isfinite(value))
    return 0;
  double t = std::trunc(value);
  constexpr double two63 = 9223372036854775808.0;
  constexpr double two64 = 18446744073709551616.0;
  if (!(std::fabs(t) < two63)) {
    t = std::fmod(t, two64); // exact
    if (t >= two63)
      t -= two64; // exact (Sterbenz)
    else if (t < -two63)
      t += two64;
  }
  return wrapSigned(static_cast<int64_t>(t), bits);
}

double tessera::interp::roundTo(DType dtype, double value) {
  switch (dtype) {
  case DType::f16:
    return roundToF16(value);
  case DType::bf16:
    return roundToBF16(value);
  case DType::tf32:
    return roundToTF32(value);
  case DType::f32:
    return roundToF32(value);
  case DType::f64:
    return value;
  case DType::i1:
    return static_cast<double>(doubleToWrappedInt(value, 64) & 1);
  case DType::i8:
  case DType::i16:
  case DType::i32:
  case DType::i64:
    return static_cast<double>(doubleToWrappedInt(value, intWidth(dtype)));
  }
  return value;
}

uint16_t tessera::interp::toBF16Bits(double value) {
  if (std::isnan(value))
    return std::signbit(value) ? 0xFFC0 : 0x7FC0;
  // Every bf16 value is exactly an f32 value.
  float f = static_cast<float>(roundToBF16(value));
  return static_cast<uint16_t>(std::bit_cast<uint32_t>(f) >> 16);
}

double tessera::interp::fromBF16Bits(uint16_t bits) {
  return static_cast<double>(
      std::bit_cast<float>(static_cast<uint32_t>(bits) << 16));
}

uint16_t tessera::interp::toF16Bits(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value))
    return sign | 0x7E00;
  double r = roundToF16(value);
  if (std::isinf(r))
    return sign | 0x7C00;
  double a = std::fabs(r);
  if (a == 0.0)
    return sign;
  if (a < 0x1p-14) // subnormal: an integer multiple of 2^-24
    return sign | static_cast<uint16_t>(a * 0x1p24);
  uint64_t bits = std::bit_cast<uint64_t>(a);
  int exp = static_cast<int>(bits >> 52) - 1023;
  uint16_t mant = static_cast<uint16_t>((bits >> 42) & 0x3FF);
  return sign | static_cast<uint16_t>((exp + 15) << 10) | mant;
}

double tessera::interp::fromF16Bits(uint16_t bits) {
  const bool neg = bits & 0x8000;
  const unsigned exp = (bits >> 10) & 0x1F;
  const unsigned mant = bits & 0x3FF;
  double r;
  if (exp == 0) {
    r = static_cast<double>(mant) * 0x1p-24;
  } else if (exp == 31) {
    r = mant ? std::numeric_limits<double>::quiet_NaN()
             : std::numeric_limits<double>::infinity();
  } else {
    uint64_t d = (static_cast<uint64_t>(exp - 15 + 1023) << 52) |
                 (static_cast<uint64_t>(mant) << 42);
    r = std::bit_cast<double>(d);
  }
  return neg ? -r : r;
}

uint32_t tessera::interp::toF32Bits(double value) {
  return std::bit_cast<uint32_t>(static_cast<float>(value));
}

double tessera::interp::fromF32Bits(uint32_t bits) {
  return static_cast<double>(std::bit_cast<float>(bits));
}
