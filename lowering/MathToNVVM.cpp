//===- MathToNVVM.cpp - scalar math to PTX approximations
//------------------===//
//
// Transcendentals run in f32 on the SFU approximations (ex2, lg2, sin, cos,
// rsqrt), as CUDA's fast-math intrinsics do: a few ulp from the
// interpreter's correctly rounded f32, well inside the tolerances of
// differential tests. f16/bf16 operands are computed in f32 and rounded
// back. f64 transcendentals need libdevice and are rejected for now.
//
//===----------------------------------------------------------------------===//

#include "lowering/Patterns.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;

namespace tessera::lowering {
namespace {

Value approx(OpBuilder &b, Location loc, StringRef instruction, Value x) {
  std::string text = (instruction + " $0, $1;").str();
  auto op = LLVM::InlineAsmOp::create(b, loc, b.getF32Type(), ValueRange{x},
                                      text, "=f,f", false, false,
                                      LLVM::tailcallkind::TailCallKind::None,
                                      LLVM::AsmDialectAttr(), ArrayAttr());
  return op.getResult(0);
}

Value f32(OpBuilder &b, Location loc, double v) {
  return LLVM::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(v));
}

Value exp2f(OpBuilder &b, Location loc, Value x) {
  return approx(b, loc, "ex2.approx.ftz.f32", x);
}
Value log2f(OpBuilder &b, Location loc, Value x) {
  return approx(b, loc, "lg2.approx.ftz.f32", x);
}
Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  return LLVM::FMulOp::create(b, loc, x, y);
}

/// Rewrites a unary f32 math op through `fn`, extending and rounding
/// f16/bf16.
template <typename OpT> struct UnaryF32Lowering : ConvertOpToLLVMPattern<OpT> {
  using Fn = std::function<Value(OpBuilder &, Location, Value)>;
  UnaryF32Lowering(LLVMTypeConverter &converter, Fn fn)
      : ConvertOpToLLVMPattern<OpT>(converter, /*benefit=*/2), fn(fn) {}
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (isa<ShapedType>(type))
      return failure();
    if (type.isF64())
      return op.emitOpError("f64 transcendental math is not supported on the "
                            "GPU yet (it needs libdevice)");
    Location loc = op.getLoc();
    Value x = adaptor.getOperands()[0];
    if (!type.isF32())
      x = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(), x);
    Value y = fn(rewriter, loc, x);
    if (!type.isF32())
      y = LLVM::FPTruncOp::create(rewriter, loc, type, y);
    rewriter.replaceOp(op, y);
    return success();
  }
  Fn fn;
};

} // namespace

void populateMathToNVVMPatterns(LLVMTypeConverter &converter,
                                RewritePatternSet &patterns) {
  const double log2e = M_LOG2E, ln2 = M_LN2;
  patterns.add<UnaryF32Lowering<math::Exp2Op>>(converter, exp2f);
  patterns.add<UnaryF32Lowering<math::ExpOp>>(
      converter, [=](OpBuilder &b, Location loc, Value x) {
        return exp2f(b, loc, mul(b, loc, x, f32(b, loc, log2e)));
      });
  patterns.add<UnaryF32Lowering<math::Log2Op>>(converter, log2f);
  patterns.add<UnaryF32Lowering<math::LogOp>>(
      converter, [=](OpBuilder &b, Location loc, Value x) {
        return mul(b, loc, log2f(b, loc, x), f32(b, loc, ln2));
      });
  patterns.add<UnaryF32Lowering<math::Log1pOp>>(
      converter, [=](OpBuilder &b, Location loc, Value x) {
        // log1p(x) = log(u) * x / (u - 1) with u = 1 + x keeps the
        // precision of small x (and is x itself where u rounds to 1).
        Value one = f32(b, loc, 1.0);
        Value u = LLVM::FAddOp::create(b, loc, one, x);
        Value logu = mul(b, loc, log2f(b, loc, u), f32(b, loc, ln2));
        Value ratio = LLVM::FDivOp::create(
            b, loc, x, LLVM::FSubOp::create(b, loc, u, one));
        Value r = mul(b, loc, logu, ratio);
        Value isOne =
            LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oeq, u, one);
        Value isInf = LLVM::FCmpOp::create(
            b, loc, LLVM::FCmpPredicate::oeq, u,
            f32(b, loc, std::numeric_limits<double>::infinity()));
        r = LLVM::SelectOp::create(b, loc, isInf, u, r);
        return Value(LLVM::SelectOp::create(b, loc, isOne, x, r));
      });
  patterns.add<UnaryF32Lowering<math::RsqrtOp>>(
      converter, [](OpBuilder &b, Location loc, Value x) {
        return approx(b, loc, "rsqrt.approx.f32", x);
      });
  patterns.add<UnaryF32Lowering<math::TanhOp>>(
      converter, [](OpBuilder &b, Location loc, Value x) {
        return approx(b, loc, "tanh.approx.f32", x);
      });
  // sin/cos: reduce to [-pi, pi] first; the approximations are accurate
  // there (absolute error about 2^-21).
  auto reduce = [](OpBuilder &b, Location loc, Value x) {
    Value turns = mul(b, loc, x, f32(b, loc, 1.0 / (2.0 * M_PI)));
    Value n = LLVM::RintOp::create(b, loc, turns);
    return Value(LLVM::FSubOp::create(b, loc, x,
                                      mul(b, loc, n, f32(b, loc, 2.0 * M_PI))));
  };
  patterns.add<UnaryF32Lowering<math::SinOp>>(
      converter, [=](OpBuilder &b, Location loc, Value x) {
        return approx(b, loc, "sin.approx.f32", reduce(b, loc, x));
      });
  patterns.add<UnaryF32Lowering<math::CosOp>>(
      converter, [=](OpBuilder &b, Location loc, Value x) {
        return approx(b, loc, "cos.approx.f32", reduce(b, loc, x));
      });
}

} // namespace tessera::lowering
