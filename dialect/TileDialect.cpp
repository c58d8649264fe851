//===- TileDialect.cpp - the tile dialect
//----------------------------------===//

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
/// Prints layouts as #blocked, #mma1, #dot_op, ... aliases, as Triton does.
struct TileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<MmaLayoutAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<DotOperandLayoutAttr>(attr)) {
      os << "dot_op";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedLayoutAttr>(attr)) {
      os << "shared";
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

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
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
    if (auto blocked = dyn_cast<BlockedLayoutAttr>(encoding)) {
      if (blocked.getRank() != tensor.getRank())
        return false;
    } else if (isa<MmaLayoutAttr>(encoding)) {
      // A 2-D accumulator, or one with unit dimensions in front (the
      // layout of a reshape that adds them: a store into a wider view).
      if (tensor.getRank() < 2 ||
          llvm::any_of(tensor.getShape().drop_back(2),
                       [](int64_t d) { return d != 1; }))
        return false;
    } else if (isa<DotOperandLayoutAttr>(encoding)) {
      if (tensor.getRank() != 2)
        return false;
    } else {
      return false;
    }
  }
  for (int64_t dim : tensor.getShape())
    if (ShapedType::isDynamic(dim) || dim <= 0 || !llvm::isPowerOf2_64(dim))
      return false;
  return isTileElementType(tensor.getElementType());
}

bool tessera::tile::isDistributedLayout(Attribute attr) {
  return isa_and_nonnull<BlockedLayoutAttr, MmaLayoutAttr,
                         DotOperandLayoutAttr>(attr);
}

Attribute tessera::tile::getLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !isDistributedLayout(tensor.getEncoding()))
    return {};
  return tensor.getEncoding();
}

//===----------------------------------------------------------------------===//
// MmaLayoutAttr / DotOperandLayoutAttr / SharedLayoutAttr
//===----------------------------------------------------------------------===//

unsigned MmaLayoutAttr::getNumWarps() const {
  return getWarpsPerCTA()[0] * getWarpsPerCTA()[1];
}

LogicalResult
MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      unsigned version, ArrayRef<unsigned> wpc,
                      ArrayRef<unsigned> instr) {
  if (wpc.size() != 2 || instr.size() != 2)
    return emitError() << "mma layouts are 2-D: wpc and instr need 2 entries";
  for (unsigned w : wpc)
    if (!llvm::isPowerOf2_32(w))
      return emitError() << "wpc entries must be powers of two";
  if (version == 2) {
    if (instr[0] != 16 || instr[1] != 8)
      return emitError() << "version 2 (mma.sync) has instr = [16, 8]";
  } else if (version == 3) {
    if (instr[0] != 64 || instr[1] < 8 || instr[1] > 256 ||
        !llvm::isPowerOf2_32(instr[1]))
      return emitError() << "version 3 (wgmma) has instr = [64, N] with N a "
                            "power of two in 8..256";
    if (wpc[0] % 4 != 0)
      return emitError() << "version 3 needs whole warpgroups: wpc[0] must "
                            "be a multiple of 4";
  } else {
    return emitError() << "mma version must be 2 (mma.sync) or 3 (wgmma), "
                          "got "
                       << version;
  }
  return success();
}

LogicalResult
DotOperandLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             unsigned opIdx, MmaLayoutAttr parent,
                             unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "idx is 0 (A) or 1 (B), got " << opIdx;
  // wgmma (version 3) takes A, never B, from registers, in 16-bit types.
  if (parent.getVersion() != 2 && (opIdx != 0 || kWidth != 2))
    return emitError() << "a version 3 (wgmma) parent takes only A operands "
                          "(idx 0) of 16-bit types (kwidth 2) in registers";
  if (kWidth != 1 && kWidth != 2)
    return emitError() << "kwidth must be 2 (16-bit operands) or 1 (tf32), got "
                       << kWidth;
  return success();
}

LogicalResult
SharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         unsigned vec, unsigned perPhase, unsigned maxPhase,
                         ArrayRef<unsigned> order) {
  if (!llvm::isPowerOf2_32(vec) || !llvm::isPowerOf2_32(perPhase) ||
      !llvm::isPowerOf2_32(maxPhase))
    return emitError() << "vec, perPhase and maxPhase must be powers of two";
  if (order.size() != 2 ||
      !((order[0] == 1 && order[1] == 0) || (order[0] == 0 && order[1] == 1)))
    return emitError() << "shared layouts are 2-D: order is [1, 0] or [0, 1]";
  return success();
}

int64_t SharedLayoutAttr::offset(int64_t row, int64_t col, int64_t cols) const {
  int64_t vec = getVec();
  int64_t phase = (row / getPerPhase()) % getMaxPhase();
  int64_t group = (col / vec) ^ phase;
  return row * cols + group * vec + col % vec;
}

LogicalResult
NvmmaSharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              unsigned swizzle) {
  if (swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "swizzle must be 32, 64 or 128 bytes, got "
                       << swizzle;
  return success();
}

int64_t NvmmaSharedLayoutAttr::offsetBytes(int64_t row, int64_t col,
                                           int64_t rows,
                                           int64_t elementBytes) const {
  const int64_t span = getSwizzle(), perSlab = span / elementBytes;
  const int64_t slab = col / perSlab, byte = (col % perSlab) * elementBytes;
  const int64_t phase = (row / (128 / span)) % (span / 16);
  return slab * rows * span + row * span + (((byte / 16) ^ phase) * 16) +
         byte % 16;
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
    return emitError()
           << "unsupported view element type " << elementType
           << " (expected f16, bf16, f32, f64 or i1/i8/i16/i32/i64)";
  return success();
}

//===----------------------------------------------------------------------===//
// SharedMemType
//===----------------------------------------------------------------------===//

Type SharedMemType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return {};
  if (succeeded(parser.parseOptionalComma()) && parser.parseAttribute(encoding))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<SharedMemType>(parser.getContext(), shape,
                                          elementType, encoding);
}

void SharedMemType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printDimensionList(getShape());
  printer << "x" << getElementType();
  if (getEncoding())
    printer << ", " << getEncoding();
  printer << ">";
}

int64_t SharedMemType::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n;
}

int64_t SharedMemType::getSizeInBytes() const {
  return getNumElements() *
         std::max<int64_t>(1, getElementType().getIntOrFloatBitWidth() / 8);
}

LogicalResult
SharedMemType::verify(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> shape, Type elementType,
                      Attribute encoding) {
  if (shape.empty())
    return emitError() << "a shared-memory buffer has rank 1 or more";
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "shared-memory dimensions must be positive, got "
                         << dim;
  if (!isTileElementType(elementType) || isa<FloatTF32Type>(elementType))
    return emitError() << "unsupported shared-memory element type "
                       << elementType;
  if (!encoding)
    return success();
  auto nvmma = dyn_cast<NvmmaSharedLayoutAttr>(encoding);
  if (!nvmma)
    return emitError() << "shared-memory encoding must be "
                          "#tile.nvmma_shared, got "
                       << encoding;
  if (shape.size() != 2 && shape.size() != 3)
    return emitError() << "#tile.nvmma_shared buffers are R x C or "
                          "stages x R x C";
  unsigned bits = elementType.getIntOrFloatBitWidth();
  if (!isa<FloatType>(elementType) || (bits != 16 && bits != 32))
    return emitError() << "#tile.nvmma_shared holds 16- or 32-bit floats, "
                          "got "
                       << elementType;
  const int64_t span = nvmma.getSwizzle();
  const int64_t rows = shape[shape.size() - 2], cols = shape[shape.size() - 1];
  if ((cols * bits / 8) % span != 0)
    return emitError() << "rows of " << cols << " x " << elementType
                       << " are not a multiple of the " << span
                       << "-byte swizzle";
  if (rows % (1024 / span) != 0)
    return emitError() << "a " << span << "-byte swizzle needs a multiple of "
                       << 1024 / span << " rows, got " << rows;
  return success();
}
