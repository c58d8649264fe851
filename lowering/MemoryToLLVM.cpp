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
    ViewFields view = unpackView(rewriter, loc, adaptor.getView(),
                                 op.getView().getType().getRank());
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    double padding = op.getPadding() ? op.getPadding()->convertToDouble() : 0.0;
    Value other = scalarConst(rewriter, loc, element, padding);
    Value policy = createL2Policy(
        rewriter, loc, op.getCache().value_or(tile::CachePolicy::normal));
    SmallVector<Value> values;
    const int64_t width = vectorWidth(layout, element);
    for (int64_t r0 = 0; r0 < layout.numRegisters(); r0 += width) {
      SmallVector<Value> ptrs, inBounds;
      for (int64_t r = r0; r < r0 + width; ++r) {
        auto [ptr, in] =
            elementAddress(rewriter, loc, view, adaptor.getIndices(), layout,
                           memoryType(rewriter, element), r, lane, warp);
        ptrs.push_back(ptr);
        inBounds.push_back(in);
      }
      if (width == 1) {
        values.push_back(predicatedLoad(rewriter, loc, element, ptrs[0],
                                        inBounds[0], other, policy));
        continue;
      }
      // Fast path: one vector load; otherwise (edges, strided views) one
      // predicated load per element. Both are predicated, no branches.
      Value vec = vectorCondition(rewriter, loc, view, ptrs[0], inBounds,
                                  width * elementBytes(element));
      Value scalarPath = LLVM::XOrOp::create(
          rewriter, loc, vec,
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                   rewriter.getBoolAttr(true)));
      Words words = wordsFor(rewriter, element, width);
      std::string text;
      for (int64_t w = 0; w < words.count; ++w)
        text += std::string("mov.b") +
                std::to_string(32 * (words.cls == "l" ? 2 : 1)) + " $" +
                std::to_string(w) + ", 0;\n\t";
      std::string vector =
          words.count == 1 ? "" : ".v" + std::to_string(words.count);
      text += std::string("@$") + std::to_string(words.count + 1) +
              " ld.global" + (policy ? ".L2::cache_hint" : "") + vector + ".b" +
              std::to_string(words.cls == "l" ? 64 : 32) + " " +
              operandList(0, words.count) + ", [$" +
              std::to_string(words.count) + "]" +
              (policy ? ", $" + std::to_string(words.count + 2) : "") + ";";
      std::string constraints;
      for (int64_t w = 0; w < words.count; ++w)
        constraints += "=" + words.cls.str() + ",";
      constraints += policy ? "l,b,l" : "l,b";
      SmallVector<Type> resultTypes(words.count, words.type);
      auto structType =
          LLVM::LLVMStructType::getLiteral(rewriter.getContext(), resultTypes);
      SmallVector<Value> asmOperands = {ptrs[0], vec};
      if (policy)
        asmOperands.push_back(policy);
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, words.count == 1 ? Type(words.type) : Type(structType),
          asmOperands, text, constraints, false, false,
          LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
          ArrayAttr());
      SmallVector<Value> vectorValues;
      for (int64_t w = 0; w < words.count; ++w) {
        Value word = words.count == 1
                         ? asmOp.getResult(0)
                         : extract(rewriter, loc, asmOp.getResult(0), w);
        for (Value e : unpackWord(rewriter, loc, word, element, words.perWord))
          vectorValues.push_back(e);
      }
      for (int64_t i = 0; i < width; ++i) {
        Value pred =
            LLVM::AndOp::create(rewriter, loc, scalarPath, inBounds[i]);
        Value scalar = predicatedLoad(rewriter, loc, element, ptrs[i], pred,
                                      other, policy);
        values.push_back(LLVM::SelectOp::create(rewriter, loc, vec,
                                                vectorValues[i], scalar));
      }
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
    ViewFields view = unpackView(rewriter, loc, adaptor.getView(),
                                 op.getView().getType().getRank());
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    Value owner = isOwner(rewriter, loc, layout, lane, warp);
    Value policy = createL2Policy(
        rewriter, loc, op.getCache().value_or(tile::CachePolicy::normal));
    const int64_t width = vectorWidth(layout, element);
    Value trueValue = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true));
    for (int64_t r0 = 0; r0 < layout.numRegisters(); r0 += width) {
      if (layout.isDuplicateRegister(r0))
        continue;
      SmallVector<Value> ptrs, inBounds, elements;
      for (int64_t r = r0; r < r0 + width; ++r) {
        auto [ptr, in] =
            elementAddress(rewriter, loc, view, adaptor.getIndices(), layout,
                           memoryType(rewriter, element), r, lane, warp);
        ptrs.push_back(ptr);
        inBounds.push_back(in);
        elements.push_back(extract(rewriter, loc, adaptor.getValue(), r));
      }
      if (width == 1) {
        predicatedStore(rewriter, loc, ptrs[0], elements[0],
                        LLVM::AndOp::create(rewriter, loc, inBounds[0], owner),
                        policy);
        continue;
      }
      Value vec = vectorCondition(rewriter, loc, view, ptrs[0], inBounds,
                                  width * elementBytes(element));
      Value vecStore = LLVM::AndOp::create(rewriter, loc, vec, owner);
      Value scalarPath = LLVM::AndOp::create(
          rewriter, loc, LLVM::XOrOp::create(rewriter, loc, vec, trueValue),
          owner);
      Words words = wordsFor(rewriter, element, width);
      SmallVector<Value> operands = {ptrs[0]};
      for (int64_t w = 0; w < words.count; ++w)
        operands.push_back(packWord(
            rewriter, loc,
            ArrayRef<Value>(elements).slice(w * words.perWord, words.perWord),
            words.type));
      operands.push_back(vecStore);
      if (policy)
        operands.push_back(policy);
      std::string vector =
          words.count == 1 ? "" : ".v" + std::to_string(words.count);
      std::string text =
          std::string("@$") + std::to_string(words.count + 1) + " st.global" +
          (policy ? ".L2::cache_hint" : "") + vector + ".b" +
          std::to_string(words.cls == "l" ? 64 : 32) + " [$0], " +
          operandList(1, words.count) +
          (policy ? ", $" + std::to_string(words.count + 2) : "") + ";";
      std::string constraints = "l";
      for (int64_t w = 0; w < words.count; ++w)
        constraints += "," + words.cls.str();
      constraints += policy ? ",b,l" : ",b";
      LLVM::InlineAsmOp::create(rewriter, loc, TypeRange{}, operands, text,
                                constraints, true, false,
                                LLVM::tailcallkind::TailCallKind::None,
                                LLVM::AsmDialectAttr(), ArrayAttr());
      for (int64_t i = 0; i < width; ++i)
        predicatedStore(
            rewriter, loc, ptrs[i], elements[i],
            LLVM::AndOp::create(rewriter, loc, scalarPath, inBounds[i]),
            policy);
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
