//===- LoweringUtils.h - helpers of the tile -> LLVM/NVVM lowering -*- C++
//-*-===//

#ifndef TESSERA_LOWERING_LOWERINGUTILS_H
#define TESSERA_LOWERING_LOWERINGUTILS_H

#include "dialect/LinearLayout.h"
#include "dialect/TileOps.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

namespace tessera::lowering {

using mlir::Location;
using mlir::OpBuilder;
using mlir::Type;
using mlir::Value;

/// Global memory and shared memory address spaces of NVPTX.
inline constexpr unsigned kGlobalSpace = 1, kSharedSpace = 3;

/// The symbol of the dynamic shared memory a kernel's scratch lives in.
inline constexpr const char *kSharedMemorySymbol = "tessera_smem";

/// The module attribute naming the target ("sm_90a" when absent).
inline constexpr const char *kTargetAttrName = "tile.target";
/// True unless the module containing `op` targets sm_80.
bool targetsSm90(mlir::Operation *op);

/// The kernel attribute listing the tensor maps of its TMA copies; each is
/// passed as a trailing u64 parameter (runtime/KernelInfo.h).
inline constexpr const char *kTmaAttrName = "tile.tma";

/// Converts level-2 tile types: a tile with a layout becomes an
/// !llvm.struct of the elements one thread holds; a view becomes
/// !llvm.struct<(ptr<1>, i64 x rank sizes, i64 x rank strides)>; index is i64.
class TileTypeConverter : public mlir::LLVMTypeConverter {
public:
  explicit TileTypeConverter(mlir::MLIRContext *context);
  /// The element type tiles of `type` hold in registers (tf32 -> f32).
  static Type registerElementType(Type elementType);
};

/// The linear layout of a level-2 tile type (fails on level 1).
tile::LinearLayout layoutOf(mlir::RankedTensorType type);

Value i32Const(OpBuilder &b, Location loc, int64_t value);
Value i64Const(OpBuilder &b, Location loc, int64_t value);
/// Two 16-bit values in one 32-bit register (the first in the low half).
Value packPair(OpBuilder &b, Location loc, Value lo, Value hi);
/// A scalar constant of an LLVM-compatible integer or float type.
Value scalarConst(OpBuilder &b, Location loc, Type type, double value);

/// Thread index in the CTA, lane and warp (i32).
Value threadId(OpBuilder &b, Location loc);
Value laneId(OpBuilder &b, Location loc);
Value warpId(OpBuilder &b, Location loc);

/// A copy of an i32 or i64 `value` that LLVM cannot see through: code derived
/// from it stays where it is written (a rarely taken branch) instead of being
/// hoisted out of loops, where its results would hold registers.
Value opaqueCopy(OpBuilder &b, Location loc, Value value);

/// XOR of the bases of the set bits of a run-time input value (i32) of
/// `in`, per dimension (i64).
llvm::SmallVector<Value> runtimeCoords(OpBuilder &b, Location loc,
                                       const tile::LinearLayout &layout,
                                       tile::LinearLayout::InDim in,
                                       Value input);

/// The part of this thread's coordinates its lane and warp set (i64, one
/// per dimension): register `reg`'s coordinates are these XOR the
/// register's own bases.
llvm::SmallVector<Value> threadCoords(OpBuilder &b, Location loc,
                                      const tile::LinearLayout &layout,
                                      Value lane, Value warp);

/// Coordinates (i64, one per dimension) of register `reg` of this thread.
llvm::SmallVector<Value> registerCoords(OpBuilder &b, Location loc,
                                        const tile::LinearLayout &layout,
                                        int64_t reg, Value lane, Value warp);

/// i1: true on the one thread (of copies) that owns its elements, i.e. the
/// lane and warp bits that map to no coordinate are zero.
Value isOwner(OpBuilder &b, Location loc, const tile::LinearLayout &layout,
              Value lane, Value warp);

/// Element `i` of a struct and a struct from elements.
Value extract(OpBuilder &b, Location loc, Value structValue, int64_t i);
Value packStruct(OpBuilder &b, Location loc, Type structType,
                 llvm::ArrayRef<Value> elements);
llvm::SmallVector<Value> unpackStruct(OpBuilder &b, Location loc,
                                      Value structValue);

/// The base of the dynamic shared memory (declared in the module on first
/// use).
Value sharedMemoryBase(OpBuilder &b, Location loc, mlir::Operation *anchor);
void barrier(OpBuilder &b, Location loc);

/// Predicated global memory access through inline PTX: loads `other` where
/// `pred` is false; stores nothing where it is false. With an L2 `policy`
/// (from createL2Policy) the access carries `.L2::cache_hint`. An `ordered`
/// load is asm with side effects, so that nothing merges or moves it across
/// the kernel's stores and barriers (kReadsWrittenViewAttr).
Value predicatedLoad(OpBuilder &b, Location loc, Type elementType, Value ptr,
                     Value pred, Value other, Value policy = Value(),
                     bool ordered = false);

/// Set by convert-tile-to-llvm on the tile.loads of a view their kernel
/// also stores to: their ld.global must stay where they are, after the
/// barrier tile-order-global-memory put before them (CSE would otherwise
/// merge a reload with the load before the store).
inline constexpr llvm::StringLiteral kReadsWrittenViewAttr =
    "tile.reads_written_view";
void predicatedStore(OpBuilder &b, Location loc, Value ptr, Value value,
                     Value pred, Value policy = Value());

/// `createpolicy.fractional.L2::<evict_first|evict_last>` (a 64-bit cache
/// policy), or null for the normal policy.
Value createL2Policy(OpBuilder &b, Location loc, tile::CachePolicy policy);

/// How a tile sits in the shared-memory scratch of an exchange: row-major,
/// and with `unitBytes` > 0 the units of each 128-byte row XOR-permuted by
/// two levels of row bits, so that lanes at power-of-two strides (a
/// transpose, an accumulator's rows) reach different banks.
struct SharedSwizzle {
  int64_t unitBytes = 0;
};

/// The byte offset where element `index` (of `bytes`-wide elements) sits
/// under `swizzle` (a permutation of each 128-byte row).
int64_t swizzledByteOffset(int64_t index, int64_t bytes, SharedSwizzle swizzle);

/// The source row-major index a result element (coordinates) reads.
using SourceIndexFn =
    llvm::function_ref<int64_t(const tile::LinearLayout::Coords &)>;

/// Shared-memory wavefronts warp 0 needs to write a tile in `source` layout
/// (`bytes` per element) and, when `result` and `sourceIndexOf` are given,
/// to read it back into `result` (runs of `readRun` consecutive elements
/// per access), under `swizzle`: the bank-conflict model.
int64_t exchangeWavefronts(const tile::LinearLayout &source, int64_t bytes,
                           const tile::LinearLayout *result,
                           SourceIndexFn sourceIndexOf, int64_t readRun,
                           SharedSwizzle swizzle);

/// The swizzle for an exchange: units as wide as both sides' vectors (4 to
/// 16 bytes), chosen only when the model counts fewer wavefronts than the
/// plain row-major scratch; none when the tile is not a whole number of
/// 128-byte rows.
SharedSwizzle exchangeSwizzle(const tile::LinearLayout &source,
                              Type elementType,
                              const tile::LinearLayout *result,
                              SourceIndexFn sourceIndexOf,
                              int64_t readContiguity);

/// A byte offset of an element, from its coordinates.
using OffsetFn =
    llvm::function_ref<int64_t(const tile::LinearLayout::Coords &)>;

/// True if, for every register, lane and warp of `layout`, the offset of
/// the element they hold is offsetOf(register's element on lane 0, warp 0)
/// XOR offsetOf(register 0's element on that lane and warp): then one
/// run-time value per thread and a constant per register address it all.
bool offsetSplitsByXor(const tile::LinearLayout &layout, OffsetFn offsetOf);

/// Consecutive row-major elements each thread holds in consecutive
/// registers (1, 2, 4, ...).
int64_t registerContiguity(const tile::LinearLayout &layout);

/// Elements of `bytes` one shared-memory access may take under `swizzle`:
/// a swizzle unit, or 16 bytes.
int64_t vectorElements(SharedSwizzle swizzle, int64_t bytes);

/// The longest run (at most `limit`) of consecutive registers that hold
/// consecutive row-major elements starting at a multiple of the run, on
/// every thread: such a run is one vector access.
int64_t alignedRegisterRun(const tile::LinearLayout &layout, int64_t limit);

/// The shared-memory addresses of the registers of a tile in `layout` (i1
/// kept as i8) whose register r holds element `indexOf(r)` (i64, run time)
/// at byte offset `offsetOf(coordinates)` under `swizzle`. Runs of `run`
/// registers (alignedRegisterRun) share their first address; when the
/// offsets split by XOR (offsetSplitsByXor; `offsetOf` may be null), each
/// run start is one per-thread offset XOR a constant. Ask `at` in
/// increasing register order, run starts included. Keeps references to
/// `offsetOf` and `indexOf`: they must outlive it.
class SharedRegisterAddresses {
public:
  SharedRegisterAddresses(OpBuilder &b, Location loc, Value base,
                          const tile::LinearLayout &layout, Type elementType,
                          SharedSwizzle swizzle, int64_t run, OffsetFn offsetOf,
                          llvm::function_ref<Value(int64_t)> indexOf);
  Value at(int64_t reg);

private:
  OpBuilder &b;
  Location loc;
  Value base;
  const tile::LinearLayout &layout;
  Type memType;
  SharedSwizzle swizzle;
  int64_t run;
  OffsetFn offsetOf;
  llvm::function_ref<Value(int64_t)> indexOf;
  Value threadOffset, runPtr;
};

/// Writes a tile (struct of registers in `layout`) to shared memory at
/// row-major linear indices, then a barrier (unless `fence` is false: more
/// stores follow before the exchange's barrier).
void storeTileToShared(OpBuilder &b, Location loc, Value base,
                       const tile::LinearLayout &layout, Type elementType,
                       Value tile, Value lane, Value warp,
                       SharedSwizzle swizzle = {}, bool fence = true);
/// Element `linearIndex` (i64) of a tile in shared memory.
Value loadShared(OpBuilder &b, Location loc, Value base, Type elementType,
                 Value linearIndex, SharedSwizzle swizzle = {});
/// The element of `elementType` (i1 kept as i8) at a shared-memory address.
Value loadSharedAt(OpBuilder &b, Location loc, Value ptr, Type elementType);
/// Row-major linear index (i64) of coordinates in `shape`.
Value linearize(OpBuilder &b, Location loc, llvm::ArrayRef<Value> coords,
                llvm::ArrayRef<int64_t> shape);

/// Bytes one element of `type` takes in memory.
int64_t elementBytes(Type type);

} // namespace tessera::lowering

#endif // TESSERA_LOWERING_LOWERINGUTILS_H
