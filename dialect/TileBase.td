//===- TileBase.td - tile dialect, attributes and types ---*- tablegen -*-===//
//
// The `tile` dialect: level-1 tile IR. Tiles are ranked tensors with static
// power-of-two dimensions; global memory is reached through `!tile.view`.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TILE_BASE
#define TESSERA_TILE_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tessera::tile";
  let summary = "Tile-level kernel IR for NVIDIA GPUs";
  let description = [{
    A kernel is a `tile.kernel` run by a grid of program instances. Each
    instance loads fixed-shape tiles (ranked tensors whose dimensions are
    compile-time powers of two) from global tensor views, computes on them
    with `tile`, `arith`, `math` and `scf` ops, and stores tiles back.
    Problem sizes are run-time values: loads and stores are masked against
    the bounds of their view.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tile_CachePolicy : I32EnumAttr<"CachePolicy", "L2 cache policy of a load or store", [
    I32EnumAttrCase<"normal", 0>,
    I32EnumAttrCase<"evict_first", 1>,
    I32EnumAttrCase<"evict_last", 2>
  ]> {
  let cppNamespace = "::tessera::tile";
}

def Tile_CombineKind : I32EnumAttr<"CombineKind", "combining function of a reduction or scan", [
    I32EnumAttrCase<"sum", 0>,
    I32EnumAttrCase<"prod", 1>,
    I32EnumAttrCase<"max", 2>,
    I32EnumAttrCase<"min", 3>
  ]> {
  let cppNamespace = "::tessera::tile";
}

def Tile_GridDim : I32EnumAttr<"GridDim", "grid dimension", [
    I32EnumAttrCase<"x", 0>,
    I32EnumAttrCase<"y", 1>,
    I32EnumAttrCase<"z", 2>
  ]> {
  let cppNamespace = "::tessera::tile";
}

def Tile_MmaPrecision : I32EnumAttr<"MmaPrecision", "how f32 mma inputs are multiplied", [
    I32EnumAttrCase<"tf32", 0>,
    I32EnumAttrCase<"tf32x3", 1>,
    I32EnumAttrCase<"ieee", 2>
  ]> {
  let cppNamespace = "::tessera::tile";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Tile_ViewType : TypeDef<Tile_Dialect, "View"> {
  let mnemonic = "view";
  let summary = "a global tensor view: base pointer plus run-time sizes and strides";
  let description = [{
    A view of a tensor in global memory. `?` dimensions are sized at run
    time; static dimensions are checked when the kernel is launched. Strides
    are always run-time values (in elements). Example:
    `!tile.view<?x?xbf16>`, `!tile.view<?x64xf32>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
  }];
}

//===----------------------------------------------------------------------===//
// Layouts (level 2)
//===----------------------------------------------------------------------===//

def Tile_BlockedLayoutAttr : AttrDef<Tile_Dialect, "BlockedLayout"> {
  let mnemonic = "blocked";
  let summary = "a tile distributed over the threads of a CTA in blocks";
  let description = [{
    Level-2 tile IR carries a layout on every tile type. A blocked layout
    gives each thread `spt` (size per thread) consecutive elements per
    dimension, places `tpw` (threads per warp) and `wpc` (warps per CTA)
    next along each dimension, and repeats the pattern over the tile in
    registers; `order` lists the dimensions from the fastest-varying. Where
    the tile is smaller than the pattern, threads hold copies. Internally
    every layout is a linear layout (a map from register, lane and warp bits
    to tile coordinates, see dialect/LinearLayout.h).

    ```mlir
    tensor<64x32xf32, #tile.blocked<spt = [1, 8], tpw = [8, 4], wpc = [4, 1], order = [1, 0]>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `spt` `=` `[` $sizePerThread `]` `,` `tpw` `=` `[` $threadsPerWarp `]`
    `,` `wpc` `=` `[` $warpsPerCTA `]` `,` `order` `=` `[` $order `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getSizePerThread().size(); }
    unsigned getNumWarps() const;
  }];
}

def Tile_MmaLayoutAttr : AttrDef<Tile_Dialect, "MmaLayout"> {
  let mnemonic = "mma";
  let summary = "the accumulator layout of Tensor Core instructions";
  let description = [{
    A 2-D tile held as the accumulators of `mma.sync.m16n8k16` (version 2,
    `instr = [16, 8]`) or of `wgmma.mma_async` (version 3,
    `instr = [64, N]`, one warpgroup of four warps per 64 rows). Each warp
    covers one instruction tile; `wpc` arranges the warps over rows and
    columns; the pattern repeats in registers over the tile, columns first.
    A tensor may also carry unit dimensions in front of its two (a reshape
    that adds them keeps the accumulator's layout, for a store into a wider
    view).

    ```mlir
    tensor<64x64xf32, #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>>
    ```
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let assemblyFormat = [{
    `<` `version` `=` $version `,` `wpc` `=` `[` $warpsPerCTA `]` `,`
    `instr` `=` `[` $instrShape `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getNumWarps() const;
  }];
}

def Tile_DotOperandLayoutAttr : AttrDef<Tile_Dialect, "DotOperandLayout"> {
  let mnemonic = "dot_operand";
  let summary = "the register layout of an mma input fragment";
  let description = [{
    Operand `opIdx` (0: A, M x K; 1: B, K x N) of the Tensor Core
    instruction whose accumulator layout is `parent`, as `ldmatrix` leaves
    it in registers: `kWidth` consecutive K elements per 32-bit register
    (2 for bf16/f16 and `m16n8k16`; 1 for tf32 and `m16n8k8`). Warps that
    share rows of A (columns of B) hold copies.

    ```mlir
    tensor<64x32xbf16, #tile.dot_operand<idx = 0, parent = #tile.mma<version = 2, wpc = [2, 2], instr = [16, 8]>, kwidth = 2>>
    ```
  }];
  let parameters = (ins "unsigned":$opIdx, "MmaLayoutAttr":$parent,
                        "unsigned":$kWidth);
  let assemblyFormat = [{
    `<` `idx` `=` $opIdx `,` `parent` `=` $parent `,` `kwidth` `=` $kWidth `>`
  }];
  let genVerifyDecl = 1;
}

def Tile_SharedLayoutAttr : AttrDef<Tile_Dialect, "SharedLayout"> {
  let mnemonic = "shared";
  let summary = "a swizzled shared-memory layout";
  let description = [{
    How a tile is laid out in shared memory: row-major along `order`, with
    groups of `vec` elements of a row XOR-swizzled by
    `(row / perPhase) % maxPhase`, so that the threads of a warp reading a
    column (as `ldmatrix` does) hit distinct banks.

    ```mlir
    #tile.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
    ```
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `vec` `=` $vec `,` `perPhase` `=` $perPhase `,` `maxPhase` `=`
    $maxPhase `,` `order` `=` `[` $order `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Element offset of (row, col) in a rows x cols tile (order [1, 0]).
    int64_t offset(int64_t row, int64_t col, int64_t cols) const;
  }];
}

def Tile_NvmmaSharedLayoutAttr : AttrDef<Tile_Dialect, "NvmmaSharedLayout"> {
  let mnemonic = "nvmma_shared";
  let summary = "the shared-memory layout of Tensor Core (wgmma) and TMA tiles";
  let description = [{
    A 2-D `R x C` tile (row-major, C contiguous) cut along C into slabs of
    `swizzle` bytes; slab `s` holds columns `[s*W, (s+1)*W)` (W = swizzle /
    element bytes) as R rows of `swizzle` bytes, slabs one after another.
    Within a slab the 16-byte chunks of row r are XOR-swizzled by
    `(r / (128 / swizzle)) % (swizzle / 16)`: the pattern TMA writes with
    `CU_TENSOR_MAP_SWIZZLE_<swizzle>B` and wgmma descriptors read with the
    same swizzle mode. A leading stage dimension (`S x R x C`) stacks S such
    tiles. Base addresses are 1024-byte aligned.

    ```mlir
    !tile.smem<3x128x64xbf16, #tile.nvmma_shared<swizzle = 128>>
    ```
  }];
  let parameters = (ins "unsigned":$swizzle);
  let assemblyFormat = "`<` `swizzle` `=` $swizzle `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Byte offset of (row, col) in a rows x cols tile of `elementBytes`.
    int64_t offsetBytes(int64_t row, int64_t col, int64_t rows,
                        int64_t elementBytes) const;
  }];
}

def Tile_SharedMemType : TypeDef<Tile_Dialect, "SharedMem"> {
  let mnemonic = "smem";
  let summary = "a buffer in shared memory (level 2)";
  let description = [{
    A statically sized buffer in the CTA's shared memory, created by
    `tile.local_alloc` (tiles) or `tile.barrier_alloc` (mbarriers,
    `!tile.smem<Nxi64>`). The optional encoding is its layout; without one
    it is dense row-major.

    ```mlir
    !tile.smem<128x64xbf16, #tile.nvmma_shared<swizzle = 128>>
    !tile.smem<3xi64>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    int64_t getNumElements() const;
    /// Bytes the buffer takes.
    int64_t getSizeInBytes() const;
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Tile_IsTilePred : CPred<"::tessera::tile::isTileType($_self)">;
def Tile_Tile : Type<Tile_IsTilePred,
    "tile (ranked tensor with static power-of-two dimensions of f16, bf16, "
    "tf32, f32, f64 or i1/i8/i16/i32/i64 elements)",
    "::mlir::RankedTensorType">;
def Tile_FloatTile : Type<And<[Tile_IsTilePred,
    CPred<"::llvm::isa<::mlir::FloatType>(::llvm::cast<::mlir::RankedTensorType>($_self).getElementType())">]>,
    "tile (ranked tensor with static power-of-two dimensions) of f16, bf16, tf32, f32 or f64 elements", "::mlir::RankedTensorType">;
def Tile_IntTile : Type<And<[Tile_IsTilePred,
    CPred<"::llvm::cast<::mlir::RankedTensorType>($_self).getElementType().isSignlessInteger()">]>,
    "tile (ranked tensor with static power-of-two dimensions) of i1/i8/i16/i32/i64 elements", "::mlir::RankedTensorType">;

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//

// Ops that only make sense inside a kernel (they read the grid or the
// kernel's views).
def Tile_InKernel : NativeOpTrait<"InKernel"> {
  let cppNamespace = "::tessera::tile";
}

#endif // TESSERA_TILE_BASE
