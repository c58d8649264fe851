//===- TileDialect.cpp - the tile dialect ----------------------------------===//

#include "dialect/TileDialect.h"
#include "dialect/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tessera::tile;

#include "dialect/TileDialect.cpp.inc"
#include "dialect/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/TileAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialect/TileTypes.cpp.inc"

namespace {
/// Prints layouts as #blocked, #blocked1, ... aliases, as Triton does.
struct TileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TileDialect::initialize() {
  addInterfaces<TileOpAsmInterface>();
  addOperations<
#define GET_OP_LIST
#include "dialect/TileOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialect/TileAttrs.cpp.inc"
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
  if (!tensor || tensor.getRank() == 0)
    return false;
  if (Attribute encoding = tensor.getEncoding()) {
    auto layout = dyn_cast<BlockedLayoutAttr>(encoding);
    if (!layout || layout.getRank() != tensor.getRank())
      return false;
  }
  for (int64_t dim : tensor.getShape())
    if (ShapedType::isDynamic(dim) || dim <= 0 || !llvm::isPowerOf2_64(dim))
      return false;
  return isTileElementType(tensor.getElementType());
}

BlockedLayoutAttr tessera::tile::getLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? dyn_cast_or_null<BlockedLayoutAttr>(tensor.getEncoding())
                : BlockedLayoutAttr();
}

//===----------------------------------------------------------------------===//
// BlockedLayoutAttr
//===----------------------------------------------------------------------===//

unsigned BlockedLayoutAttr::getNumWarps() const {
  unsigned n = 1;
  for (unsigned w : getWarpsPerCTA())
    n *= w;
  return n;
}

LogicalResult
BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<unsigned> spt, ArrayRef<unsigned> tpw,
                          ArrayRef<unsigned> wpc, ArrayRef<unsigned> order) {
  size_t rank = spt.size();
  if (rank == 0 || tpw.size() != rank || wpc.size() != rank ||
      order.size() != rank)
    return emitError() << "spt, tpw, wpc and order need one entry per "
                          "dimension (rank >= 1)";
  unsigned lanes = 1;
  for (size_t d = 0; d < rank; ++d) {
    if (!llvm::isPowerOf2_32(spt[d]) || !llvm::isPowerOf2_32(tpw[d]) ||
        !llvm::isPowerOf2_32(wpc[d]))
      return emitError() << "spt, tpw and wpc entries must be powers of two";
    lanes *= tpw[d];
  }
  if (lanes != 32)
    return emitError() << "tpw must multiply to the 32 lanes of a warp, got "
                       << lanes;
  SmallVector<bool> seen(rank, false);
  for (unsigned o : order) {
    if (o >= rank || seen[o])
      return emitError() << "order must be a permutation of 0.." << rank - 1;
    seen[o] = true;
  }
  return success();
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
