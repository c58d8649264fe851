//===- MemoryToLLVM.cpp - tile.load / tile.store to predicated PTX
//---------===//
//
// Each thread loads or stores the elements its registers hold: the address
// is base + sum_d (index_d * tile_d + coord_d) * stride_d, and the access is
// predicated on every coordinate being inside the view (unsigned compare, so
// negative tile indices are out of bounds too). Loads read the padding
// value where the predicate is false; of several threads holding copies of
// an element only the owner stores it.
//
// A tile wholly inside its view, with unit last stride and aligned rows,
// takes a branch without predicates instead: each access is the thread's
// base pointer plus a register offset that does not depend on where the
// tile lies, so LLVM computes the offsets once, outside loops.
//
//===----------------------------------------------------------------------===//

#include "lowering/Patterns.h"

using namespace mlir;

namespace tessera::lowering {
namespace {

struct ViewFields {
  Value base;
  SmallVector<Value> sizes, strides;
};

ViewFields unpackView(OpBuilder &b, Location loc, Value view, int64_t rank) {
  ViewFields f;
  f.base = extract(b, loc, view, 0);
  for (int64_t d = 0; d < rank; ++d) {
    f.sizes.push_back(extract(b, loc, view, 1 + d));
    f.strides.push_back(extract(b, loc, view, 1 + rank + d));
  }
  return f;
}

/// The view with opaque sizes and strides (see opaqueCopy).
ViewFields opaqueView(OpBuilder &b, Location loc, const ViewFields &view) {
  ViewFields f{view.base, {}, {}};
  for (Value v : view.sizes)
    f.sizes.push_back(opaqueCopy(b, loc, v));
  for (Value v : view.strides)
    f.strides.push_back(opaqueCopy(b, loc, v));
  return f;
}

/// The address of register `reg` and whether it lies inside the view.
std::pair<Value, Value>
elementAddress(OpBuilder &b, Location loc, const ViewFields &view,
               ValueRange indices, const tile::LinearLayout &layout,
               Type memType, int64_t reg, Value lane, Value warp) {
  SmallVector<Value> coords = registerCoords(b, loc, layout, reg, lane, warp);
  Value inBounds;
  Value offset = i64Const(b, loc, 0);
  for (int64_t d = 0; d < layout.rank(); ++d) {
    Value start = LLVM::MulOp::create(b, loc, indices[d],
                                      i64Const(b, loc, layout.shape()[d]));
    Value g = LLVM::AddOp::create(b, loc, start, coords[d]);
    Value inside = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, g,
                                        view.sizes[d]);
    inBounds = inBounds ? Value(LLVM::AndOp::create(b, loc, inBounds, inside))
                        : inside;
    offset = LLVM::AddOp::create(
        b, loc, offset, LLVM::MulOp::create(b, loc, g, view.strides[d]));
  }
  Value ptr = LLVM::GEPOp::create(b, loc, view.base.getType(), memType,
                                  view.base, ValueRange{offset});
  return {ptr, inBounds};
}

/// Views of i1 hold one byte per element.
Type memoryType(OpBuilder &b, Type elementType) {
  return elementType.isInteger(1) ? b.getI8Type() : elementType;
}

/// How many consecutive registers form one vector access: registers whose
/// low bits step along the last (contiguous) dimension, up to 16 bytes of
/// 2-, 4- or 8-byte elements. 1 when the layout or the type does not allow.
int64_t vectorWidth(const tile::LinearLayout &layout, Type element) {
  int64_t bytes = elementBytes(element);
  if (bytes < 2 || element.isInteger(1))
    return 1;
  int64_t last = layout.rank() - 1, width = 1;
  for (int bit = 0; bit < layout.numBits(tile::LinearLayout::Register); ++bit) {
    const auto &basis = layout.bases(tile::LinearLayout::Register)[bit];
    bool next = basis[last] == width;
    for (int64_t d = 0; d < last; ++d)
      next &= basis[d] == 0;
    if (!next || width * 2 * bytes > 16)
      break;
    width *= 2;
  }
  return width;
}

/// The vector fast path of `width` registers from `reg`: taken when the
/// view's last stride is 1 at run time, all the elements are in bounds and
/// the first address is aligned to the vector. Returns the condition.
Value vectorCondition(OpBuilder &b, Location loc, const ViewFields &view,
                      Value firstPtr, ArrayRef<Value> inBounds,
                      int64_t vectorBytes) {
  Value cond = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                    view.strides.back(), i64Const(b, loc, 1));
  for (Value v : inBounds)
    cond = LLVM::AndOp::create(b, loc, cond, v);
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), firstPtr);
  Value misaligned =
      LLVM::AndOp::create(b, loc, address, i64Const(b, loc, vectorBytes - 1));
  Value aligned = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                       misaligned, i64Const(b, loc, 0));
  return LLVM::AndOp::create(b, loc, cond, aligned);
}

/// The unpredicated branch of a tile access (see the file comment): taken
/// when every element lies inside the view, the last stride is 1 and every
/// vector of `vectorBytes` starts aligned.
struct WholeTile {
  Value taken;      // i1
  Value threadBase; // the tile's first element plus this thread's offset
};

/// Whether each coordinate is the thread's part plus the register's part:
/// register bases and lane/warp bases set disjoint bits in every dimension,
/// so their XOR is a sum.
bool splitsThreadAndRegister(const tile::LinearLayout &layout) {
  for (int64_t d = 0; d < layout.rank(); ++d) {
    int64_t regBits = 0, threadBits = 0;
    for (const auto &basis : layout.bases(tile::LinearLayout::Register))
      regBits |= basis[d];
    for (auto in : {tile::LinearLayout::Lane, tile::LinearLayout::Warp})
      for (const auto &basis : layout.bases(in))
        threadBits |= basis[d];
    if (regBits & threadBits)
      return false;
  }
  return true;
}

std::optional<WholeTile> wholeTile(OpBuilder &b, Location loc,
                                   const ViewFields &view, ValueRange indices,
                                   const tile::LinearLayout &layout,
                                   Type memType, int64_t vectorBytes,
                                   Value lane, Value warp) {
  // Single-element accesses save only their bounds checks, and the two
  // branches cost registers across loops (measured: the conv's strided row
  // loads spilled); vectors only.
  if (vectorBytes <= elementBytes(memType) || !splitsThreadAndRegister(layout))
    return std::nullopt;
  auto cmp = [&](LLVM::ICmpPredicate p, Value x, Value y) -> Value {
    return LLVM::ICmpOp::create(b, loc, p, x, y);
  };
  auto c64 = [&](int64_t v) { return i64Const(b, loc, v); };
  const int64_t last = layout.rank() - 1, eb = elementBytes(memType);
  Value taken = cmp(LLVM::ICmpPredicate::eq, view.strides[last], c64(1));
  Value start = c64(0);
  for (int64_t d = 0; d <= last; ++d) {
    Value first =
        LLVM::MulOp::create(b, loc, indices[d], c64(layout.shape()[d]));
    // first < size and size - first >= shape (unsigned: no wrap-around).
    Value left = LLVM::SubOp::create(b, loc, view.sizes[d], first);
    taken = LLVM::AndOp::create(
        b, loc, taken, cmp(LLVM::ICmpPredicate::ult, first, view.sizes[d]));
    taken = LLVM::AndOp::create(
        b, loc, taken,
        cmp(LLVM::ICmpPredicate::uge, left, c64(layout.shape()[d])));
    start = LLVM::AddOp::create(
        b, loc, start, LLVM::MulOp::create(b, loc, first, view.strides[d]));
    if (d < last && vectorBytes > eb) {
      Value rowBytes = LLVM::MulOp::create(b, loc, view.strides[d], c64(eb));
      Value rest = LLVM::AndOp::create(b, loc, rowBytes, c64(vectorBytes - 1));
      taken = LLVM::AndOp::create(b, loc, taken,
                                  cmp(LLVM::ICmpPredicate::eq, rest, c64(0)));
    }
  }
  Value tileBase = LLVM::GEPOp::create(b, loc, view.base.getType(), memType,
                                       view.base, ValueRange{start});
  if (vectorBytes > eb) {
    Value address = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), tileBase);
    Value rest = LLVM::AndOp::create(b, loc, address, c64(vectorBytes - 1));
    taken = LLVM::AndOp::create(b, loc, taken,
                                cmp(LLVM::ICmpPredicate::eq, rest, c64(0)));
  }
  SmallVector<Value> lanePart =
      runtimeCoords(b, loc, layout, tile::LinearLayout::Lane, lane);
  SmallVector<Value> warpPart =
      runtimeCoords(b, loc, layout, tile::LinearLayout::Warp, warp);
  Value offset = c64(0);
  for (int64_t d = 0; d <= last; ++d) {
    Value coord = LLVM::XOrOp::create(b, loc, lanePart[d], warpPart[d]);
    offset = LLVM::AddOp::create(
        b, loc, offset,
        d == last ? coord
                  : LLVM::MulOp::create(b, loc, coord, view.strides[d]));
  }
  Value threadBase = LLVM::GEPOp::create(b, loc, view.base.getType(), memType,
                                         tileBase, ValueRange{offset});
  return WholeTile{taken, threadBase};
}

/// Register addresses on the unpredicated branch, asked for in register
/// order: each is the previous register's row address plus the row step
/// times the strides, plus its column (a constant). The steps repeat, so
/// few values stay live across loops.
class WholeTileAddresses {
public:
  WholeTileAddresses(OpBuilder &b, Location loc, const WholeTile &tile,
                     const ViewFields &view, const tile::LinearLayout &layout,
                     Type memType)
      : b(b), loc(loc), view(view), layout(layout), memType(memType),
        rowPtr(tile.threadBase), rows(layout.rank() - 1, 0) {}

  Value at(int64_t reg) {
    tile::LinearLayout::Coords coords =
        layout.apply(tile::LinearLayout::Register, reg);
    const int64_t last = layout.rank() - 1;
    Value step;
    for (int64_t d = 0; d < last; ++d) {
      if (coords[d] == rows[d])
        continue;
      Value term = LLVM::MulOp::create(b, loc, view.strides[d],
                                       i64Const(b, loc, coords[d] - rows[d]));
      step = step ? Value(LLVM::AddOp::create(b, loc, step, term)) : term;
      rows[d] = coords[d];
    }
    if (step)
      rowPtr = LLVM::GEPOp::create(b, loc, rowPtr.getType(), memType, rowPtr,
                                   ValueRange{step});
    if (coords[last] == 0)
      return rowPtr;
    return LLVM::GEPOp::create(b, loc, rowPtr.getType(), memType, rowPtr,
                               ArrayRef<LLVM::GEPArg>{coords[last]});
  }

private:
  OpBuilder &b;
  Location loc;
  const ViewFields &view;
  const tile::LinearLayout &layout;
  Type memType;
  Value rowPtr;
  SmallVector<int64_t> rows;
};

/// Per-element addresses and bounds of the predicated path, `width`
/// registers from `r0` at a time. `cold`: behind the whole-tile branch, with
/// the view's sizes and strides and the lane and warp ids opaque, so that
/// the arithmetic stays in that branch (see opaqueCopy).
class PredicatedAddresses {
public:
  PredicatedAddresses(OpBuilder &b, Location loc, const ViewFields &view,
                      ValueRange indices, const tile::LinearLayout &layout,
                      Type memType, Value lane, Value warp, bool cold)
      : b(b), loc(loc), view(cold ? opaqueView(b, loc, view) : view),
        indices(indices), layout(layout), memType(memType),
        lane(cold ? opaqueCopy(b, loc, lane) : lane),
        warp(cold ? opaqueCopy(b, loc, warp) : warp) {}

  /// The view the addresses are computed from.
  const ViewFields &fields() const { return view; }

  void at(int64_t r0, int64_t width, SmallVectorImpl<Value> &ptrs,
          SmallVectorImpl<Value> &inBounds) {
    for (int64_t r = r0; r < r0 + width; ++r) {
      auto [ptr, in] =
          elementAddress(b, loc, view, indices, layout, memType, r, lane, warp);
      ptrs.push_back(ptr);
      inBounds.push_back(in);
    }
  }

private:
  OpBuilder &b;
  Location loc;
  ViewFields view;
  ValueRange indices;
  const tile::LinearLayout &layout;
  Type memType;
  Value lane, warp;
};

/// 32- or 64-bit words of a vector access and the elements in each word.
struct Words {
  Type type;     // i32 or i64
  StringRef cls; // PTX register class
  int64_t count; // words
  int64_t perWord;
};

Words wordsFor(OpBuilder &b, Type element, int64_t width) {
  int64_t bytes = elementBytes(element);
  if (bytes == 8)
    return {b.getI64Type(), "l", width, 1};
  int64_t perWord = 4 / bytes;
  return {b.getI32Type(), "r", width / perWord, perWord};
}

/// Elements of `element` type packed in a word (little-endian lanes).
SmallVector<Value> unpackWord(OpBuilder &b, Location loc, Value word,
                              Type element, int64_t perWord) {
  SmallVector<Value> out;
  int64_t bits = 32 / perWord;
  Type intType = b.getIntegerType(bits);
  for (int64_t i = 0; i < perWord; ++i) {
    Value v = word;
    if (perWord > 1) {
      v = LLVM::LShrOp::create(b, loc, v, i32Const(b, loc, i * bits));
      v = LLVM::TruncOp::create(b, loc, intType, v);
    }
    out.push_back(v.getType() == element
                      ? v
                      : Value(LLVM::BitcastOp::create(b, loc, element, v)));
  }
  return out;
}

Value packWord(OpBuilder &b, Location loc, ArrayRef<Value> elements,
               Type wordType) {
  int64_t perWord = elements.size();
  int64_t bits = wordType.getIntOrFloatBitWidth() / perWord;
  Type intType = b.getIntegerType(bits);
  Value word;
  for (int64_t i = 0; i < perWord; ++i) {
    Value v = elements[i];
    if (v.getType() != intType)
      v = LLVM::BitcastOp::create(b, loc, intType, v);
    if (perWord > 1) {
      v = LLVM::ZExtOp::create(b, loc, wordType, v);
      v = LLVM::ShlOp::create(b, loc, v, i32Const(b, loc, i * bits));
      word = word ? Value(LLVM::OrOp::create(b, loc, word, v)) : v;
    } else {
      word = v;
    }
  }
  return word;
}

/// "$first" for one operand, "{$first, $first+1, ...}" for a vector.
std::string operandList(int64_t first, int64_t count) {
  if (count == 1)
    return "$" + std::to_string(first);
  std::string s = "{";
  for (int64_t i = 0; i < count; ++i)
    s += std::string(i ? ", $" : "$") + std::to_string(first + i);
  return s + "}";
}

/// The optional guard predicate and L2 policy operands of a global access,
/// numbered from `next`: appends them and their constraints, and returns
/// the "@$n " prefix and the ", $m" cache-hint operand text.
std::pair<std::string, std::string>
guardAndPolicy(Value pred, Value policy, int64_t next,
               SmallVectorImpl<Value> &operands, std::string &constraints) {
  std::string predText, policyText;
  if (pred) {
    predText = "@$" + std::to_string(next++) + " ";
    constraints += ",b";
    operands.push_back(pred);
  }
  if (policy) {
    policyText = ", $" + std::to_string(next++);
    constraints += ",l";
    operands.push_back(policy);
  }
  return {predText, policyText};
}

/// One ld.global of `width` consecutive elements at `ptr`; predicated (zeros
/// where `pred` is false) when `pred` is given; `ordered` as for
/// predicatedLoad.
SmallVector<Value> vectorLoad(OpBuilder &b, Location loc, Type element,
                              int64_t width, Value ptr, Value pred,
                              Value policy, bool ordered) {
  Words words = wordsFor(b, element, width);
  std::string text;
  if (pred)
    for (int64_t w = 0; w < words.count; ++w)
      text += std::string("mov.b") +
              std::to_string(32 * (words.cls == "l" ? 2 : 1)) + " $" +
              std::to_string(w) + ", 0;\n\t";
  std::string constraints;
  for (int64_t w = 0; w < words.count; ++w)
    constraints += "=" + words.cls.str() + ",";
  constraints += "l";
  SmallVector<Value> operands = {ptr};
  auto [predText, policyText] =
      guardAndPolicy(pred, policy, words.count + 1, operands, constraints);
  std::string vector =
      words.count == 1 ? "" : ".v" + std::to_string(words.count);
  text += predText + "ld.global" + (policy ? ".L2::cache_hint" : "") + vector +
          ".b" + std::to_string(words.cls == "l" ? 64 : 32) + " " +
          operandList(0, words.count) + ", [$" + std::to_string(words.count) +
          "]" + policyText + ";";
  SmallVector<Type> resultTypes(words.count, words.type);
  auto structType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), resultTypes);
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, words.count == 1 ? Type(words.type) : Type(structType), operands,
      text, constraints, /*has_side_effects=*/ordered, false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
  SmallVector<Value> values;
  for (int64_t w = 0; w < words.count; ++w) {
    Value word = words.count == 1 ? asmOp.getResult(0)
                                  : extract(b, loc, asmOp.getResult(0), w);
    for (Value e : unpackWord(b, loc, word, element, words.perWord))
      values.push_back(e);
  }
  return values;
}

/// One st.global of consecutive `elements` at `ptr`, predicated on `pred`
/// when given.
void vectorStore(OpBuilder &b, Location loc, ArrayRef<Value> elements,
                 Value ptr, Value pred, Value policy) {
  Type element = elements.front().getType();
  Words words = wordsFor(b, element, elements.size());
  SmallVector<Value> operands = {ptr};
  for (int64_t w = 0; w < words.count; ++w)
    operands.push_back(packWord(
        b, loc, elements.slice(w * words.perWord, words.perWord), words.type));
  std::string constraints = "l";
  for (int64_t w = 0; w < words.count; ++w)
    constraints += "," + words.cls.str();
  auto [predText, policyText] =
      guardAndPolicy(pred, policy, words.count + 1, operands, constraints);
  std::string vector =
      words.count == 1 ? "" : ".v" + std::to_string(words.count);
  std::string text = predText + "st.global" +
                     (policy ? ".L2::cache_hint" : "") + vector + ".b" +
                     std::to_string(words.cls == "l" ? 64 : 32) + " [$0], " +
                     operandList(1, words.count) + policyText + ";";
  LLVM::InlineAsmOp::create(b, loc, TypeRange{}, operands, text, constraints,
                            true, false, LLVM::tailcallkind::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

struct LoadOpLowering : OpConversionPattern<tile::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    if (!tile::getLayout(type))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    tile::LinearLayout layout = layoutOf(type);
    Type element =
        TileTypeConverter::registerElementType(type.getElementType());
    Type memType = memoryType(rewriter, element);
    ViewFields view = unpackView(rewriter, loc, adaptor.getView(),
                                 op.getView().getType().getRank());
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    double padding = op.getPadding() ? op.getPadding()->convertToDouble() : 0.0;
    Value other = scalarConst(rewriter, loc, element, padding);
    Value policy = createL2Policy(
        rewriter, loc, op.getCache().value_or(tile::CachePolicy::normal));
    const int64_t width = vectorWidth(layout, element);
    const int64_t vectorBytes = width * elementBytes(element);
    Value trueValue = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true));
    const bool ordered = op->hasAttr(kReadsWrittenViewAttr);

    // Every element predicated on its own bounds; vectors where aligned.
    // Behind the whole-tile branch its address arithmetic stays cold.
    auto predicated = [&](bool cold) {
      PredicatedAddresses addresses(rewriter, loc, view, adaptor.getIndices(),
                                    layout, memType, lane, warp, cold);
      SmallVector<Value> values;
      for (int64_t r0 = 0; r0 < layout.numRegisters(); r0 += width) {
        SmallVector<Value> ptrs, inBounds;
        addresses.at(r0, width, ptrs, inBounds);
        if (width == 1) {
          values.push_back(predicatedLoad(rewriter, loc, element, ptrs[0],
                                          inBounds[0], other, policy, ordered));
          continue;
        }
        // One vector load, or one predicated load per element (edges,
        // strided views); both predicated, no branches.
        Value vec = vectorCondition(rewriter, loc, addresses.fields(), ptrs[0],
                                    inBounds, vectorBytes);
        Value scalarPath = LLVM::XOrOp::create(rewriter, loc, vec, trueValue);
        SmallVector<Value> vectorValues = vectorLoad(
            rewriter, loc, element, width, ptrs[0], vec, policy, ordered);
        for (int64_t i = 0; i < width; ++i) {
          Value pred =
              LLVM::AndOp::create(rewriter, loc, scalarPath, inBounds[i]);
          Value scalar = predicatedLoad(rewriter, loc, element, ptrs[i], pred,
                                        other, policy, ordered);
          values.push_back(LLVM::SelectOp::create(rewriter, loc, vec,
                                                  vectorValues[i], scalar));
        }
      }
      return values;
    };

    std::optional<WholeTile> tile =
        wholeTile(rewriter, loc, view, adaptor.getIndices(), layout, memType,
                  vectorBytes, lane, warp);
    SmallVector<Value> values;
    if (!tile) {
      values = predicated(false);
    } else {
      SmallVector<Type> types(layout.numRegisters(), element);
      auto branch = scf::IfOp::create(rewriter, loc, types, tile->taken,
                                      /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard g(rewriter);
        rewriter.setInsertionPointToEnd(&branch.getThenRegion().front());
        SmallVector<Value> fast;
        WholeTileAddresses addresses(rewriter, loc, *tile, view, layout,
                                     memType);
        for (int64_t r0 = 0; r0 < layout.numRegisters(); r0 += width) {
          Value ptr = addresses.at(r0);
          if (width == 1)
            fast.push_back(predicatedLoad(rewriter, loc, element, ptr,
                                          trueValue, other, policy, ordered));
          else
            llvm::append_range(fast, vectorLoad(rewriter, loc, element, width,
                                                ptr, Value(), policy, ordered));
        }
        scf::YieldOp::create(rewriter, loc, fast);
        rewriter.setInsertionPointToEnd(&branch.getElseRegion().front());
        scf::YieldOp::create(rewriter, loc, predicated(true));
      }
      values.assign(branch.getResults().begin(), branch.getResults().end());
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc,
                                      getTypeConverter()->convertType(type),
                                      values));
    return success();
  }
};

struct StoreOpLowering : OpConversionPattern<tile::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getValue().getType();
    if (!tile::getLayout(type))
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    tile::LinearLayout layout = layoutOf(type);
    Type element =
        TileTypeConverter::registerElementType(type.getElementType());
    Type memType = memoryType(rewriter, element);
    ViewFields view = unpackView(rewriter, loc, adaptor.getView(),
                                 op.getView().getType().getRank());
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    Value owner = isOwner(rewriter, loc, layout, lane, warp);
    Value policy = createL2Policy(
        rewriter, loc, op.getCache().value_or(tile::CachePolicy::normal));
    const int64_t width = vectorWidth(layout, element);
    const int64_t vectorBytes = width * elementBytes(element);
    Value trueValue = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true));
    auto elementsAt = [&](int64_t r0) {
      SmallVector<Value> elements;
      for (int64_t r = r0; r < r0 + width; ++r)
        elements.push_back(extract(rewriter, loc, adaptor.getValue(), r));
      return elements;
    };

    // Every element predicated on its own bounds; vectors where aligned.
    // Behind the whole-tile branch its address arithmetic stays cold.
    auto predicated = [&](bool cold) {
      PredicatedAddresses addresses(rewriter, loc, view, adaptor.getIndices(),
                                    layout, memType, lane, warp, cold);
      for (int64_t r0 = 0; r0 < layout.numRegisters(); r0 += width) {
        if (layout.isDuplicateRegister(r0))
          continue;
        SmallVector<Value> ptrs, inBounds;
        SmallVector<Value> elements = elementsAt(r0);
        addresses.at(r0, width, ptrs, inBounds);
        if (width == 1) {
          predicatedStore(
              rewriter, loc, ptrs[0], elements[0],
              LLVM::AndOp::create(rewriter, loc, inBounds[0], owner), policy);
          continue;
        }
        Value vec = vectorCondition(rewriter, loc, addresses.fields(), ptrs[0],
                                    inBounds, vectorBytes);
        vectorStore(rewriter, loc, elements, ptrs[0],
                    LLVM::AndOp::create(rewriter, loc, vec, owner), policy);
        Value scalarPath = LLVM::AndOp::create(
            rewriter, loc, LLVM::XOrOp::create(rewriter, loc, vec, trueValue),
            owner);
        for (int64_t i = 0; i < width; ++i)
          predicatedStore(
              rewriter, loc, ptrs[i], elements[i],
              LLVM::AndOp::create(rewriter, loc, scalarPath, inBounds[i]),
              policy);
      }
    };

    std::optional<WholeTile> tile =
        wholeTile(rewriter, loc, view, adaptor.getIndices(), layout, memType,
                  vectorBytes, lane, warp);
    if (!tile) {
      predicated(false);
    } else {
      // Copies of an element held by several threads: only the owner stores.
      bool copies = false;
      for (auto in : {tile::LinearLayout::Lane, tile::LinearLayout::Warp})
        for (int bit = 0; bit < layout.numBits(in); ++bit)
          copies |= layout.isBroadcastBit(in, bit);
      auto branch =
          scf::IfOp::create(rewriter, loc, tile->taken, /*withElse=*/true);
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPointToStart(&branch.getThenRegion().front());
      WholeTileAddresses addresses(rewriter, loc, *tile, view, layout, memType);
      for (int64_t r0 = 0; r0 < layout.numRegisters(); r0 += width) {
        if (layout.isDuplicateRegister(r0))
          continue;
        Value ptr = addresses.at(r0);
        if (width == 1)
          predicatedStore(rewriter, loc, ptr, elementsAt(r0)[0],
                          copies ? owner : trueValue, policy);
        else
          vectorStore(rewriter, loc, elementsAt(r0), ptr,
                      copies ? owner : Value(), policy);
      }
      rewriter.setInsertionPointToStart(&branch.getElseRegion().front());
      predicated(true);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateMemoryToLLVMPatterns(TileTypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns.add<LoadOpLowering, StoreOpLowering>(converter,
                                                patterns.getContext());
}

} // namespace tessera::lowering
