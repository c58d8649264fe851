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
/// The DType of an MLIR element type, or nullopt if it has none. `index` maps
/// to i64 (it is 64-bit everywhere in Tessera).
std::optional<DType> dtypeOf(mlir::Type type);

/// Round-to-nearest-even to the given float format (overflow gives +-inf,
/// subnormals kept, NaN stays NaN). tf32 keeps 10 explicit mantissa bits.
double roundToBF16(double value);
double roundToF16(double value);
double roundToTF32(double value);
double roundToF32(double value);
/// Round `value` to `dtype`; integers truncate toward zero and wrap (i1
/// gives 0 or 1, the other widths are sign-extended; NaN gives 0).
double roundTo(DType dtype, double value);

/// Round to tf32 with ties away from zero, as the device's
/// `cvt.rna.tf32.f32` does when f32 mma inputs are fed to Tensor Cores.
double roundToTF32RNA(double value);

/// Width in bits of an integer dtype (i1 -> 1 ... i64 -> 64); 0 for floats.
unsigned intWidth(DType dtype);

/// Bit-level conversions used by buffers.
uint16_t toBF16Bits(double value);
double fromBF16Bits(uint16_t bits);
uint16_t toF16Bits(double value);
double fromF16Bits(uint16_t bits);
uint32_t toF32Bits(double value);
double fromF32Bits(uint32_t bits);

/// Wrap an integer to `bits` bits, sign-extended.
int64_t wrapSigned(int64_t value, unsigned bits);
/// Wrap an integer to `bits` bits, zero-extended.
uint64_t wrapUnsigned(int64_t value, unsigned bits);
/// A double truncated toward zero and wrapped to `bits` bits (sign-extended);
/// NaN gives 0, +-inf wrap like huge values (0).
int64_t doubleToWrappedInt(double value, unsigned bits);

} // namespace tessera::interp

#endif // TESSERA_INTERPRETER_NUMERICS_H
