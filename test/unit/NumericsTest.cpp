//===- NumericsTest.cpp - rounding, bit conversions, buffers --------------===//

#include "interpreter/Numerics.h"
#include "interpreter/Interpreter.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace tessera::interp;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool sameBits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

//===----------------------------------------------------------------------===//
// bf16
//===----------------------------------------------------------------------===//

TEST(Numerics, BF16TiesToEven) {
  // bf16 has 7 explicit mantissa bits: the ulp at 1 is 2^-7.
  EXPECT_EQ(roundToBF16(1.0), 1.0);
  EXPECT_EQ(roundToBF16(1.0 + 0x1p-9), 1.0);              // below half
  EXPECT_EQ(roundToBF16(1.0 + 0x1p-8), 1.0);              // tie -> even (1)
  EXPECT_EQ(roundToBF16(1.0 + 3 * 0x1p-8), 1.0 + 0x1p-6); // tie -> even
  EXPECT_EQ(roundToBF16(1.0 + 3 * 0x1p-9), 1.0 + 0x1p-7); // above half
  EXPECT_EQ(roundToBF16(-(1.0 + 0x1p-8)), -1.0);
  EXPECT_EQ(roundToBF16(-(1.0 + 3 * 0x1p-8)), -(1.0 + 0x1p-6));
  // A carry out of the mantissa bumps the exponent.
  EXPECT_EQ(roundToBF16(2.0 - 0x1p-9), 2.0);
}

TEST(Numerics, BF16NoDoubleRounding) {
  // Through f32 this would round twice (to 1 + 2^-8, then a tie to 1).
  EXPECT_EQ(roundToBF16(1.0 + 0x1p-8 + 0x1p-30), 1.0 + 0x1p-7);
  EXPECT_EQ(static_cast<double>(static_cast<float>(1.0 + 0x1p-8 + 0x1p-30)),
            1.0 + 0x1p-8);
}

TEST(Numerics, BF16OverflowAndSubnormals) {
  const double maxBF16 = 0x1.FEp127; // 0x7F7F
  EXPECT_EQ(roundToBF16(maxBF16), maxBF16);
  EXPECT_EQ(roundToBF16(maxBF16 + 0x1p118), maxBF16);
  EXPECT_EQ(roundToBF16(maxBF16 + 0x1p119), kInf); // tie to even: 2^128
  EXPECT_EQ(roundToBF16(-1e39), -kInf);
  EXPECT_EQ(roundToBF16(kInf), kInf);
  // Subnormals: the smallest is 2^-133.
  EXPECT_EQ(roundToBF16(0x1p-133), 0x1p-133);
  EXPECT_EQ(roundToBF16(0x1p-134), 0.0); // tie -> even (0)
  EXPECT_EQ(roundToBF16(1.5 * 0x1p-134), 0x1p-133);
  EXPECT_EQ(roundToBF16(3 * 0x1p-134), 0x1p-132);     // tie -> even
  EXPECT_EQ(roundToBF16(5 * 0x1p-134), 2 * 0x1p-133); // tie -> even (2)
  EXPECT_EQ(roundToBF16(0x1p-200), 0.0);
  EXPECT_TRUE(std::signbit(roundToBF16(-0x1p-200)));
  EXPECT_EQ(roundToBF16(0x1.FCp-127), 0x1.FCp-127); // largest subnormal
}

TEST(Numerics, BF16NaNAndZero) {
  EXPECT_TRUE(std::isnan(roundToBF16(kNaN)));
  EXPECT_TRUE(std::signbit(roundToBF16(-0.0)));
  EXPECT_EQ(toBF16Bits(kNaN) & 0x7F80, 0x7F80);
  EXPECT_NE(toBF16Bits(kNaN) & 0x007F, 0);
  EXPECT_TRUE(std::isnan(fromBF16Bits(0x7FC0)));
  EXPECT_EQ(toBF16Bits(1.0), 0x3F80);
  EXPECT_EQ(toBF16Bits(-2.0), 0xC000);
  EXPECT_EQ(toBF16Bits(kInf), 0x7F80);
  EXPECT_EQ(toBF16Bits(0x1p-133), 0x0001);
  EXPECT_EQ(toBF16Bits(1.0 + 0x1p-8 + 0x1p-30), 0x3F81);
}

TEST(Numerics, BF16BitsRoundTrip) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    double v = fromBF16Bits(static_cast<uint16_t>(b));
    if (std::isnan(v))
      continue;
    EXPECT_EQ(toBF16Bits(v), b) << "bits " << b;
    EXPECT_EQ(roundToBF16(v), v);
  }
}

//===----------------------------------------------------------------------===//
// f16
//===----------------------------------------------------------------------===//

TEST(Numerics, F16TiesToEven) {
  EXPECT_EQ(roundToF16(1.0 + 0x1p-11), 1.0);              // tie -> even
  EXPECT_EQ(roundToF16(1.0 + 3 * 0x1p-11), 1.0 + 0x1p-9); // tie -> even
  EXPECT_EQ(roundToF16(1.0 + 0x1p-11 + 0x1p-40), 1.0 + 0x1p-10);
  EXPECT_EQ(roundToF16(0.1), 0.0999755859375);
  EXPECT_EQ(roundToF16(-0.1), -0.0999755859375);
}

TEST(Numerics, F16OverflowAndSubnormals) {
  EXPECT_EQ(roundToF16(65504.0), 65504.0);
  EXPECT_EQ(roundToF16(65519.0), 65504.0);
  EXPECT_EQ(roundToF16(65520.0), kInf); // tie to even -> 65536 -> inf
  EXPECT_EQ(roundToF16(-70000.0), -kInf);
  EXPECT_EQ(roundToF16(0x1p-14), 0x1p-14); // smallest normal
  EXPECT_EQ(roundToF16(0x1p-24), 0x1p-24); // smallest subnormal
  EXPECT_EQ(roundToF16(0x1p-25), 0.0);     // tie -> 0
  EXPECT_EQ(roundToF16(0x1.8p-25), 0x1p-24);
  EXPECT_EQ(roundToF16(3 * 0x1p-25), 0x1p-23); // tie -> even
  EXPECT_EQ(roundToF16(1000.3 * 0x1p-24), 1000 * 0x1p-24);
  EXPECT_EQ(roundToF16(0x1p-14 - 0x1p-26), 0x1p-14); // rounds up to normal
  EXPECT_TRUE(std::isnan(roundToF16(kNaN)));
}

TEST(Numerics, F16Bits) {
  EXPECT_EQ(toF16Bits(1.0), 0x3C00);
  EXPECT_EQ(toF16Bits(-2.0), 0xC000);
  EXPECT_EQ(toF16Bits(65504.0), 0x7BFF);
  EXPECT_EQ(toF16Bits(65520.0), 0x7C00);
  EXPECT_EQ(toF16Bits(-kInf), 0xFC00);
  EXPECT_EQ(toF16Bits(0x1p-24), 0x0001);
  EXPECT_EQ(toF16Bits(0x1p-14), 0x0400);
  EXPECT_EQ(toF16Bits(-0.0), 0x8000);
  EXPECT_EQ(toF16Bits(kNaN) & 0x7C00, 0x7C00);
  EXPECT_NE(toF16Bits(kNaN) & 0x03FF, 0);
  EXPECT_EQ(fromF16Bits(0x3555), 0x1.554p-2);
  EXPECT_TRUE(std::isnan(fromF16Bits(0x7E00)));
  EXPECT_EQ(fromF16Bits(0xFC00), -kInf);
  for (uint32_t b = 0; b < 0x10000; ++b) {
    double v = fromF16Bits(static_cast<uint16_t>(b));
    if (std::isnan(v))
      continue;
    EXPECT_EQ(toF16Bits(v), b) << "bits " << b;
    EXPECT_EQ(roundToF16(v), v);
  }
}

//===----------------------------------------------------------------------===//
// tf32 and f32
//===----------------------------------------------------------------------===//

TEST(Numerics, TF32) {
  // 10 explicit mantissa bits, the f32 exponent range.
  EXPECT_EQ(roundToTF32(1.0 + 0x1p-11), 1.0);              // tie -> even
  EXPECT_EQ(roundToTF32(1.0 + 3 * 0x1p-11), 1.0 + 0x1p-9); // tie -> even
  EXPECT_EQ(roundToTF32(1.0 + 0x1p-12), 1.0);
  EXPECT_EQ(roundToTF32(1.0 + 0x1p-10), 1.0 + 0x1p-10);
  EXPECT_EQ(roundToTF32(0x1p100), 0x1p100); // far beyond the f16 range
  EXPECT_EQ(roundToTF32(0x1.FFFp127), kInf);
  EXPECT_EQ(roundToTF32(0x1.FFCp127), 0x1.FFCp127);
  EXPECT_EQ(roundToTF32(0x1p-136), 0x1p-136); // smallest subnormal
  EXPECT_EQ(roundToTF32(0x1p-137), 0.0);
  EXPECT_TRUE(std::isnan(roundToTF32(kNaN)));
}

TEST(Numerics, TF32TiesAway) {
  EXPECT_EQ(roundToTF32RNA(1.0 + 0x1p-11), 1.0 + 0x1p-10);
  EXPECT_EQ(roundToTF32RNA(-(1.0 + 0x1p-11)), -(1.0 + 0x1p-10));
  EXPECT_EQ(roundToTF32RNA(1.0 + 3 * 0x1p-11), 1.0 + 0x1p-9);
  EXPECT_EQ(roundToTF32RNA(1.0 + 0x1p-11 - 0x1p-23), 1.0);
  EXPECT_EQ(roundToTF32RNA(0x1.FFFp127), kInf);
  EXPECT_TRUE(std::isnan(roundToTF32RNA(kNaN)));
  EXPECT_EQ(roundToTF32RNA(0x1p-137), 0x1p-136); // subnormal tie, away
}

TEST(Numerics, F32) {
  EXPECT_EQ(roundToF32(1.0 + 0x1p-24), 1.0);
  EXPECT_EQ(roundToF32(1.0 + 3 * 0x1p-24), 1.0 + 0x1p-22);
  EXPECT_EQ(roundToF32(1.0 + 0x1p-24 + 0x1p-50), 1.0 + 0x1p-23);
  EXPECT_EQ(roundToF32(0x1p-149), 0x1p-149);
  EXPECT_EQ(roundToF32(0x1p-150), 0.0);
  EXPECT_EQ(roundToF32(1e39), kInf);
  EXPECT_EQ(toF32Bits(1.0), 0x3F800000u);
  EXPECT_EQ(fromF32Bits(0xBF800000u), -1.0);
}

TEST(Numerics, RoundToDispatch) {
  EXPECT_EQ(roundTo(DType::bf16, 1.0 + 0x1p-8), 1.0);
  EXPECT_EQ(roundTo(DType::f16, 65520.0), kInf);
  EXPECT_EQ(roundTo(DType::tf32, 1.0 + 0x1p-11), 1.0);
  EXPECT_EQ(roundTo(DType::f32, 1.0 + 0x1p-24), 1.0);
  EXPECT_TRUE(sameBits(roundTo(DType::f64, 0.1), 0.1));
  EXPECT_EQ(roundTo(DType::i8, 200.0), -56.0);
  EXPECT_EQ(roundTo(DType::i8, -3.7), -3.0);
  EXPECT_EQ(roundTo(DType::i16, 65537.9), 1.0);
  EXPECT_EQ(roundTo(DType::i32, 2147483648.0), -2147483648.0);
  EXPECT_EQ(roundTo(DType::i32, kNaN), 0.0);
  EXPECT_EQ(roundTo(DType::i1, 3.0), 1.0);
  EXPECT_EQ(roundTo(DType::i1, 2.0), 0.0);
  EXPECT_EQ(roundTo(DType::i64, 0x1p64 + 0x1p12), 4096.0);
}

TEST(Numerics, IntegerWrap) {
  EXPECT_EQ(wrapSigned(255, 8), -1);
  EXPECT_EQ(wrapSigned(128, 8), -128);
  EXPECT_EQ(wrapSigned(127, 8), 127);
  EXPECT_EQ(wrapSigned(1, 1), -1);
  EXPECT_EQ(wrapSigned(0x1'0000'0005, 32), 5);
  EXPECT_EQ(wrapSigned(-1, 64), -1);
  EXPECT_EQ(wrapUnsigned(-1, 8), 255u);
  EXPECT_EQ(wrapUnsigned(-1, 64), ~uint64_t(0));
  EXPECT_EQ(doubleToWrappedInt(-1.5, 32), -1);
  EXPECT_EQ(doubleToWrappedInt(4294967295.0, 32), -1);
  EXPECT_EQ(doubleToWrappedInt(kInf, 32), 0);
  EXPECT_EQ(doubleToWrappedInt(-0x1p63, 64),
            std::numeric_limits<int64_t>::min());
}

TEST(Numerics, DTypeHelpers) {
  EXPECT_EQ(dtypeSize(DType::bf16), 2);
  EXPECT_EQ(dtypeSize(DType::f16), 2);
  EXPECT_EQ(dtypeSize(DType::tf32), 4);
  EXPECT_EQ(dtypeSize(DType::f64), 8);
  EXPECT_EQ(dtypeSize(DType::i1), 1);
  EXPECT_EQ(dtypeSize(DType::i32), 4);
  EXPECT_TRUE(isFloat(DType::tf32));
  EXPECT_FALSE(isFloat(DType::i1));
  EXPECT_STREQ(dtypeName(DType::bf16), "bf16");
  EXPECT_STREQ(dtypeName(DType::i64), "i64");
  EXPECT_EQ(intWidth(DType::i16), 16u);
  EXPECT_EQ(intWidth(DType::f32), 0u);
}

TEST(Numerics, DTypeOfMlirTypes) {
  mlir::MLIRContext ctx;
  mlir::Builder b(&ctx);
  EXPECT_EQ(dtypeOf(b.getF16Type()), DType::f16);
  EXPECT_EQ(dtypeOf(b.getBF16Type()), DType::bf16);
  EXPECT_EQ(dtypeOf(b.getTF32Type()), DType::tf32);
  EXPECT_EQ(dtypeOf(b.getF32Type()), DType::f32);
  EXPECT_EQ(dtypeOf(b.getF64Type()), DType::f64);
  EXPECT_EQ(dtypeOf(b.getI1Type()), DType::i1);
  EXPECT_EQ(dtypeOf(b.getI8Type()), DType::i8);
  EXPECT_EQ(dtypeOf(b.getI16Type()), DType::i16);
  EXPECT_EQ(dtypeOf(b.getI32Type()), DType::i32);
  EXPECT_EQ(dtypeOf(b.getI64Type()), DType::i64);
  EXPECT_EQ(dtypeOf(b.getIndexType()), DType::i64);
  EXPECT_EQ(dtypeOf(b.getIntegerType(4)), std::nullopt);
  EXPECT_EQ(dtypeOf(b.getIntegerType(32, /*isSigned=*/true)), std::nullopt);
  EXPECT_EQ(dtypeOf(b.getType<mlir::Float8E4M3FNType>()), std::nullopt);
  EXPECT_EQ(dtypeOf(mlir::Type()), std::nullopt);
}

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

TEST(Buffer, ShapeAndStrides) {
  Buffer b(DType::f32, {3, 4, 5});
  EXPECT_EQ(b.numElements(), 60);
  EXPECT_EQ(b.strides(), (std::vector<int64_t>{20, 5, 1}));
  EXPECT_EQ(b.get(59), 0.0); // zero-initialised
  Buffer empty(DType::f32, {3, 0});
  EXPECT_EQ(empty.numElements(), 0);
  Buffer negative(DType::f32, {-3});
  EXPECT_EQ(negative.numElements(), 0);
}

TEST(Buffer, GetSetRounds) {
  Buffer bf(DType::bf16, {4});
  bf.set(0, 1.0 + 0x1p-8 + 0x1p-30);
  EXPECT_EQ(bf.get(0), 1.0 + 0x1p-7);
  bf.set(1, 1e39);
  EXPECT_EQ(bf.get(1), kInf);
  bf.set(2, kNaN);
  EXPECT_TRUE(std::isnan(bf.get(2)));
  Buffer h(DType::f16, {2});
  h.set(0, 65520.0);
  EXPECT_EQ(h.get(0), kInf);
  h.set(1, 0x1.8p-25);
  EXPECT_EQ(h.get(1), 0x1p-24);
  Buffer t(DType::tf32, {1});
  t.set(0, 1.0 + 0x1p-11);
  EXPECT_EQ(t.get(0), 1.0);
  Buffer f(DType::f32, {1});
  f.set(0, 0.1);
  EXPECT_EQ(f.get(0), static_cast<double>(0.1f));
  Buffer d(DType::f64, {1});
  d.set(0, 0.1);
  EXPECT_TRUE(sameBits(d.get(0), 0.1));
}

TEST(Buffer, Integers) {
  Buffer i8(DType::i8, {3});
  i8.set(0, 200.0);
  EXPECT_EQ(i8.get(0), -56.0);
  i8.set(1, -7.9);
  EXPECT_EQ(i8.get(1), -7.0);
  i8.setInt(2, 383);
  EXPECT_EQ(i8.getInt(2), 127);
  Buffer i64(DType::i64, {1});
  const int64_t big = (int64_t(1) << 60) + 1; // not exact in a double
  i64.setInt(0, big);
  EXPECT_EQ(i64.getInt(0), big);
  Buffer i1(DType::i1, {2});
  i1.set(0, 1.0);
  i1.setInt(1, -1);
  EXPECT_EQ(i1.get(0), 1.0);
  EXPECT_EQ(i1.getInt(1), 1);
  Buffer i32(DType::i32, {1});
  i32.setInt(0, 0x1'8000'0000);
  EXPECT_EQ(i32.getInt(0), std::numeric_limits<int32_t>::min());
}

TEST(Buffer, OutOfRangeAccessIsHarmless) {
  Buffer b(DType::f32, {2});
  EXPECT_TRUE(std::isnan(b.get(2)));
  EXPECT_TRUE(std::isnan(b.get(-1)));
  b.set(5, 1.0);
  b.setInt(-1, 1);
  EXPECT_EQ(b.get(0), 0.0);
  EXPECT_EQ(b.get(1), 0.0);
  EXPECT_FALSE(b.isPoison(7));
}

TEST(Buffer, Poison) {
  for (DType dt : {DType::f16, DType::bf16, DType::tf32, DType::f32, DType::f64,
                   DType::i1, DType::i8, DType::i16, DType::i32, DType::i64}) {
    Buffer b(dt, {4});
    EXPECT_FALSE(b.isPoison(0)) << dtypeName(dt);
    b.poison();
    for (int64_t i = 0; i < 4; ++i)
      EXPECT_TRUE(b.isPoison(i)) << dtypeName(dt);
    if (isFloat(dt)) {
      EXPECT_TRUE(std::isnan(b.get(0))) << dtypeName(dt);
    }
    b.set(1, 0.0);
    EXPECT_FALSE(b.isPoison(1)) << dtypeName(dt);
    // A NaN computed by a kernel is not the poison pattern.
    if (isFloat(dt)) {
      b.set(2, kNaN);
      EXPECT_FALSE(b.isPoison(2)) << dtypeName(dt);
    }
    EXPECT_TRUE(b.isPoison(3)) << dtypeName(dt);
  }
  Buffer i32(DType::i32, {1});
  i32.poison();
  EXPECT_EQ(i32.getInt(0), 0x5A5A5A5A);
}

} // namespace
