//===- Numerics.h - element types and device-faithful rounding --*- C++ -*-===//

#ifndef TESSERA_INTERPRETER_NUMERICS_H
#define TESSERA_INTERPRETER_NUMERICS_H

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
class Type;
} // namespace mlir

namespace tessera::interp {

enum class DType { f16, bf16, tf32, f32, f64, i1, i8, i16, i32, i64 };

const char *dtypeName(DType dtype);
/// Bytes of storage per element (tf32 is stored as 4 bytes).
int dtypeSize(DType dtype);
bool isFloat(DType dtype);
/// The DType of an MLIR element type, or nullopt if it has none.
std::optional<DType> dtypeOf(mlir::Type type);

/// Round-to-nearest-even to the given float format (overflow gives +-inf,
/// subnormals kept, NaN stays NaN). tf32 keeps 10 explicit mantissa bits.
double roundToBF16(double value);
double roundToF16(double value);
double roundToTF32(double value);
double roundToF32(double value);
/// Round `value` to `dtype`; integers truncate toward zero and wrap.
double roundTo(DType dtype, double value);

/// Bit-level conversions used by buffers.
uint16_t toBF16Bits(double value);
double fromBF16Bits(uint16_t bits);
uint16_t toF16Bits(double value);
double fromF16Bits(uint16_t bits);

/// Wrap an integer to `bits` bits, sign-extended.
int64_t wrapSigned(int64_t value, unsigned bits);

} // namespace tessera::interp

#endif // TESSERA_INTERPRETER_NUMERICS_H
