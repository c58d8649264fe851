//===- TileOps.td - tile dialect operations ---------------*- tablegen -*-===//

#ifndef TESSERA_TILE_OPS
#define TESSERA_TILE_OPS

include "TileBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    IsolatedFromAbove, FunctionOpInterface, Symbol, AutomaticAllocationScope,
    SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "a tile kernel: the program run by every instance of a grid";
  let description = [{
    The entry point of a kernel. Arguments are global tensor views
    (`!tile.view`) and scalars (signless integers, floats or `index`); a
    kernel returns nothing. Every tile value inside the body must have
    static power-of-two dimensions, and only `tile`, `arith`, `math` and
    `scf` operations may appear in it.

    ```mlir
    tile.kernel @scale(%x: !tile.view<?xf32>, %alpha: f32) {
      %i = tile.program_id x : index
      %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<128xf32>
      %a = tile.splat %alpha : f32 -> tensor<128xf32>
      %y = arith.mulf %t, %a : tensor<128xf32>
      tile.store %y, %x[%i] : tensor<128xf32> -> !tile.view<?xf32>
      tile.return
    }
    ```

    `num_warps` (a power of two, 1 to 32) sets the kernel's warps (its
    block is 32 x num_warps threads), overriding the module's
    `tile.num_warps` (tile-assign-layouts' option): kernels of one module
    may run on different warps.

    `min_blocks_per_sm` (1 to 32) asks for registers that fit that many
    blocks (programs) of the kernel on one SM: PTX `.minnctapersm`, so
    ptxas keeps each thread under 64K / (blocks x threads) registers and
    spills if it must. For kernels held to few warps per SM by their
    registers, where more warps hide more latency than the spills cost.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<ConfinedAttr<I32Attr,
                           [IntMinValue<1>, IntMaxValue<32>]>>:$min_blocks_per_sm,
                       OptionalAttr<ConfinedAttr<I32Attr,
                           [IntMinValue<1>, IntMaxValue<32>]>>:$num_warps);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::FunctionType":$type)>
  ];
  let extraClassDeclaration = [{
    /// FunctionOpInterface.
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
}

def Tile_ReturnOp : Tile_Op<"return", [Pure, HasParent<"KernelOp">,
                                        ReturnLike, Terminator]> {
  let summary = "ends a kernel instance";
  let assemblyFormat = "attr-dict";
}

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure, Tile_InKernel]> {
  let summary = "index of this program instance along a grid dimension";
  let description = [{
    ```mlir
    %pid = tile.program_id y : index
    ```
  }];
  let arguments = (ins Tile_GridDim:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure, Tile_InKernel]> {
  let summary = "number of program instances along a grid dimension";
  let arguments = (ins Tile_GridDim:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
}

def Tile_DimOp : Tile_Op<"dim", [Pure, Tile_InKernel]> {
  let summary = "run-time size of a view along one dimension";
  let description = [{
    ```mlir
    %k = tile.dim %a[1] : !tile.view<?x?xbf16>
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, I64Attr:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$view `[` $axis `]` attr-dict `:` qualified(type($view))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Tile_LoadOp : Tile_Op<"load", [Tile_InKernel,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "load a tile from a view at a tile index, masked to its bounds";
  let description = [{
    Loads the tile whose element offset along dimension `d` is
    `indices[d] * shape(result)[d]`. Elements outside the run-time bounds of
    the view read `padding` (0 when absent), converted to the element type.

    Hints (all optional; `tile-insert-latency-hints` fills in what the
    author left out and never overrides what the author wrote):
    - `latency(N)`, N in 1..10: how heavy the DRAM traffic of this load is;
      larger means a deeper prefetch pipeline;
    - `cache(evict_first | evict_last | normal)`: the L2 eviction policy;
    - `allow_tma`: the load may be carried out by the Tensor Memory
      Accelerator;
    - `at_use`: issue the load where it is written: `tile-pipeline` neither
      hoists it out of its loop nor issues it ahead (in registers or
      shared memory), so no register holds it before its use (a small
      tile read again from the cache costs less than the registers it
      would hold across a loop body).

    ```mlir
    %a = tile.load %A[%i, %k] latency(3) cache(evict_last)
        : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<Index>:$indices,
                       OptionalAttr<F64Attr>:$padding,
                       OptionalAttr<I32Attr>:$latency,
                       OptionalAttr<Tile_CachePolicy>:$cache,
                       UnitAttr:$allow_tma, UnitAttr:$at_use);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $view `[` $indices `]`
    (`padding` `(` $padding^ `)`)?
    (`latency` `(` $latency^ `)`)?
    (`cache` `(` $cache^ `)`)?
    (`allow_tma` $allow_tma^)?
    (`at_use` $at_use^)?
    attr-dict `:` qualified(type($view)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [Tile_InKernel,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "store a tile into a view at a tile index, masked to its bounds";
  let description = [{
    Stores `value` at element offset `indices[d] * shape(value)[d]` along
    each dimension `d`; elements outside the run-time bounds of the view are
    not written. Takes the same optional hints as `tile.load` (no padding).

    ```mlir
    tile.store %c, %C[%i, %j] cache(evict_first)
        : tensor<64x64xf32> -> !tile.view<?x?xf32>
    ```
  }];
  let arguments = (ins Tile_Tile:$value, Tile_ViewType:$view,
                       Variadic<Index>:$indices,
                       OptionalAttr<I32Attr>:$latency,
                       OptionalAttr<Tile_CachePolicy>:$cache,
                       UnitAttr:$allow_tma);
  let assemblyFormat = [{
    $value `,` $view `[` $indices `]`
    (`latency` `(` $latency^ `)`)?
    (`cache` `(` $cache^ `)`)?
    (`allow_tma` $allow_tma^)?
    attr-dict `:` type($value) `->` qualified(type($view))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def Tile_MmaOp : Tile_Op<"mma", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix multiply-accumulate: result = a * b + acc";
  let description = [{
    `a` is MxK, `b` is KxN, `acc` and the result MxN. Inputs are bf16, f16,
    tf32 or f32; the accumulator is f32. Products are formed in the input
    type and accumulated in f32, as on a Tensor Core. f32 inputs are
    multiplied as `precision`: `tf32` (default: inputs rounded to tf32),
    `tf32x3` (split into three tf32 products, about f32 accurate) or `ieee`
    (exact f32 products, no Tensor Cores).

    ```mlir
    %d = tile.mma %a, %b, %c
        : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    ```
  }];
  let arguments = (ins Tile_FloatTile:$a, Tile_FloatTile:$b,
                       Tile_FloatTile:$acc,
                       OptionalAttr<Tile_MmaPrecision>:$precision);
  let results = (outs Tile_FloatTile:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`precision` `(` $precision^ `)`)? attr-dict
    `:` type($a) `,` type($b) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "reduce a tile along one axis, keeping that axis with size 1";
  let description = [{
    Combines the elements along `axis` with `kind` (sum, prod, max, min);
    the result has the same rank, with size 1 along `axis`, so it broadcasts
    straight back against the source. Float max/min propagate NaN.

    ```mlir
    %m = tile.reduce max %x axis 1 : tensor<32x64xf32> -> tensor<32x1xf32>
    ```
  }];
  let arguments = (ins Tile_Tile:$source, Tile_CombineKind:$kind,
                       I64Attr:$axis);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $kind $source `axis` $axis attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, SameOperandsAndResultType]> {
  let summary = "inclusive scan (prefix combine) of a tile along one axis";
  let description = [{
    `result[.., i, ..] = kind(source[.., 0, ..], ..., source[.., i, ..])`
    along `axis`; with `reverse` the scan runs from the last element down.
    A cumulative sum is `tile.scan sum`.

    ```mlir
    %c = tile.scan sum %dA axis 0 : tensor<64xf32>
    ```
  }];
  let arguments = (ins Tile_Tile:$source, Tile_CombineKind:$kind,
                       I64Attr:$axis, UnitAttr:$reverse);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $kind $source `axis` $axis (`reverse` $reverse^)? attr-dict `:` type($source)
  }];
  let hasVerifier = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure, SameOperandsAndResultElementType]> {
  let summary = "expand size-1 dimensions of a tile";
  let description = [{
    Source and result have the same rank; every source dimension is 1 or
    equal to the result's.

    ```mlir
    %b = tile.broadcast %m : tensor<32x1xf32> -> tensor<32x64xf32>
    ```
  }];
  let arguments = (ins Tile_Tile:$source);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "reinterpret a tile with another shape (row-major order)";
  let description = [{
    The element count is unchanged; elements keep their row-major order.

    ```mlir
    %r = tile.reshape %x : tensor<1x64x1x32xbf16> -> tensor<64x32xbf16>
    ```
  }];
  let arguments = (ins Tile_Tile:$source);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_PermuteOp : Tile_Op<"permute", [Pure, SameOperandsAndResultElementType]> {
  let summary = "permute the dimensions of a tile (transpose)";
  let description = [{
    `result` dimension `i` is `source` dimension `permutation[i]`.

    ```mlir
    %t = tile.permute %x [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
    ```
  }];
  let arguments = (ins Tile_Tile:$source, DenseI64ArrayAttr:$permutation);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $source $permutation attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_GatherOp : Tile_Op<"gather", [Pure, AttrSizedOperandSegments]> {
  let summary = "gather tiles' elements along one or more axes through index tiles";
  let description = [{
    `results[s][i] = sources[s][i with i[axes[k]] replaced by indices[k][i]]`
    for every k: each index tile gives the coordinate along its axis, read
    at the result's own position. The results have the shape of the index
    tiles (all alike), which matches the sources (all of one type) in every
    dimension but the gathered axes. An index outside
    `[0, source.dim(axes[k]))` is undefined behaviour on the device; the
    interpreter reports it as an error.
    Reversals and rotations of a tile (the `k -> -k mod n` map of real-input
    FFT packing, for instance) are gathers with index tiles from iota; a
    permutation of both coordinates of a matrix is one gather along both
    axes, one exchange between threads instead of two. Several sources
    gathered through the same indices (the real and imaginary planes of a
    complex tile) share that exchange: its barriers and its read addresses.

    ```mlir
    %r = tile.gather %z[%idx] axes [0] : tensor<64xf32> [tensor<64xi32>] -> tensor<64xf32>
    %p = tile.gather %m[%rows, %cols] axes [0, 1] : tensor<64x16xf32> [tensor<64x16xi32>, tensor<64x16xi32>] -> tensor<64x16xf32>
    %re, %im = tile.gather %zr, %zi[%idx] axes [0] : tensor<64xf32>, tensor<64xf32> [tensor<64xi32>] -> tensor<64xf32>, tensor<64xf32>
    ```
  }];
  let arguments = (ins Variadic<Tile_Tile>:$sources,
                       Variadic<Tile_IntTile>:$indices,
                       DenseI64ArrayAttr:$axes);
  let results = (outs Variadic<Tile_Tile>:$results);
  let assemblyFormat = [{
    $sources `[` $indices `]` `axes` $axes attr-dict `:` type($sources)
    ` ` `[` type($indices) `]` `->` type($results)
  }];
  let hasVerifier = 1;
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "redistribute a level-2 tile to another layout";
  let description = [{
    The same tile values, held by the threads as `result`'s layout says.
    Lowered through shared memory when the layouts differ.

    ```mlir
    %b = tile.convert_layout %a : tensor<64xf32, #l0> -> tensor<64xf32, #l1>
    ```
  }];
  let arguments = (ins Tile_Tile:$source);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasFolder = 1;
}

def Tile_IotaOp : Tile_Op<"iota", [Pure]> {
  let summary = "the indices along one dimension of a tile";
  let description = [{
    Each element is its coordinate along `dim` (0 unless given): a 1-D
    iota is [0, 1, ..., n-1]; a 2-D one along dim 1 holds in every row the
    column indices. An iota of any layout is made in registers, so the
    compiler produces row and column indices where they are used instead of
    moving a 1-D iota between layouts.

    ```mlir
    %i = tile.iota : tensor<64xi32>
    %cols = tile.iota dim 1 : tensor<64x64xi32>
    ```
  }];
  let arguments = (ins DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Tile_IntTile:$result);
  let assemblyFormat = "(`dim` $dim^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"the scalar is the element type of the tile", "result",
                   "value", "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "a tile with every element equal to a scalar";
  let description = [{
    ```mlir
    %s = tile.splat %alpha : f32 -> tensor<64x64xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnySignlessInteger, AnyFloat]>:$value);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shared memory, mbarriers, TMA and wgmma (level 2, made by passes)
//===----------------------------------------------------------------------===//

def Tile_SharedMem : Type<CPred<"::llvm::isa<::tessera::tile::SharedMemType>($_self)">,
    "shared-memory buffer", "::tessera::tile::SharedMemType">;

def Tile_LocalAllocOp : Tile_Op<"local_alloc"> {
  let summary = "a shared-memory buffer, optionally filled from a tile";
  let description = [{
    Allocates a buffer in the CTA's shared memory, live from here to its
    last use (the lowering lets buffers whose lifetimes do not overlap share
    memory). With `init`, every thread writes the elements it holds (in
    `init`'s layout) to the buffer's layout, then the writes are made
    visible to the async proxy (`fence.proxy.async`) and to every thread (a
    CTA barrier), so wgmma and TMA may use the buffer right away. A buffer
    with `init` is never written again: two of the same tile in one block
    fold into one.

    ```mlir
    %s = tile.local_alloc %a : tensor<128x64xbf16, #blocked>
        -> !tile.smem<128x64xbf16, #tile.nvmma_shared<swizzle = 128>>
    %ring = tile.local_alloc
        : !tile.smem<3x128x64xbf16, #tile.nvmma_shared<swizzle = 128>>
    ```
  }];
  let arguments = (ins Optional<Tile_Tile>:$init);
  let results = (outs Tile_SharedMem:$result);
  let assemblyFormat = [{
    ($init^ `:` type($init) `->`) : (`:`)? qualified(type($result)) attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True if something besides `init` writes the buffer (a TMA load into
    /// it): its contents are then not `init`'s.
    bool isWrittenAfterInit();
  }];
  let hasCanonicalizeMethod = 1;
}

def Tile_LocalLoadOp : Tile_Op<"local_load"> {
  let summary = "read a shared-memory buffer into a tile in registers";
  let description = [{
    Every thread reads the elements its result layout gives it. Into mma.sync
    operand fragments (`#tile.dot_operand`) of 16-bit elements from a
    `#tile.nvmma_shared` buffer this is `ldmatrix` (`.trans` for B), four
    8 x 8 matrices per instruction, conflict-free thanks to the swizzle.

    ```mlir
    %a = tile.local_load %s : !tile.smem<64x32xbf16, #nv>
        -> tensor<64x32xbf16, #tile.dot_operand<0, #mma, kwidth = 2>>
    ```
  }];
  let arguments = (ins Tile_SharedMem:$buffer);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $buffer attr-dict `:` qualified(type($buffer)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_LocalIndexOp : Tile_Op<"local_index", [Pure]> {
  let summary = "one stage of a multi-stage shared-memory buffer";
  let description = [{
    `%buf[%i]` of an `S x R x C` buffer is its `R x C` stage `i` (the index
    is not checked at run time; `0 <= i < S` is the producer's promise).

    ```mlir
    %s = tile.local_index %ring[%i] : !tile.smem<3x128x64xbf16, #nv>
        -> !tile.smem<128x64xbf16, #nv>
    ```
  }];
  let arguments = (ins Tile_SharedMem:$buffer, Index:$index);
  let results = (outs Tile_SharedMem:$result);
  let assemblyFormat = [{
    $buffer `[` $index `]` attr-dict `:` qualified(type($buffer)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_BarrierAllocOp : Tile_Op<"barrier_alloc"> {
  let summary = "an array of initialised mbarriers in shared memory";
  let description = [{
    `N` mbarriers (`!tile.smem<Nxi64>`), each expecting `count` arrivals
    per phase; initialised by one thread, then fenced and made visible to
    every thread of the CTA.

    ```mlir
    %full = tile.barrier_alloc count 1 : !tile.smem<3xi64>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$count);
  let results = (outs Tile_SharedMem:$result);
  let assemblyFormat = "`count` $count attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_BarrierWaitOp : Tile_Op<"barrier_wait"> {
  let summary = "wait until an mbarrier completes the phase of a parity";
  let description = [{
    Blocks the thread until mbarrier `%bars[%i]` has completed the phase
    whose parity is `phase` (0 or 1; `mbarrier.try_wait.parity` in a loop).

    ```mlir
    tile.barrier_wait %full[%s], %phase : !tile.smem<3xi64>
    ```
  }];
  let arguments = (ins Tile_SharedMem:$barriers, Index:$index, I1:$phase);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $phase attr-dict `:` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def Tile_AsyncLoadOp : Tile_Op<"async_load", [Tile_InKernel]> {
  let summary = "asynchronous copy of a tile from a global view into shared memory";
  let description = [{
    Copies the tile at tile indices `indices` of `view` (the box is the
    destination's shape; out-of-bounds elements read as zero) into `dest`
    with `cp.async.bulk.tensor`, one thread issuing it. The copy completes
    on mbarrier `%bars[%i]`: the issuing thread arrives on it expecting the
    destination's bytes. `view` must be a kernel argument: the runtime
    encodes its tensor map at launch (`tile.tma` on the kernel lists them).
    `cache` becomes the TMA L2 cache hint.

    With `cp_async` every thread copies 16-byte pieces with `cp.async`
    (bytes past the view's edge zero-filled) and arrives on the mbarrier
    once they land (`cp.async.mbarrier.arrive.noinc`), so the mbarrier
    expects one arrival per thread and copy; views whose rows are not
    16-byte aligned are copied element by element instead, with a plain
    arrival. `cp_async` also copies from views of higher rank: the tile is
    1 along every dimension but `rows(d)` (the destination's rows, default
    0) and the last (its columns), as a `tile.load` of shape
    1 x .. x R x .. x 1 x C reshaped to R x C reads it.

    ```mlir
    tile.async_load %a[%m, %k] into %sa, %full[%s]
        : !tile.view<?x?xbf16> -> !tile.smem<128x64xbf16, #nv>, !tile.smem<3xi64>
    tile.async_load %x[%b, %c, %h, %p] into %sx, %full[%s] rows(1) cp_async
        : !tile.view<?x?x?x?xbf16> -> !tile.smem<64x64xbf16, #nv>, !tile.smem<2xi64>
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<Index>:$indices,
                       Tile_SharedMem:$dest, Tile_SharedMem:$barriers,
                       Index:$barrierIndex,
                       OptionalAttr<Tile_CachePolicy>:$cache,
                       OptionalAttr<I64Attr>:$rows_dim,
                       UnitAttr:$cp_async);
  let assemblyFormat = [{
    $view `[` $indices `]` `into` $dest `,` $barriers `[` $barrierIndex `]`
    (`rows` `(` $rows_dim^ `)`)?
    (`cache` `(` $cache^ `)`)? (`cp_async` $cp_async^)? attr-dict
    `:` qualified(type($view)) `->` qualified(type($dest)) `,` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def Tile_WarpgroupMmaOp : Tile_Op<"warpgroup_mma",
    [AllTypesMatch<["acc", "result"]>]> {
  let summary = "asynchronous Tensor Core mma with B in shared memory";
  let description = [{
    `result = a * b + acc` with `wgmma.mma_async` (sm_90a): `b` (K x N) in
    a `#tile.nvmma_shared` buffer, `a` (M x K) either in one too or in
    registers (a tile in the A dot-operand layout of the accumulator's
    layout: each warp holds the m16n8k16 A fragments of its 16 rows), the
    accumulator in the version 3 mma layout. The instructions are issued
    and committed as one group but not waited for:
    `tile.warpgroup_mma_wait` must come before the result is read by
    anything but another warpgroup_mma, and before a register `a` is
    written again.

    `transposed` after an operand says its buffer holds the transpose: `a`
    stored K x M (M-major, wgmma's transpose-A) or `b` stored N x K
    (K-major, no transpose-B), so a tile used transposed is written to
    shared memory as it was loaded.

    ```mlir
    %d = tile.warpgroup_mma %sa, %sb, %acc : !tile.smem<128x64xbf16, #nv>,
        !tile.smem<64x256xbf16, #nv>, tensor<128x256xf32, #mma3>
    %e = tile.warpgroup_mma %sa, %sbt transposed, %acc
        : !tile.smem<128x64xbf16, #nv>, !tile.smem<256x64xbf16, #nv>,
          tensor<128x256xf32, #mma3>
    %f = tile.warpgroup_mma %ra, %sb, %acc : tensor<128x64xbf16, #dotA3>,
        !tile.smem<64x256xbf16, #nv>, tensor<128x256xf32, #mma3>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Tile_SharedMem, Tile_FloatTile]>:$a,
                       Tile_SharedMem:$b,
                       Tile_FloatTile:$acc, UnitAttr:$trans_a,
                       UnitAttr:$trans_b);
  let results = (outs Tile_FloatTile:$result);
  let assemblyFormat = [{
    $a (`transposed` $trans_a^)? `,` $b (`transposed` $trans_b^)? `,` $acc
    attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,` type($acc)
  }];
  let extraClassDeclaration = [{
    /// A's tile in registers, or null when A is in shared memory.
    ::mlir::TypedValue<::mlir::RankedTensorType> getRegisterA() {
      return ::llvm::dyn_cast<::mlir::TypedValue<::mlir::RankedTensorType>>(
          getA());
    }
    /// A's shape as stored (K x M when transposed).
    ::llvm::ArrayRef<int64_t> getAShape() {
      if (auto t = ::llvm::dyn_cast<::mlir::RankedTensorType>(getA().getType()))
        return t.getShape();
      return ::llvm::cast<SharedMemType>(getA().getType()).getShape();
    }
    ::mlir::Type getAElementType() {
      if (auto t = ::llvm::dyn_cast<::mlir::RankedTensorType>(getA().getType()))
        return t.getElementType();
      return ::llvm::cast<SharedMemType>(getA().getType()).getElementType();
    }
    /// M x K and K x N, whatever way the operands hold them.
    int64_t getM() { return getAShape()[getTransA() ? 1 : 0]; }
    int64_t getK() { return getAShape()[getTransA() ? 0 : 1]; }
    int64_t getN() { return getB().getType().getShape()[getTransB() ? 0 : 1]; }
  }];
  let hasVerifier = 1;
}

def Tile_WarpgroupMmaWaitOp : Tile_Op<"warpgroup_mma_wait",
    [AllTypesMatch<["acc", "result"]>]> {
  let summary = "wait for all but `pending` wgmma groups of this warpgroup";
  let description = [{
    `wgmma.wait_group pending`: the accumulator that comes out is safe to
    read once `pending` is 0; with `pending = 1` the group just issued may
    still run while the one before it is complete (its shared-memory
    operands may be overwritten).

    ```mlir
    %d = tile.warpgroup_mma_wait %acc pending 0 : tensor<128x256xf32, #mma3>
    ```
  }];
  let arguments = (ins Tile_FloatTile:$acc,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let results = (outs Tile_FloatTile:$result);
  let assemblyFormat = "$acc `pending` $pending attr-dict `:` type($acc)";
}

def Tile_SyncThreadsOp : Tile_Op<"sync_threads"> {
  let summary = "a barrier across every thread of the CTA";
  let description = [{
    Every thread of the program (the CTA) waits here, and the global and
    shared memory accesses each made before it are visible to every thread
    after it (`bar.sync`). A tile's elements are spread over the threads
    by its layout, so a tile stored to a view and loaded back is read by
    other threads than wrote it: without a barrier between them the load
    may read old values. `tile-order-global-memory` inserts it where a
    kernel reads, or overwrites, what it accessed earlier through the same
    view; `tile-pipeline` where a shared-memory ring stage is reused.

    ```mlir
    tile.store %t, %work[%c0, %c0] : tensor<64x64xf32> -> !tile.view<?x?xf32>
    tile.sync_threads
    %u = tile.load %work[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TESSERA_TILE_OPS
