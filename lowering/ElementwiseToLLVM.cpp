//===- ElementwiseToLLVM.cpp - per-register tile computation
//---------------===//
//
// Elementwise arith/math ops on tiles become the same ops on each register
// (operands and result share one layout); constant tiles, splat and iota
// produce each register's element directly.
//
//===----------------------------------------------------------------------===//

#include "lowering/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace tessera::lowering {
namespace {

/// Any arith/math op with the Elementwise trait and tile results.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(TileTypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
        !isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !tile::getLayout(type))
      return failure();
    // Tile operands share the result's layout; a scalar operand (the
    // condition of arith.select) applies to every register.
    for (Value v : op->getOperands())
      if (isa<RankedTensorType>(v.getType()) &&
          tile::getLayout(v.getType()) != tile::getLayout(type))
        return rewriter.notifyMatchFailure(op, "operand layouts differ");
    Location loc = op->getLoc();
    Type resultStruct = getTypeConverter()->convertType(type);
    Type element =
        TileTypeConverter::registerElementType(type.getElementType());
    int64_t n = cast<LLVM::LLVMStructType>(resultStruct).getBody().size();
    SmallVector<Value> results;
    for (int64_t r = 0; r < n; ++r) {
      SmallVector<Value> scalars;
      for (auto [original, v] : llvm::zip(op->getOperands(), operands))
        scalars.push_back(isa<RankedTensorType>(original.getType())
                              ? extract(rewriter, loc, v, r)
                              : v);
      OperationState state(loc, op->getName());
      state.addOperands(scalars);
      state.addTypes(element);
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc, resultStruct, results));
    return success();
  }
};

/// A constant tile: splats are one scalar; other constants live in a global
/// array read at each register's linear index.
struct ConstantLowering : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !tile::getLayout(type))
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return rewriter.notifyMatchFailure(op, "not a dense constant");
    Location loc = op.getLoc();
    Type structType = getTypeConverter()->convertType(type);
    Type element =
        TileTypeConverter::registerElementType(type.getElementType());
    tile::LinearLayout layout = layoutOf(type);
    SmallVector<Value> values;
    if (dense.isSplat()) {
      Attribute v = dense.getSplatValue<Attribute>();
      Value c;
      if (auto f = dyn_cast<FloatAttr>(v))
        c = LLVM::ConstantOp::create(
            rewriter, loc, element,
            rewriter.getFloatAttr(element, f.getValueAsDouble()));
      else
        c = LLVM::ConstantOp::create(
            rewriter, loc, element,
            rewriter.getIntegerAttr(element, cast<IntegerAttr>(v).getValue()));
      values.assign(layout.numRegisters(), c);
    } else {
      // A global array of the values in row-major order (i1 as i8).
      auto module = op->getParentOfType<ModuleOp>();
      Type memType = element.isInteger(1) ? rewriter.getI8Type() : element;
      auto flatType =
          RankedTensorType::get({type.getNumElements()}, type.getElementType());
      DenseElementsAttr flat = dense.reshape(flatType);
      if (element != type.getElementType() || element.isInteger(1)) {
        // tf32 holds f32 values; i1 is stored as bytes.
        SmallVector<Attribute> converted;
        for (Attribute a : flat.getValues<Attribute>()) {
          if (auto f = dyn_cast<FloatAttr>(a))
            converted.push_back(
                rewriter.getFloatAttr(memType, f.getValueAsDouble()));
          else
            converted.push_back(rewriter.getIntegerAttr(
                memType, cast<IntegerAttr>(a).getValue().getZExtValue()));
        }
        flat = DenseElementsAttr::get(
            RankedTensorType::get({type.getNumElements()}, memType), converted);
      }
      std::string name;
      unsigned id = 0;
      do
        name = "tile_cst_" + std::to_string(id++);
      while (module.lookupSymbol(name));
      auto arrayType = LLVM::LLVMArrayType::get(memType, type.getNumElements());
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(module.getBody());
        LLVM::GlobalOp::create(rewriter, loc, arrayType, /*isConstant=*/true,
                               LLVM::Linkage::Internal, name, flat,
                               /*alignment=*/16, kGlobalSpace);
      }
      Value base = LLVM::AddressOfOp::create(
          rewriter, loc,
          LLVM::LLVMPointerType::get(rewriter.getContext(), kGlobalSpace),
          name);
      Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
      for (int64_t r = 0; r < layout.numRegisters(); ++r) {
        SmallVector<Value> coords =
            registerCoords(rewriter, loc, layout, r, lane, warp);
        Value index = linearize(rewriter, loc, coords, layout.shape());
        Value ptr = LLVM::GEPOp::create(rewriter, loc, base.getType(), memType,
                                        base, ValueRange{index});
        Value v = LLVM::LoadOp::create(rewriter, loc, memType, ptr);
        if (element.isInteger(1))
          v = LLVM::TruncOp::create(rewriter, loc, element, v);
        values.push_back(v);
      }
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, values));
    return success();
  }
};

/// Casts to and from tf32, whose registers hold f32: f32 -> tf32 rounds to
/// nearest, ties away from zero (cvt.rna.tf32.f32, as the interpreter and
/// mma.sync's fragments round); tf32 -> f32 keeps the bits.
template <typename CastOp>
struct Tf32CastLowering : OpConversionPattern<CastOp> {
  Tf32CastLowering(TileTypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern<CastOp>(converter, ctx, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(CastOp op, typename CastOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto in = dyn_cast<RankedTensorType>(op.getIn().getType());
    auto out = dyn_cast<RankedTensorType>(op.getType());
    if (!in || !out || !tile::getLayout(out) ||
        tile::getLayout(in) != tile::getLayout(out))
      return failure();
    const bool round =
        isa<FloatTF32Type>(out.getElementType()) && in.getElementType().isF32();
    const bool widen =
        isa<FloatTF32Type>(in.getElementType()) && out.getElementType().isF32();
    if (!round && !widen)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> values = unpackStruct(rewriter, loc, adaptor.getIn());
    if (round)
      for (Value &v : values) {
        auto cvt = LLVM::InlineAsmOp::create(
            rewriter, loc, rewriter.getI32Type(), ValueRange{v},
            "cvt.rna.tf32.f32 $0, $1;", "=r,f", /*has_side_effects=*/false,
            /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
            LLVM::AsmDialectAttr(), ArrayAttr());
        v = LLVM::BitcastOp::create(rewriter, loc, rewriter.getF32Type(),
                                    cvt.getResult(0));
      }
    rewriter.replaceOp(
        op, packStruct(rewriter, loc,
                       this->getTypeConverter()->convertType(out), values));
    return success();
  }
};

struct SplatLowering : OpConversionPattern<tile::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type structType = getTypeConverter()->convertType(op.getType());
    if (!structType)
      return failure();
    int64_t n = cast<LLVM::LLVMStructType>(structType).getBody().size();
    SmallVector<Value> values(n, adaptor.getValue());
    rewriter.replaceOp(op,
                       packStruct(rewriter, op.getLoc(), structType, values));
    return success();
  }
};

struct IotaLowering : OpConversionPattern<tile::IotaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::IotaOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type structType = getTypeConverter()->convertType(op.getType());
    if (!structType)
      return failure();
    Location loc = op.getLoc();
    tile::LinearLayout layout = layoutOf(op.getType());
    Type element = op.getType().getElementType();
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    SmallVector<Value> values;
    for (int64_t r = 0; r < layout.numRegisters(); ++r) {
      Value c =
          registerCoords(rewriter, loc, layout, r, lane, warp)[op.getDim()];
      if (element.getIntOrFloatBitWidth() < 64)
        c = LLVM::TruncOp::create(rewriter, loc, element, c);
      values.push_back(c);
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, values));
    return success();
  }
};

/// The signed form of an integer compare (the same for eq and ne).
static LLVM::ICmpPredicate signedPredicate(arith::CmpIPredicate p) {
  switch (p) {
  case arith::CmpIPredicate::eq:
    return LLVM::ICmpPredicate::eq;
  case arith::CmpIPredicate::ne:
    return LLVM::ICmpPredicate::ne;
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    return LLVM::ICmpPredicate::slt;
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ule:
    return LLVM::ICmpPredicate::sle;
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::ugt:
    return LLVM::ICmpPredicate::sgt;
  case arith::CmpIPredicate::sge:
  case arith::CmpIPredicate::uge:
    return LLVM::ICmpPredicate::sge;
  }
  llvm_unreachable("unknown integer predicate");
}

/// arith.cmpi of two iota tiles of one layout, as in a causal mask
/// (cols <= rows). Where the layout's register bits and thread bits set
/// different bits of each coordinate, a register's coordinate is its
/// thread's part plus a constant, so
///   lhs pred rhs  <=>  (lhsThread - rhsThread) pred (rhsConst - lhsConst):
/// one difference a thread and one compare with a constant a register. The
/// generic lowering keeps both coordinates of every register, which LLVM
/// hoists out of loops into registers live across them.
struct CoordinateCompareLowering : OpConversionPattern<arith::CmpIOp> {
  CoordinateCompareLowering(TileTypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(arith::CmpIOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto lhs = op.getLhs().getDefiningOp<tile::IotaOp>();
    auto rhs = op.getRhs().getDefiningOp<tile::IotaOp>();
    if (!lhs || !rhs || !tile::getLayout(lhs.getType()))
      return failure();
    tile::LinearLayout layout = layoutOf(lhs.getType());
    // The iota verifier keeps every coordinate non-negative in the element
    // type, so unsigned and signed orders agree; below 2^31 the i32
    // difference of two coordinates cannot wrap.
    for (int64_t d : {lhs.getDim(), rhs.getDim()}) {
      if (layout.shape()[d] > (int64_t(1) << 31))
        return rewriter.notifyMatchFailure(op, "coordinates above 2^31");
      auto bitsOf = [&](tile::LinearLayout::InDim in) {
        int64_t m = 0;
        for (const tile::LinearLayout::Coords &basis : layout.bases(in))
          m |= basis[d];
        return m;
      };
      if (bitsOf(tile::LinearLayout::Register) &
          (bitsOf(tile::LinearLayout::Lane) | bitsOf(tile::LinearLayout::Warp)))
        return rewriter.notifyMatchFailure(
            op, "register and thread bits share a coordinate bit");
    }
    LLVM::ICmpPredicate predicate = signedPredicate(op.getPredicate());
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    SmallVector<Value> thread = threadCoords(rewriter, loc, layout, lane, warp);
    // Separate statements: the lhs part is built first, in a fixed order.
    Value lhsPart =
        LLVM::TruncOp::create(rewriter, loc, i32, thread[lhs.getDim()]);
    Value rhsPart =
        LLVM::TruncOp::create(rewriter, loc, i32, thread[rhs.getDim()]);
    Value difference = LLVM::SubOp::create(rewriter, loc, lhsPart, rhsPart);
    SmallVector<Value> values;
    for (int64_t r = 0; r < layout.numRegisters(); ++r) {
      tile::LinearLayout::Coords c =
          layout.apply(tile::LinearLayout::Register, r);
      values.push_back(LLVM::ICmpOp::create(
          rewriter, loc, predicate, difference,
          i32Const(rewriter, loc, c[rhs.getDim()] - c[lhs.getDim()])));
    }
    rewriter.replaceOp(
        op, packStruct(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), values));
    return success();
  }
};

} // namespace

void populateElementwiseToLLVMPatterns(TileTypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       bool coordinateCompares) {
  patterns.add<ElementwiseLowering>(converter, patterns.getContext());
  patterns.add<ConstantLowering, SplatLowering, IotaLowering>(
      converter, patterns.getContext());
  if (coordinateCompares)
    patterns.add<CoordinateCompareLowering>(converter, patterns.getContext());
  patterns
      .add<Tf32CastLowering<arith::TruncFOp>, Tf32CastLowering<arith::ExtFOp>>(
          converter, patterns.getContext());
}

} // namespace tessera::lowering
