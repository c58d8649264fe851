//===- LoweringUtils.cpp - helpers of the tile -> LLVM/NVVM lowering
//-------===//

#include "lowering/LoweringUtils.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;

namespace tessera::lowering {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static LowerToLLVMOptions indexAs64Bits(MLIRContext *context) {
  LowerToLLVMOptions options(context);
  options.overrideIndexBitwidth(64);
  return options;
}

TileTypeConverter::TileTypeConverter(MLIRContext *context)
    : LLVMTypeConverter(context, indexAs64Bits(context)) {
  addConversion([](FloatTF32Type type) -> Type {
    return Float32Type::get(type.getContext());
  });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    if (!tile::getLayout(type))
      return std::nullopt; // level-1 tiles have no register form
    tile::LinearLayout layout = layoutOf(type);
    Type element = registerElementType(type.getElementType());
    SmallVector<Type> fields(layout.numRegisters(), element);
    return LLVM::LLVMStructType::getLiteral(type.getContext(), fields);
  });
  addConversion([](tile::SharedMemType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), kSharedSpace);
  });
  addConversion([](tile::ViewType type) -> Type {
    MLIRContext *ctx = type.getContext();
    SmallVector<Type> fields = {LLVM::LLVMPointerType::get(ctx, kGlobalSpace)};
    fields.append(2 * type.getRank(), IntegerType::get(ctx, 64));
    return LLVM::LLVMStructType::getLiteral(ctx, fields);
  });
}

Type TileTypeConverter::registerElementType(Type elementType) {
  if (isa<FloatTF32Type>(elementType))
    return Float32Type::get(elementType.getContext());
  return elementType;
}

tile::LinearLayout layoutOf(RankedTensorType type) {
  return tile::LinearLayout::get(tile::getLayout(type), type.getShape());
}

int64_t elementBytes(Type type) {
  if (type.isInteger(1))
    return 1;
  return (type.getIntOrFloatBitWidth() + 7) / 8;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Value i32Const(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(int32_t(value)));
}

Value i64Const(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                  b.getI64IntegerAttr(value));
}

Value scalarConst(OpBuilder &b, Location loc, Type type, double value) {
  if (auto ft = dyn_cast<FloatType>(type))
    return LLVM::ConstantOp::create(b, loc, type, b.getFloatAttr(ft, value));
  return LLVM::ConstantOp::create(b, loc, type,
                                  b.getIntegerAttr(type, int64_t(value)));
}

Value threadId(OpBuilder &b, Location loc) {
  return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
}

Value laneId(OpBuilder &b, Location loc) {
  return LLVM::AndOp::create(b, loc, threadId(b, loc), i32Const(b, loc, 31));
}

Value warpId(OpBuilder &b, Location loc) {
  return LLVM::LShrOp::create(b, loc, threadId(b, loc), i32Const(b, loc, 5));
}

Value opaqueCopy(OpBuilder &b, Location loc, Value value) {
  bool wide = value.getType().isInteger(64);
  return LLVM::InlineAsmOp::create(
             b, loc, value.getType(), ValueRange{value},
             wide ? "mov.b64 $0, $1;" : "mov.b32 $0, $1;",
             wide ? "=l,l" : "=r,r", /*has_side_effects=*/true,
             /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

SmallVector<Value> runtimeCoords(OpBuilder &b, Location loc,
                                 const tile::LinearLayout &layout,
                                 tile::LinearLayout::InDim in, Value input) {
  SmallVector<Value> coords;
  for (int64_t d = 0; d < layout.rank(); ++d) {
    Value acc = i64Const(b, loc, 0);
    for (int bit = 0; bit < layout.numBits(in); ++bit) {
      int64_t basis = layout.bases(in)[bit][d];
      if (basis == 0)
        continue;
      Value set = LLVM::AndOp::create(b, loc, input,
                                      i32Const(b, loc, int64_t(1) << bit));
      Value isSet = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, set,
                                         i32Const(b, loc, 0));
      Value term = LLVM::SelectOp::create(
          b, loc, isSet, i64Const(b, loc, basis), i64Const(b, loc, 0));
      acc = LLVM::XOrOp::create(b, loc, acc, term);
    }
    coords.push_back(acc);
  }
  return coords;
}

SmallVector<Value> threadCoords(OpBuilder &b, Location loc,
                                const tile::LinearLayout &layout, Value lane,
                                Value warp) {
  SmallVector<Value> lanePart =
      runtimeCoords(b, loc, layout, tile::LinearLayout::Lane, lane);
  SmallVector<Value> warpPart =
      runtimeCoords(b, loc, layout, tile::LinearLayout::Warp, warp);
  SmallVector<Value> coords;
  for (int64_t d = 0; d < layout.rank(); ++d)
    coords.push_back(LLVM::XOrOp::create(b, loc, lanePart[d], warpPart[d]));
  return coords;
}

SmallVector<Value> registerCoords(OpBuilder &b, Location loc,
                                  const tile::LinearLayout &layout, int64_t reg,
                                  Value lane, Value warp) {
  tile::LinearLayout::Coords regPart =
      layout.apply(tile::LinearLayout::Register, reg);
  SmallVector<Value> coords = threadCoords(b, loc, layout, lane, warp);
  for (int64_t d = 0; d < layout.rank(); ++d)
    coords[d] =
        LLVM::XOrOp::create(b, loc, coords[d], i64Const(b, loc, regPart[d]));
  return coords;
}

Value isOwner(OpBuilder &b, Location loc, const tile::LinearLayout &layout,
              Value lane, Value warp) {
  auto mask = [&](tile::LinearLayout::InDim in) {
    int64_t m = 0;
    for (int bit = 0; bit < layout.numBits(in); ++bit)
      if (layout.isBroadcastBit(in, bit))
        m |= int64_t(1) << bit;
    return m;
  };
  Value copyBits = LLVM::OrOp::create(
      b, loc,
      LLVM::AndOp::create(b, loc, lane,
                          i32Const(b, loc, mask(tile::LinearLayout::Lane))),
      LLVM::AndOp::create(b, loc, warp,
                          i32Const(b, loc, mask(tile::LinearLayout::Warp))));
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, copyBits,
                              i32Const(b, loc, 0));
}

Value extract(OpBuilder &b, Location loc, Value structValue, int64_t i) {
  return LLVM::ExtractValueOp::create(b, loc, structValue, i);
}

Value packStruct(OpBuilder &b, Location loc, Type structType,
                 ArrayRef<Value> elements) {
  Value result = LLVM::UndefOp::create(b, loc, structType);
  for (auto [i, e] : llvm::enumerate(elements))
    result = LLVM::InsertValueOp::create(b, loc, result, e, int64_t(i));
  return result;
}

SmallVector<Value> unpackStruct(OpBuilder &b, Location loc, Value structValue) {
  auto type = cast<LLVM::LLVMStructType>(structValue.getType());
  SmallVector<Value> out;
  for (size_t i = 0; i < type.getBody().size(); ++i)
    out.push_back(extract(b, loc, structValue, i));
  return out;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

Value sharedMemoryBase(OpBuilder &b, Location loc, Operation *anchor) {
  auto module = anchor->getParentOfType<ModuleOp>();
  MLIRContext *ctx = b.getContext();
  if (!module.lookupSymbol(kSharedMemorySymbol)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 0);
    LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/false,
                           LLVM::Linkage::External, kSharedMemorySymbol,
                           Attribute(), /*alignment=*/1024, kSharedSpace);
  }
  return LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, kSharedSpace),
      kSharedMemorySymbol);
}

bool targetsSm90(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto target = module->getAttrOfType<StringAttr>(kTargetAttrName);
  return !target || target.getValue() != "sm_80";
}

void barrier(OpBuilder &b, Location loc) { NVVM::Barrier0Op::create(b, loc); }

/// The integer type and PTX register class of a memory element.
static std::pair<Type, StringRef> bitsOf(OpBuilder &b, Type elementType) {
  switch (elementBytes(elementType)) {
  case 1:
  case 2:
    return {b.getI16Type(), "h"};
  case 4:
    return {b.getI32Type(), "r"};
  default:
    return {b.getI64Type(), "l"};
  }
}

static Value toBits(OpBuilder &b, Location loc, Value v, Type bitsType) {
  Type t = v.getType();
  if (isa<FloatType>(t))
    return LLVM::BitcastOp::create(b, loc, bitsType, v);
  if (t.getIntOrFloatBitWidth() < bitsType.getIntOrFloatBitWidth())
    return LLVM::ZExtOp::create(b, loc, bitsType, v);
  return v;
}

static Value fromBits(OpBuilder &b, Location loc, Value bits, Type type) {
  if (isa<FloatType>(type))
    return LLVM::BitcastOp::create(b, loc, type, bits);
  if (type.isInteger(1))
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, bits,
                                scalarConst(b, loc, bits.getType(), 0));
  if (type.getIntOrFloatBitWidth() < bits.getType().getIntOrFloatBitWidth())
    return LLVM::TruncOp::create(b, loc, type, bits);
  return bits;
}

Value createL2Policy(OpBuilder &b, Location loc, tile::CachePolicy policy) {
  if (policy == tile::CachePolicy::normal)
    return {};
  std::string text = std::string("createpolicy.fractional.L2::") +
                     (policy == tile::CachePolicy::evict_first ? "evict_first"
                                                               : "evict_last") +
                     ".b64 $0, 1.0;";
  return LLVM::InlineAsmOp::create(b, loc, b.getI64Type(), ValueRange{}, text,
                                   "=l", false, false,
                                   LLVM::tailcallkind::TailCallKind::None,
                                   LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

Value predicatedLoad(OpBuilder &b, Location loc, Type elementType, Value ptr,
                     Value pred, Value other, Value policy, bool ordered) {
  auto [bitsType, cls] = bitsOf(b, elementType);
  int64_t bytes = elementBytes(elementType);
  std::string width = bytes == 1 ? "u8" : "b" + std::to_string(8 * bytes);
  std::string movWidth = bytes == 1 ? "b16" : "b" + std::to_string(8 * bytes);
  std::string hint = policy ? ".L2::cache_hint" : "";
  std::string asmText = "mov." + movWidth + " $0, $2;\n\t@$3 ld.global" + hint +
                        "." + width + " $0, [$1]" + (policy ? ", $4;" : ";");
  std::string constraints =
      "=" + cls.str() + ",l," + cls.str() + ",b" + (policy ? ",l" : "");
  Value otherBits = toBits(b, loc, other, bitsType);
  SmallVector<Value> operands = {ptr, otherBits, pred};
  if (policy)
    operands.push_back(policy);
  auto op = LLVM::InlineAsmOp::create(
      b, loc, bitsType, operands, asmText, constraints,
      /*has_side_effects=*/ordered, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
  return fromBits(b, loc, op.getResult(0), elementType);
}

void predicatedStore(OpBuilder &b, Location loc, Value ptr, Value value,
                     Value pred, Value policy) {
  Type elementType = value.getType();
  auto [bitsType, cls] = bitsOf(b, elementType);
  int64_t bytes = elementBytes(elementType);
  std::string width = bytes == 1 ? "u8" : "b" + std::to_string(8 * bytes);
  std::string hint = policy ? ".L2::cache_hint" : "";
  std::string asmText = "@$2 st.global" + hint + "." + width + " [$0], $1" +
                        (policy ? ", $3;" : ";");
  std::string constraints = "l," + cls.str() + ",b" + (policy ? ",l" : "");
  Value bits = toBits(b, loc, value, bitsType);
  SmallVector<Value> operands = {ptr, bits, pred};
  if (policy)
    operands.push_back(policy);
  LLVM::InlineAsmOp::create(b, loc, TypeRange{}, operands, asmText, constraints,
                            /*has_side_effects=*/true,
                            /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

/// Shared memory holds i1 as i8.
static Type sharedType(OpBuilder &b, Type elementType) {
  return elementType.isInteger(1) ? b.getI8Type() : elementType;
}

Value linearize(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                ArrayRef<int64_t> shape) {
  Value index = i64Const(b, loc, 0);
  for (size_t d = 0; d < coords.size(); ++d) {
    index = LLVM::MulOp::create(b, loc, index, i64Const(b, loc, shape[d]));
    index = LLVM::AddOp::create(b, loc, index, coords[d]);
  }
  return index;
}

int64_t registerContiguity(const tile::LinearLayout &layout) {
  int64_t run = 1;
  for (const auto &basis : layout.bases(tile::LinearLayout::Register)) {
    if (layout.linearIndex(basis) != run)
      break;
    run *= 2;
  }
  return run;
}

int64_t vectorElements(SharedSwizzle swizzle, int64_t bytes) {
  return std::max<int64_t>((swizzle.unitBytes ? swizzle.unitBytes : 16) / bytes,
                           1);
}

int64_t alignedRegisterRun(const tile::LinearLayout &layout, int64_t limit) {
  int64_t run = std::min(registerContiguity(layout), limit);
  if (layout.rank() == 0 || layout.shape().back() % run != 0)
    return 1;
  int runBits = llvm::Log2_64(run);
  for (int in = 0; in < 3; ++in) {
    auto dim = tile::LinearLayout::InDim(in);
    for (int bit = 0; bit < layout.numBits(dim); ++bit) {
      if (dim == tile::LinearLayout::Register && bit < runBits)
        continue;
      if (layout.bases(dim)[bit].back() % run != 0)
        return 1;
    }
  }
  return run;
}

int64_t swizzledByteOffset(int64_t index, int64_t bytes,
                           SharedSwizzle swizzle) {
  int64_t offset = index * bytes;
  if (swizzle.unitBytes == 0)
    return offset;
  int64_t unitLog = llvm::Log2_64(swizzle.unitBytes);
  int64_t n = 128 / swizzle.unitBytes, s = llvm::Log2_64(n);
  int64_t unit = offset >> unitLog;
  return offset ^ ((((unit >> s) ^ (unit >> (2 * s))) & (n - 1)) << unitLog);
}

/// Shared-memory wavefronts of one warp access: lane i touches `bytes` at
/// `offsets[i]`. 8- and 16-byte accesses run in 2 and 4 phases of lanes;
/// within a phase, a bank serves one distinct 4-byte word per wavefront.
static int64_t wavefronts(llvm::ArrayRef<int64_t> offsets, int64_t bytes) {
  int64_t phases = bytes <= 4 ? 1 : bytes / 4;
  int64_t lanesPerPhase = offsets.size() / phases, total = 0;
  for (int64_t p = 0; p < phases; ++p) {
    std::array<llvm::SmallVector<int64_t, 4>, 32> words;
    for (int64_t l = p * lanesPerPhase; l < (p + 1) * lanesPerPhase; ++l)
      for (int64_t w = offsets[l] / 4; w <= (offsets[l] + bytes - 1) / 4; ++w)
        if (!llvm::is_contained(words[w % 32], w))
          words[w % 32].push_back(w);
    size_t worst = 1;
    for (const auto &bank : words)
      worst = std::max(worst, bank.size());
    total += worst;
  }
  return total;
}

int64_t exchangeWavefronts(const tile::LinearLayout &source, int64_t bytes,
                           const tile::LinearLayout *result,
                           SourceIndexFn sourceIndexOf, int64_t readRun,
                           SharedSwizzle swizzle) {
  int64_t total = 0;
  llvm::SmallVector<int64_t, 32> offsets(32);
  // Writes: one access per aligned register run (warp 0; the others alike).
  int64_t run = alignedRegisterRun(source, vectorElements(swizzle, bytes));
  for (int64_t r = 0; r < source.numRegisters(); r += run) {
    if (source.isDuplicateRegister(r))
      continue;
    for (int64_t l = 0; l < 32; ++l)
      offsets[l] = swizzledByteOffset(source.linearIndex(source.apply(r, l, 0)),
                                      bytes, swizzle);
    total += wavefronts(offsets, run * bytes);
  }
  if (!result || !sourceIndexOf)
    return total;
  run = readRun > 1
            ? alignedRegisterRun(
                  *result, std::min(readRun, vectorElements(swizzle, bytes)))
            : 1;
  for (int64_t r = 0; r < result->numRegisters(); r += run) {
    for (int64_t l = 0; l < 32; ++l)
      offsets[l] = swizzledByteOffset(sourceIndexOf(result->apply(r, l, 0)),
                                      bytes, swizzle);
    total += wavefronts(offsets, run * bytes);
  }
  return total;
}

SharedSwizzle exchangeSwizzle(const tile::LinearLayout &source,
                              Type elementType,
                              const tile::LinearLayout *result,
                              SourceIndexFn sourceIndexOf,
                              int64_t readContiguity) {
  int64_t bytes = elementBytes(elementType);
  int64_t total = bytes;
  for (int64_t d : source.shape())
    total *= d;
  if (total % 128 != 0 || bytes > 16)
    return {};
  int64_t vector = std::min(registerContiguity(source),
                            std::max<int64_t>(readContiguity, 1));
  SharedSwizzle swizzled{
      std::clamp<int64_t>(vector * bytes, std::max<int64_t>(bytes, 4), 16)};
  // Swizzling costs address arithmetic (and registers): only where the
  // bank-conflict model says it saves wavefronts.
  int64_t plain = exchangeWavefronts(source, bytes, result, sourceIndexOf,
                                     readContiguity, {});
  int64_t with = exchangeWavefronts(source, bytes, result, sourceIndexOf,
                                    readContiguity, swizzled);
  return with < plain ? swizzled : SharedSwizzle{};
}

/// The swizzled byte offset (i32) of element `index` (i64), at run time.
static Value swizzledOffsetValue(OpBuilder &b, Location loc, Value index,
                                 int64_t bytes, SharedSwizzle swizzle) {
  // Byte offset o = (unit u, byte within it); u' = u ^ ((u >> s ^ u >> 2s) &
  // (n - 1)) with n = 128 / unitBytes units per row: stays in its row.
  int64_t unitLog = llvm::Log2_64(swizzle.unitBytes);
  int64_t n = 128 / swizzle.unitBytes, s = llvm::Log2_64(n);
  Type i32 = b.getI32Type();
  auto c = [&](int64_t v) { return i32Const(b, loc, v); };
  Value offset = LLVM::MulOp::create(
      b, loc, LLVM::TruncOp::create(b, loc, i32, index), c(bytes));
  Value unit = LLVM::LShrOp::create(b, loc, offset, c(unitLog));
  Value rowBits =
      LLVM::XOrOp::create(b, loc, LLVM::LShrOp::create(b, loc, unit, c(s)),
                          LLVM::LShrOp::create(b, loc, unit, c(2 * s)));
  Value mask = LLVM::ShlOp::create(
      b, loc, LLVM::AndOp::create(b, loc, rowBits, c(n - 1)), c(unitLog));
  return LLVM::XOrOp::create(b, loc, offset, mask);
}

/// The address of element `index` (i64) under `swizzle`.
static Value sharedAddress(OpBuilder &b, Location loc, Value base, Type memType,
                           Value index, SharedSwizzle swizzle) {
  if (swizzle.unitBytes == 0)
    return LLVM::GEPOp::create(b, loc, base.getType(), memType, base,
                               ValueRange{index});
  return LLVM::GEPOp::create(
      b, loc, base.getType(), b.getI8Type(), base,
      ValueRange{
          swizzledOffsetValue(b, loc, index, elementBytes(memType), swizzle)});
}

bool offsetSplitsByXor(const tile::LinearLayout &layout, OffsetFn offsetOf) {
  int64_t warps = int64_t(1) << layout.numBits(tile::LinearLayout::Warp);
  int64_t lanes = int64_t(1) << layout.numBits(tile::LinearLayout::Lane);
  llvm::SmallVector<int64_t> threadPart(lanes * warps);
  for (int64_t w = 0; w < warps; ++w)
    for (int64_t l = 0; l < lanes; ++l)
      threadPart[w * lanes + l] = offsetOf(layout.apply(0, l, w));
  for (int64_t r = 0; r < layout.numRegisters(); ++r) {
    int64_t registerPart = offsetOf(layout.apply(r, 0, 0));
    for (int64_t w = 0; w < warps; ++w)
      for (int64_t l = 0; l < lanes; ++l)
        if (offsetOf(layout.apply(r, l, w)) !=
            (registerPart ^ threadPart[w * lanes + l]))
          return false;
  }
  return true;
}

SharedRegisterAddresses::SharedRegisterAddresses(
    OpBuilder &b, Location loc, Value base, const tile::LinearLayout &layout,
    Type elementType, SharedSwizzle swizzle, int64_t run, OffsetFn offsetOf,
    function_ref<Value(int64_t)> indexOf)
    : b(b), loc(loc), base(base), layout(layout),
      memType(sharedType(b, elementType)), swizzle(swizzle), run(run),
      offsetOf(offsetOf), indexOf(indexOf) {
  // Swizzled offsets that are the XOR of a per-thread and a per-register
  // part (power-of-two shapes) take one run-time value and a constant XOR
  // per register: no per-register address arithmetic to keep live.
  if (swizzle.unitBytes && offsetOf && offsetSplitsByXor(layout, offsetOf))
    threadOffset =
        swizzledOffsetValue(b, loc, indexOf(0), elementBytes(memType), swizzle);
}

Value SharedRegisterAddresses::at(int64_t r) {
  if (r % run != 0) // inside a run: consecutive elements of one unit
    return LLVM::GEPOp::create(b, loc, base.getType(), memType, runPtr,
                               ValueRange{i32Const(b, loc, r % run)});
  if (threadOffset) {
    Value offset =
        LLVM::XOrOp::create(b, loc, threadOffset,
                            i32Const(b, loc, offsetOf(layout.apply(r, 0, 0))));
    runPtr = LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                                 ValueRange{offset});
  } else {
    runPtr = sharedAddress(b, loc, base, memType, indexOf(r), swizzle);
  }
  return runPtr;
}

void storeTileToShared(OpBuilder &b, Location loc, Value base,
                       const tile::LinearLayout &layout, Type elementType,
                       Value tile, Value lane, Value warp,
                       SharedSwizzle swizzle, bool fence) {
  Type memType = sharedType(b, elementType);
  int64_t bytes = elementBytes(memType);
  // A run of consecutive elements is one vector store.
  int64_t run = alignedRegisterRun(layout, vectorElements(swizzle, bytes));
  auto offsetOf = [&](const tile::LinearLayout::Coords &c) {
    return swizzledByteOffset(layout.linearIndex(c), bytes, swizzle);
  };
  auto indexOf = [&](int64_t r) {
    return linearize(b, loc, registerCoords(b, loc, layout, r, lane, warp),
                     layout.shape());
  };
  SharedRegisterAddresses addresses(b, loc, base, layout, elementType, swizzle,
                                    run, offsetOf, indexOf);
  for (int64_t r = 0; r < layout.numRegisters(); ++r) {
    bool copy = layout.isDuplicateRegister(r);
    if (copy && r % run != 0)
      continue;
    Value ptr = addresses.at(r); // run starts always: later registers use it
    if (copy)
      continue;
    Value v = extract(b, loc, tile, r);
    if (elementType.isInteger(1))
      v = LLVM::ZExtOp::create(b, loc, memType, v);
    LLVM::StoreOp::create(b, loc, v, ptr);
  }
  if (fence)
    barrier(b, loc);
}

Value loadShared(OpBuilder &b, Location loc, Value base, Type elementType,
                 Value linearIndex, SharedSwizzle swizzle) {
  return loadSharedAt(b, loc,
                      sharedAddress(b, loc, base, sharedType(b, elementType),
                                    linearIndex, swizzle),
                      elementType);
}

Value loadSharedAt(OpBuilder &b, Location loc, Value ptr, Type elementType) {
  Type memType = sharedType(b, elementType);
  Value v = LLVM::LoadOp::create(b, loc, memType, ptr);
  if (elementType.isInteger(1))
    v = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, v,
                             scalarConst(b, loc, memType, 0));
  return v;
}

/// Two 16-bit values in one 32-bit register (the first in the low half).
Value packPair(OpBuilder &b, Location loc, Value lo, Value hi) {
  Type i16 = b.getI16Type(), i32 = b.getI32Type();
  Value l = LLVM::ZExtOp::create(b, loc, i32,
                                 LLVM::BitcastOp::create(b, loc, i16, lo));
  Value h = LLVM::ZExtOp::create(b, loc, i32,
                                 LLVM::BitcastOp::create(b, loc, i16, hi));
  return LLVM::OrOp::create(
      b, loc, l, LLVM::ShlOp::create(b, loc, h, i32Const(b, loc, 16)));
}

} // namespace tessera::lowering
