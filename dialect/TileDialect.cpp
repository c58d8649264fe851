//===- TileDialect.cpp - the tile dialect ----------------------------------===//

#include "dialect/TileDialect.h"
#include "dialect/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tessera::tile;

#include "dialect/TileDialect.cpp.inc"
#include "dialect/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialect/TileTypes.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialect/TileOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialect/TileTypes.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder,
                                            Attribute value, Type type,
                                            Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

bool tessera::tile::isTileElementType(Type type) {
  if (isa<Float16Type, BFloat16Type, FloatTF32Type, Float32Type, Float64Type>(
          type))
    return true;
  return type.isSignlessInteger(1) || type.isSignlessInteger(8) ||
         type.isSignlessInteger(16) || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64);
}

bool tessera::tile::isTileType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() == 0 || tensor.getEncoding())
    return false;
  for (int64_t dim : tensor.getShape())
    if (ShapedType::isDynamic(dim) || dim <= 0 || !llvm::isPowerOf2_64(dim))
      return false;
  return isTileElementType(tensor.getElementType());
}

void tessera::tile::registerTileKernelDialects(DialectRegistry &registry) {
  registry.insert<TileDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect>();
}

//===----------------------------------------------------------------------===//
// ViewType
//===----------------------------------------------------------------------===//

Type ViewType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return parser.getChecked<ViewType>(parser.getContext(), shape, elementType);
}

void ViewType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printDimensionList(getShape());
  printer << "x" << getElementType() << ">";
}

LogicalResult ViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << "a view has rank 1 or more";
  for (int64_t dim : shape)
    if (!ShapedType::isDynamic(dim) && dim <= 0)
      return emitError() << "view dimensions must be positive or '?', got "
                         << dim;
  if (!isTileElementType(elementType) || isa<FloatTF32Type>(elementType))
    return emitError() << "unsupported view element type " << elementType
                       << " (expected f16, bf16, f32, f64 or i1/i8/i16/i32/i64)";
  return success();
}
